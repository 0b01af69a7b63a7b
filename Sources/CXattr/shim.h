// <sys/xattr.h>: listxattr(2) and getxattr(2), which Swift's Glibc module does not export. The
// audit reads the extended attributes of every file a run left, since words can hide there.
#include <sys/xattr.h>
