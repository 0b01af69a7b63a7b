import Confinement
import CXattr
import Foundation

/// The extended attributes of a file, read without following a final symbolic link.
///
/// A run confined to its directory can still hang words on a file there as an attribute's name
/// or value (`user.note`), which a scan of the file's bytes would never see; the audit reads them.
enum ExtendedAttributes {
    /// The most bytes read of one attribute's value.
    static let valueLimit = 1 << 16

    /// Each attribute's name, then its value, as texts for the leak scan, for a path given as C
    /// bytes (a name that is not UTF-8 has no `String`).
    static func texts(atPath path: UnsafePointer<CChar>) -> [(String, [UInt8])] {
        let size = llistxattr(path, nil, 0)
        guard size > 0 else { return [] }
        var names = [CChar](repeating: 0, count: size)
        let read = llistxattr(path, &names, size)
        guard read > 0 else { return [] }
        var texts: [(String, [UInt8])] = []
        for name in names[..<read].split(separator: 0) {
            let nameBytes = name.map { UInt8(bitPattern: $0) }
            texts.append(("an extended attribute's name", nameBytes))
            var value = [UInt8](repeating: 0, count: valueLimit)
            let length = (nameBytes + [0]).withUnsafeBufferPointer { namePointer in
                namePointer.withMemoryRebound(to: CChar.self) { lgetxattr(path, $0.baseAddress!, &value, valueLimit) }
            }
            if length > 0 { texts.append(("an extended attribute's value", Array(value[..<length]))) }
        }
        return texts
    }
}
