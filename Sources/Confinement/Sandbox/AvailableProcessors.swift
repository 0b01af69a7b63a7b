import CSandbox
import Foundation

/// How many processors this process may run on: those of its CPU affinity mask, else (where the
/// kernel will not say) the machine's active processors.
///
/// A scheduler gives a job its cores by affinity (Slurm's task binding, `taskset`, a cpuset
/// cgroup), while `ProcessInfo.activeProcessorCount` counts the whole machine: a run bound to 2
/// cores of a 64-core node would start 64 model threads on them, each spinning at every barrier
/// for a core it will not get. The model's threads and the planner's workers count these.
public enum AvailableProcessors {
    public static var count: Int {
        // sched_getaffinity(2) directly: glibc declares its wrapper only with _GNU_SOURCE, which
        // Swift's Glibc module is built without. The kernel writes the mask and returns its size.
        var mask = [UInt64](repeating: 0, count: 16)   // 1,024 CPUs, glibc's cpu_set_t
        let written = mask.withUnsafeMutableBytes { bytes in
            replay_system_call(Int(SYS_sched_getaffinity), 0, bytes.count, Int(bitPattern: bytes.baseAddress), 0, 0, 0)
        }
        let cores = written > 0 ? mask.reduce(0) { $0 + $1.nonzeroBitCount } : 0
        return cores > 0 ? cores : ProcessInfo.processInfo.activeProcessorCount
    }
}
