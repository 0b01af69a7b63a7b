import Foundation

/// Runs a program to completion for a test: its exit status and what it printed.
///
/// Standard output and standard error are read on their own threads, so a program that fills
/// one pipe while the test reads the other cannot deadlock.
public struct Subprocess: Sendable {
    /// The exit status (or the signal number, when `signalled`).
    public var status: Int32
    /// Whether a signal ended the program.
    public var signalled: Bool
    public var standardOutput: Data
    public var standardError: Data

    /// Standard output as UTF-8 text.
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error as UTF-8 text.
    public var errors: String { String(decoding: standardError, as: UTF8.self) }

    /// Runs `executable` (a path) with `arguments`, `input` on its standard input.
    public static func run(_ executable: String, _ arguments: [String] = [], input: Data? = nil,
                           environment: [String: String]? = nil, directory: String? = nil) throws -> Subprocess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let stdin = input.map { _ in Pipe() }
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
        let collected = Collected()
        let group = DispatchGroup()
        for (pipe, isOutput) in [(output, true), (errors, false)] {
            DispatchQueue.global().async(group: group) {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, output: isOutput)
            }
        }
        if let stdin, let input {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        group.wait()
        process.waitUntilExit()
        return Subprocess(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                          standardOutput: collected.output, standardError: collected.errors)
    }

    /// Runs a program found in PATH (through /usr/bin/env).
    public static func run(tool: String, _ arguments: [String] = [], input: Data? = nil) throws -> Subprocess {
        try run("/usr/bin/env", [tool] + arguments, input: input)
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var output = Data()
        private(set) var errors = Data()
        func set(_ data: Data, output isOutput: Bool) {
            lock.lock()
            if isOutput { output = data } else { errors = data }
            lock.unlock()
        }
    }
}
