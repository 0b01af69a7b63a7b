import Foundation

/// Where the package and this build's products are, as the tests see them.
public enum BuiltProducts {
    /// The folder the test runner was built in (`.build/debug`), where `swift build` also puts
    /// every executable target (replay, SandboxProbe, LeakyFixtures).
    public static var directory: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// The path of executable `name` built beside the tests.
    public static func executable(_ name: String) -> String { directory + "/" + name }

    /// The package's root (the folder holding Package.swift).
    public static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }
}
