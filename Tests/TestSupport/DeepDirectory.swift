import Foundation

/// A chain of nested directories whose full path is longer than PATH_MAX: no call that takes a
/// path reaches its bottom, and `openat` from one level to the next does. For tests of code that
/// must walk by descriptor (the audit's scans, the schema check).
public enum DeepDirectory {
    /// Makes `levels` nested directories of `nameLength` repeated digits beneath `root` and
    /// returns a descriptor of the deepest (the caller closes it), or nil if a step failed.
    public static func make(beneath root: String, levels: Int, nameLength: Int = 250) -> Int32? {
        var current = open(root, O_RDONLY | O_DIRECTORY)
        guard current >= 0 else { return nil }
        for level in 0..<levels {
            let name = String(repeating: Character(String(level % 10)), count: nameLength)
            let next = mkdirat(current, name, 0o700) == 0 ? openat(current, name, O_RDONLY | O_DIRECTORY) : -1
            close(current)
            guard next >= 0 else { return nil }
            current = next
        }
        return current
    }
}
