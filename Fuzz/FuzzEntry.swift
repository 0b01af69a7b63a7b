// The libFuzzer entry point, compiled into the Export module by scripts/fuzz (never by SwiftPM).
//
// libFuzzer supplies `main`, so every file is built with -parse-as-library. A broken invariant is a
// crash, so libFuzzer saves the input; the message names the invariant, never the input's bytes.

/// One harness for the whole run: its in-memory file and token tape are reused between inputs.
nonisolated(unsafe) private var harness: FuzzHarness?

@_cdecl("LLVMFuzzerTestOneInput")
public func exportFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let current = harness ?? FuzzHarness()
    harness = current
    let report = current.run(UnsafeRawBufferPointer(start: data, count: size))
    if let first = report.violations.first {
        fatalError("fuzz invariant broken (\(report.violations.count) in all): \(first)")
    }
    return 0
}
