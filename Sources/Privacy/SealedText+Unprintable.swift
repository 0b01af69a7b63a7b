// Printing a SealedText is a compile error, not just an empty mirror.
//
// `print` and friends take `Any`, and every value converts to `Any`, so a type alone cannot
// refuse to be printed; an `unavailable` overload does not help either, because the compiler
// ranks unavailable declarations below the `Any` ones. What works is two overloads for
// SealedText that fit a call equally well (they differ only in a defaulted trailing argument):
// the compiler prefers them to the `Any` versions and then cannot choose between them, so
// `print(sealed)` stops with "ambiguous use of 'print'". Covered: print, debugPrint, dump and
// string interpolation. Not covered, where the empty mirror still hides the words: a SealedText
// among other print arguments, and String(describing:) / String(reflecting:) (with Foundation
// imported the compiler finds an unambiguous initializer).
// Tests/AuditTests/SealedTextCompileTests.swift compiles such snippets and expects the errors.

/// The defaulted argument that makes printing a `SealedText` ambiguous; never passed.
public enum NeverPrinted: Sendable { case refused }

/// With its twin below, makes `print(sealed)` ambiguous, so it does not compile.
public func print(_ items: SealedText..., separator: String = " ", terminator: String = "\n", _ never: NeverPrinted = .refused) {}
/// With its twin above, makes `print(sealed)` ambiguous, so it does not compile.
public func print(_ items: SealedText..., separator: String = " ", terminator: String = "\n", _ never: NeverPrinted? = nil) {}

/// With its twin below, makes `debugPrint(sealed)` ambiguous, so it does not compile.
public func debugPrint(_ items: SealedText..., separator: String = " ", terminator: String = "\n", _ never: NeverPrinted = .refused) {}
/// With its twin above, makes `debugPrint(sealed)` ambiguous, so it does not compile.
public func debugPrint(_ items: SealedText..., separator: String = " ", terminator: String = "\n", _ never: NeverPrinted? = nil) {}

/// With its twin below, makes `dump(sealed)` ambiguous, so it does not compile.
@discardableResult
public func dump(_ value: SealedText, name: String? = nil, indent: Int = 0, maxDepth: Int = .max, maxItems: Int = .max,
                 _ never: NeverPrinted = .refused) -> SealedText { value }
/// With its twin above, makes `dump(sealed)` ambiguous, so it does not compile.
@discardableResult
public func dump(_ value: SealedText, name: String? = nil, indent: Int = 0, maxDepth: Int = .max, maxItems: Int = .max,
                 _ never: NeverPrinted? = nil) -> SealedText { value }

extension DefaultStringInterpolation {
    /// With its twin below, makes `"\(sealed)"` ambiguous, so it does not compile.
    public mutating func appendInterpolation(_ value: SealedText, _ never: NeverPrinted = .refused) {}
    /// With its twin above, makes `"\(sealed)"` ambiguous, so it does not compile.
    public mutating func appendInterpolation(_ value: SealedText, _ never: NeverPrinted? = nil) {}
}
