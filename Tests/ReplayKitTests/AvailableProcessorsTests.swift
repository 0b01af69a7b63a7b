import Confinement
import CSandbox
import Foundation
import Synchronization
import Testing

/// The cores a run may use are its affinity's, read independently from the kernel's own account
/// of the process (`Cpus_allowed_list` in /proc/self/status, ranges such as `0-3,8`), and a
/// thread bound to one core counts one.
@Suite struct AvailableProcessorsTests {
    /// The cores `Cpus_allowed_list` lists.
    static func allowedCores(_ status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else { return nil }
        return line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces).split(separator: ",").reduce(0) { total, part in
            let ends = part.split(separator: "-").compactMap { Int($0) }
            return total + (ends.count == 2 ? ends[1] - ends[0] + 1 : 1)
        }
    }

    @Test func theCountIsTheAffinitys() throws {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let allowed = try #require(Self.allowedCores(status))
        #expect(AvailableProcessors.count == allowed)
        #expect(Self.allowedCores("Cpus_allowed_list:\t0-3,8,10-11\n") == 7)
    }

    /// Bound to one core (the calling thread's affinity, as `taskset` or a scheduler would set a
    /// process's), the count is one, whatever the machine has.
    @Test func oneBoundCoreCountsOne() throws {
        let counted = Mutex<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            defer { done.signal() }
            var one = [UInt64](repeating: 0, count: 16)
            one[0] = 1   // CPU 0 alone
            let set = one.withUnsafeMutableBytes {
                replay_system_call(Int(SYS_sched_setaffinity), 0, $0.count, Int(bitPattern: $0.baseAddress), 0, 0, 0)
            }
            guard set == 0 else { return }
            counted.withLock { $0 = AvailableProcessors.count }
        }.start()
        done.wait()
        #expect(counted.withLock { $0 } == 1)
    }
}
