import Privacy

// Printing a job's output is a compile error, as printing a SealedText is (see Privacy's
// SealedText+Unprintable.swift for the trick): for each output type, two overloads of print,
// debugPrint, dump, string interpolation, String(describing:) and String(reflecting:) that fit a
// call equally well, so the compiler prefers them to the standard `Any` and generic versions and
// then cannot choose between them ("ambiguous use of 'print'").
//
// The twins differ in a defaulted trailing argument of two unrelated types (`NeverPrinted` and
// its metatype), so neither is more specific than the other. (SealedText's twins differ by an
// optional, and for String(describing:) the non-optional twin wins and the call compiles.)
// Generic overloads over `SealedOutput` work for print but not for dump, interpolation or
// String(describing:), where the call compiles too. Hence one block per type.
//
// Not covered, where the empty mirror still hides the words: an output among other print
// arguments, an optional or an array of outputs.

// MARK: Replies

/// With its twin below, makes `print(replies)` ambiguous, so it does not compile.
public func print(_ items: Replies..., separator: String = " ", terminator: String = "\n", _ never: NeverPrinted = .refused) {}
/// With its twin above, makes `print(replies)` ambiguous, so it does not compile.
public func print(_ items: Replies..., separator: String = " ", terminator: String = "\n",
                  _ never: NeverPrinted.Type = NeverPrinted.self) {}

/// With its twin below, makes `debugPrint(replies)` ambiguous, so it does not compile.
public func debugPrint(_ items: Replies..., separator: String = " ", terminator: String = "\n", _ never: NeverPrinted = .refused) {}
/// With its twin above, makes `debugPrint(replies)` ambiguous, so it does not compile.
public func debugPrint(_ items: Replies..., separator: String = " ", terminator: String = "\n",
                       _ never: NeverPrinted.Type = NeverPrinted.self) {}

/// With its twin below, makes `dump(replies)` ambiguous, so it does not compile.
@discardableResult
public func dump(_ value: Replies, name: String? = nil, indent: Int = 0, maxDepth: Int = .max, maxItems: Int = .max,
                 _ never: NeverPrinted = .refused) -> Replies { value }
/// With its twin above, makes `dump(replies)` ambiguous, so it does not compile.
@discardableResult
public func dump(_ value: Replies, name: String? = nil, indent: Int = 0, maxDepth: Int = .max, maxItems: Int = .max,
                 _ never: NeverPrinted.Type = NeverPrinted.self) -> Replies { value }

extension DefaultStringInterpolation {
    /// With its twin below, makes `"\(replies)"` ambiguous, so it does not compile.
    public mutating func appendInterpolation(_ value: Replies, _ never: NeverPrinted = .refused) {}
    /// With its twin above, makes `"\(replies)"` ambiguous, so it does not compile.
    public mutating func appendInterpolation(_ value: Replies, _ never: NeverPrinted.Type = NeverPrinted.self) {}
}

extension String {
    /// With its twin below, makes `String(describing: replies)` ambiguous, so it does not compile.
    public init(describing value: Replies, _ never: NeverPrinted = .refused) { self = "" }
    /// With its twin above, makes `String(describing: replies)` ambiguous, so it does not compile.
    public init(describing value: Replies, _ never: NeverPrinted.Type = NeverPrinted.self) { self = "" }
    /// With its twin below, makes `String(reflecting: replies)` ambiguous, so it does not compile.
    public init(reflecting value: Replies, _ never: NeverPrinted = .refused) { self = "" }
    /// With its twin above, makes `String(reflecting: replies)` ambiguous, so it does not compile.
    public init(reflecting value: Replies, _ never: NeverPrinted.Type = NeverPrinted.self) { self = "" }
}

// MARK: PushLine

/// With its twin below, makes `print(pushLine)` ambiguous, so it does not compile.
public func print(_ items: PushLine..., separator: String = " ", terminator: String = "\n", _ never: NeverPrinted = .refused) {}
/// With its twin above, makes `print(pushLine)` ambiguous, so it does not compile.
public func print(_ items: PushLine..., separator: String = " ", terminator: String = "\n",
                  _ never: NeverPrinted.Type = NeverPrinted.self) {}

