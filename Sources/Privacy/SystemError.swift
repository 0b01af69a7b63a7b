#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call's errno, with the C library's message for it: system words, never data.
///
/// The one place the project turns an errno into text, so every module's errors read the same
/// ("Permission denied (errno 13)") and none reads `errno` after a call it did not make.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The errno value.
    public let code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The calling thread's errno, read now: call right after the failed call.
    public static var current: SystemError { SystemError(errno) }

    /// The C library's message, such as "No such file or directory".
    public var message: String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// The message and the number: "Permission denied (errno 13)".
    public var description: String { message + " (errno \(code))" }
}
