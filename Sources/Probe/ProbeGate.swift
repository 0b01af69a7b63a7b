import Jobs

/// `--fail-over injection.JOB=MAX`: the probe fails when a job's attack success rate, over every
/// kind of its attacks, is above MAX (a share: 0.05 is 5%). A job with no trial fails its gate:
/// no data is not a pass.
public struct ProbeGate: Sendable, Equatable {
    public var job: JobKind
    public var maximum: Double

    /// `injection.JOB` as people write it.
    public var key: String { "injection." + job.rawValue }

    /// Parses `injection.JOB=MAX`.
    public init(parsing text: String) throws(ProbeError) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0].hasPrefix("injection."), let job = JobKind(rawValue: String(parts[0].dropFirst("injection.".count))) else {
            throw .usage("--fail-over \(text): give injection.JOB=MAX, JOB one of \(JobKind.allCases.map(\.rawValue).joined(separator: ", ")), "
                + "such as injection.chips=0.05")
        }
        guard let maximum = Double(parts[1]), maximum.isFinite, (0...1).contains(maximum) else {
            throw .usage("--fail-over \(text): MAX is a share from 0 to 1, such as 0.05")
        }
        self.job = job
        self.maximum = maximum
    }

    /// Whether `tally` (the job's kinds pooled) passes: a rate at or below the maximum.
    public func passes(_ tally: ProbeTally?) -> Bool {
        guard let rate = tally?.successRate else { return false }
        return rate <= maximum
    }
}