/// With its twin below, makes `debugPrint(pushLine)` ambiguous, so it does not compile.
public func debugPrint(_ items: PushLine..., separator: String = " ", terminator: String = "\n", _ never: NeverPrinted = .refused) {}
/// With its twin above, makes `debugPrint(pushLine)` ambiguous, so it does not compile.
public func debugPrint(_ items: PushLine..., separator: String = " ", terminator: String = "\n",
                       _ never: NeverPrinted.Type = NeverPrinted.self) {}

/// With its twin below, makes `dump(pushLine)` ambiguous, so it does not compile.
@discardableResult
public func dump(_ value: PushLine, name: String? = nil, indent: Int = 0, maxDepth: Int = .max, maxItems: Int = .max,
                 _ never: NeverPrinted = .refused) -> PushLine { value }
/// With its twin above, makes `dump(pushLine)` ambiguous, so it does not compile.
@discardableResult
public func dump(_ value: PushLine, name: String? = nil, indent: Int = 0, maxDepth: Int = .max, maxItems: Int = .max,
                 _ never: NeverPrinted.Type = NeverPrinted.self) -> PushLine { value }

extension DefaultStringInterpolation {
    /// With its twin below, makes `"\(pushLine)"` ambiguous, so it does not compile.
    public mutating func appendInterpolation(_ value: PushLine, _ never: NeverPrinted = .refused) {}
    /// With its twin above, makes `"\(pushLine)"` ambiguous, so it does not compile.
    public mutating func appendInterpolation(_ value: PushLine, _ never: NeverPrinted.Type = NeverPrinted.self) {}
}

extension String {
    /// With its twin below, makes `String(describing: pushLine)` ambiguous, so it does not compile.
    public init(describing value: PushLine, _ never: NeverPrinted = .refused) { self = "" }
    /// With its twin above, makes `String(describing: pushLine)` ambiguous, so it does not compile.
    public init(describing value: PushLine, _ never: NeverPrinted.Type = NeverPrinted.self) { self = "" }
    /// With its twin below, makes `String(reflecting: pushLine)` ambiguous, so it does not compile.
    public init(reflecting value: PushLine, _ never: NeverPrinted = .refused) { self = "" }
    /// With its twin above, makes `String(reflecting: pushLine)` ambiguous, so it does not compile.
    public init(reflecting value: PushLine, _ never: NeverPrinted.Type = NeverPrinted.self) { self = "" }
}

// MARK: Route

/// With its twin below, makes `print(route)` ambiguous, so it does not compile.
public func print(_ items: Route..., separator: String = " ", terminator: String = "\n", _ never: NeverPrinted = .refused) {}
/// With its twin above, makes `print(route)` ambiguous, so it does not compile.
public func print(_ items: Route..., separator: String = " ", terminator: String = "\n",
                  _ never: NeverPrinted.Type = NeverPrinted.self) {}

/// With its twin below, makes `debugPrint(route)` ambiguous, so it does not compile.
public func debugPrint(_ items: Route..., separator: String = " ", terminator: String = "\n", _ never: NeverPrinted = .refused) {}
/// With its twin above, makes `debugPrint(route)` ambiguous, so it does not compile.
public func debugPrint(_ items: Route..., separator: String = " ", terminator: String = "\n",
                       _ never: NeverPrinted.Type = NeverPrinted.self) {}

/// With its twin below, makes `dump(route)` ambiguous, so it does not compile.
@discardableResult
public func dump(_ value: Route, name: String? = nil, indent: Int = 0, maxDepth: Int = .max, maxItems: Int = .max,
                 _ never: NeverPrinted = .refused) -> Route { value }
/// With its twin above, makes `dump(route)` ambiguous, so it does not compile.
@discardableResult
public func dump(_ value: Route, name: String? = nil, indent: Int = 0, maxDepth: Int = .max, maxItems: Int = .max,
                 _ never: NeverPrinted.Type = NeverPrinted.self) -> Route { value }

