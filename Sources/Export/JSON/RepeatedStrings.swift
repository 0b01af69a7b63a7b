#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Strings that repeat from line to line (a thread's id on each of its messages, `from`, builds,
/// model versions, push kinds), made once and handed out again while they keep coming.
///
/// Making a `String` validates and copies its bytes, and most fields of a message are the same
/// few values over and over; a lookup here is a cheap hash of the first and last bytes and one
/// comparison. Direct-mapped (a new value takes its slot over), so memory is fixed: 256 slots of
/// at most 32 bytes. For metadata only (ids and labels), never for words; one per reader.
final class RepeatedStrings {
    /// Values longer than this are always made afresh.
    static let maximumLength = 32
    private static let slotCount = 256

    // Through pointers, not arrays in class properties: those cost an exclusivity check per access.
    private let bytes: UnsafeMutableRawPointer
    private let lengths: UnsafeMutablePointer<Int>
    private let strings: UnsafeMutablePointer<String>

    init() {
        bytes = .allocate(byteCount: RepeatedStrings.slotCount * RepeatedStrings.maximumLength, alignment: 16)
        lengths = .allocate(capacity: RepeatedStrings.slotCount)
        lengths.initialize(repeating: -1, count: RepeatedStrings.slotCount)
        strings = .allocate(capacity: RepeatedStrings.slotCount)
        strings.initialize(repeating: "", count: RepeatedStrings.slotCount)
    }

    deinit {
        bytes.deallocate()
        lengths.deallocate()
        strings.deinitialize(count: RepeatedStrings.slotCount)
        strings.deallocate()
    }

    /// The string of `raw` (valid UTF-8: the parser checked it).
    func string(_ raw: UnsafeRawBufferPointer) -> String {
        let count = raw.count
        guard count <= RepeatedStrings.maximumLength, let source = raw.baseAddress else {
            return String(decoding: raw, as: UTF8.self)
        }
        let slot = RepeatedStrings.slot(source, count)
        let stored = bytes + slot &* RepeatedStrings.maximumLength
        if lengths[slot] == count && RepeatedStrings.same(stored, source, count) {
            return strings[slot]
        }
        let made = String(decoding: raw, as: UTF8.self)
        stored.copyMemory(from: source, byteCount: count)
        lengths[slot] = count
        strings[slot] = made
        return made
    }

    /// Whether `count` bytes at `a` and `b` are the same: two overlapping words for 8 to 16
    /// bytes (most labels), one word each read by `littleEndianWord` below 8 (`person`, `reply`,
    /// a model version: a call to memcmp cost more than the comparison), else memcmp.
    @inline(__always)
    private static func same(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        if count >= 8 && count <= 16 {
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
        if count < 8 { return a.littleEndianWord(count: count) == b.littleEndianWord(count: count) }
        return memcmp(a, b, count) == 0
    }

    /// A slot from the length and the first and last (up to) eight bytes (a value shorter than
    /// eight read as one word, without a byte loop).
    @inline(__always)
    private static func slot(_ source: UnsafeRawPointer, _ count: Int) -> Int {
        var first: UInt64 = 0, last: UInt64 = 0
        if count >= 8 {
            first = source.loadUnaligned(as: UInt64.self)
            last = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        } else {
            first = source.littleEndianWord(count: count)
        }
        let mixed = (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
        return Int(truncatingIfNeeded: (mixed &* 0x2545_F491_4F6C_DD1D) >> 56)
    }
}
