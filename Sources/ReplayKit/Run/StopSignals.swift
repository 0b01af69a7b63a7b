import Engine
import Foundation
import Synchronization

/// SIGTERM and SIGINT as a request to stop: what a scheduler sends before it kills.
///
/// Slurm's preemption and time limit and Kubernetes' eviction send SIGTERM, then SIGKILL after a
/// grace period (Slurm's KillWait, 30 s by default; a pod's terminationGracePeriodSeconds, 30 s).
/// The first signal raises `request`: the run stops at its next thread line, drops a model call
/// in flight (an engine step ends it), writes a checkpoint of what it keeps and exits with
/// `ExitCode.stopped`. A second signal, from an impatient person or a scheduler that will not
/// wait, takes the signal's default action at once, unless it comes within `duplicateWindow`
/// of the first: that is the same request delivered twice (Slurm signals a batch job's
/// processes and a step's `srun` forwards the same signal), not a second one.
///
/// The handler only stores into atomics (async-signal-safe); everything else happens on the
/// run's own thread, which reads the request between steps.
public enum StopSignals {
    /// The request the signals raise: one per process.
    public static let request = StopRequest()
    /// Signals received so far.
    private static let received = Atomic<Int>(0)
    /// The first signal's number, 0 before any.
    private static let first = Atomic<Int32>(0)
    /// When the first came (CLOCK_MONOTONIC, nanoseconds).
    private static let firstAt = Atomic<Int64>(0)
    /// A signal this soon after the first is taken for the same one delivered twice.
    static let duplicateWindowNanoseconds: Int64 = 250_000_000

    /// Now on the monotonic clock, in nanoseconds (clock_gettime is async-signal-safe).
    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The signals that ask a run to stop.
    static let stopping: [Int32] = [SIGTERM, SIGINT]

    /// What the handler writes to stderr at the first signal, per signal: bytes made once, so
    /// the handler only calls write(2). Made before the handlers are installed and never
    /// changed, so sharing them is safe though their type cannot say so.
    nonisolated(unsafe) private static let notices: [(signal: Int32, bytes: UnsafeBufferPointer<UInt8>)] = stopping.map { signal in
        let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
        let text = Array("\nreplay: \(name): stopping at the next thread line and keeping what is answered (a second signal stops at once)\n".utf8)
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
        _ = bytes.initialize(from: text)
        return (signal, UnsafeBufferPointer(bytes))
    }

    /// Installs the handlers (once is enough; again changes nothing) and returns the request they raise.
    public static func install() -> StopRequest {
        // Every global the handler touches is made now, never for the first time inside it.
        _ = request.isRaised
        _ = received.load(ordering: .relaxed)
        _ = first.load(ordering: .relaxed)
        _ = firstAt.load(ordering: .relaxed)
        _ = notices.count
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            let count = StopSignals.received.wrappingAdd(1, ordering: .relaxed).newValue
            if count == 1 {
                StopSignals.firstAt.store(StopSignals.now(), ordering: .relaxed)
                StopSignals.first.store(signal, ordering: .relaxed)
                StopSignals.request.raise()
                for notice in StopSignals.notices where notice.signal == signal {
                    _ = write(2, notice.bytes.baseAddress, notice.bytes.count)
                }
            } else if StopSignals.now() - StopSignals.firstAt.load(ordering: .relaxed) < StopSignals.duplicateWindowNanoseconds {
                // The first one again, delivered twice: already being acted on.
                return
            } else {
                // The second: the default action (termination), now.
                Glibc.signal(signal, SIG_DFL)
                Glibc.raise(signal)
            }
        }
        sigemptyset(&action.sa_mask)
        // Reads and writes in progress go on (restarted) rather than fail with EINTR.
        action.sa_flags = SA_RESTART
        for signal in stopping { sigaction(signal, &action, nil) }
        return request
    }

    /// The name of the first signal received ("SIGTERM"), nil before any.
    public static var firstSignalName: String? {
        switch first.load(ordering: .relaxed) {
        case 0: nil
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case let other: "signal \(other)"
        }
    }
}
