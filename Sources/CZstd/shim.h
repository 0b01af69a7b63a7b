#ifndef REPLAY_CZSTD_SHIM_H
#define REPLAY_CZSTD_SHIM_H
// libzstd's streaming API (ZSTD_DCtx, ZSTD_decompressStream, ZSTD_CCtx, ZSTD_compressStream2)
// imports into Swift as it is: no shim functions are needed, only the header.
#include <zstd.h>
#include <zstd_errors.h>
#endif
