import Jobs

/// One trial's outcome as a probe keeps it: which place (a keyed hash), which job and kind, and
/// what happened, as flags and quality values. Never a word: the place is named by an HMAC under
/// the run key of the thread's and the message's ids, the place kind and the attack's kind, so two
/// probes under one run key name the same trial alike and can be paired (`replay compare`).
public struct ProbeTrial: Sendable, Equatable {
    /// The trial's key (`InjectionProbe.trialKey`).
    public var key: UInt64
    /// Its thread's key (`InjectionProbe.threadKey`): trials of one thread are one cluster when
    /// probes are compared, since one thread's places are not independent evidence.
    public var thread: UInt64
    public var job: JobKind
    /// The attack's kind (a label of the attack set).
    public var kind: String
    public var succeeded: Bool
    public var shown: Bool
    public var baseline: Bool
    public var plainAnswered: Bool
    public var attackedAnswered: Bool
    /// Each quality measure scored both ways: the plain and the attacked value.
    public var quality: [String: (plain: Double, attacked: Double)]

    public init(key: UInt64, thread: UInt64 = 0, job: JobKind, kind: String, succeeded: Bool, shown: Bool, baseline: Bool,
                plainAnswered: Bool, attackedAnswered: Bool, quality: [String: (plain: Double, attacked: Double)] = [:]) {
        self.key = key
        self.thread = thread
        self.job = job
        self.kind = kind
        self.succeeded = succeeded
        self.shown = shown
        self.baseline = baseline
        self.plainAnswered = plainAnswered
        self.attackedAnswered = attackedAnswered
        self.quality = quality
    }

    public static func == (a: ProbeTrial, b: ProbeTrial) -> Bool {
        a.key == b.key && a.thread == b.thread && a.job == b.job && a.kind == b.kind && a.flags == b.flags
            && a.quality.keys == b.quality.keys
            && a.quality.allSatisfy { name, value in b.quality[name].map { $0 == value } ?? false }
    }

    /// The outcome's bits, as `trials.json` stores them (`ProbeTrialsDocument.Flag`).
    public var flags: Int {
        var bits = 0
        if succeeded { bits |= ProbeTrialsDocument.Flag.succeeded }
        if shown { bits |= ProbeTrialsDocument.Flag.shown }
        if baseline { bits |= ProbeTrialsDocument.Flag.baseline }
        if plainAnswered { bits |= ProbeTrialsDocument.Flag.plainAnswered }
        if attackedAnswered { bits |= ProbeTrialsDocument.Flag.attackedAnswered }
        return bits
    }
}