extension DefaultStringInterpolation {
    /// With its twin below, makes `"\(route)"` ambiguous, so it does not compile.
    public mutating func appendInterpolation(_ value: Route, _ never: NeverPrinted = .refused) {}
    /// With its twin above, makes `"\(route)"` ambiguous, so it does not compile.
    public mutating func appendInterpolation(_ value: Route, _ never: NeverPrinted.Type = NeverPrinted.self) {}
}

extension String {
    /// With its twin below, makes `String(describing: route)` ambiguous, so it does not compile.
    public init(describing value: Route, _ never: NeverPrinted = .refused) { self = "" }
    /// With its twin above, makes `String(describing: route)` ambiguous, so it does not compile.
    public init(describing value: Route, _ never: NeverPrinted.Type = NeverPrinted.self) { self = "" }
    /// With its twin below, makes `String(reflecting: route)` ambiguous, so it does not compile.
    public init(reflecting value: Route, _ never: NeverPrinted = .refused) { self = "" }
    /// With its twin above, makes `String(reflecting: route)` ambiguous, so it does not compile.
    public init(reflecting value: Route, _ never: NeverPrinted.Type = NeverPrinted.self) { self = "" }
}

// MARK: Draft

/// With its twin below, makes `print(draft)` ambiguous, so it does not compile.
public func print(_ items: Draft..., separator: String = " ", terminator: String = "\n", _ never: NeverPrinted = .refused) {}
/// With its twin above, makes `print(draft)` ambiguous, so it does not compile.
public func print(_ items: Draft..., separator: String = " ", terminator: String = "\n",
                  _ never: NeverPrinted.Type = NeverPrinted.self) {}

/// With its twin below, makes `debugPrint(draft)` ambiguous, so it does not compile.
public func debugPrint(_ items: Draft..., separator: String = " ", terminator: String = "\n", _ never: NeverPrinted = .refused) {}
/// With its twin above, makes `debugPrint(draft)` ambiguous, so it does not compile.
public func debugPrint(_ items: Draft..., separator: String = " ", terminator: String = "\n",
                       _ never: NeverPrinted.Type = NeverPrinted.self) {}

/// With its twin below, makes `dump(draft)` ambiguous, so it does not compile.
@discardableResult
public func dump(_ value: Draft, name: String? = nil, indent: Int = 0, maxDepth: Int = .max, maxItems: Int = .max,
                 _ never: NeverPrinted = .refused) -> Draft { value }
/// With its twin above, makes `dump(draft)` ambiguous, so it does not compile.
@discardableResult
public func dump(_ value: Draft, name: String? = nil, indent: Int = 0, maxDepth: Int = .max, maxItems: Int = .max,
                 _ never: NeverPrinted.Type = NeverPrinted.self) -> Draft { value }

extension DefaultStringInterpolation {
    /// With its twin below, makes `"\(draft)"` ambiguous, so it does not compile.
    public mutating func appendInterpolation(_ value: Draft, _ never: NeverPrinted = .refused) {}
    /// With its twin above, makes `"\(draft)"` ambiguous, so it does not compile.
    public mutating func appendInterpolation(_ value: Draft, _ never: NeverPrinted.Type = NeverPrinted.self) {}
}

extension String {
    /// With its twin below, makes `String(describing: draft)` ambiguous, so it does not compile.
    public init(describing value: Draft, _ never: NeverPrinted = .refused) { self = "" }
    /// With its twin above, makes `String(describing: draft)` ambiguous, so it does not compile.
    public init(describing value: Draft, _ never: NeverPrinted.Type = NeverPrinted.self) { self = "" }
    /// With its twin below, makes `String(reflecting: draft)` ambiguous, so it does not compile.
    public init(reflecting value: Draft, _ never: NeverPrinted = .refused) { self = "" }
    /// With its twin above, makes `String(reflecting: draft)` ambiguous, so it does not compile.
    public init(reflecting value: Draft, _ never: NeverPrinted.Type = NeverPrinted.self) { self = "" }
}
