import Engine

/// A job whose planning counts what it reads (`PlanningWork`): every job, so the tests can hold
/// each to a cost linear in a thread's length. `Job.plan` is this planning with the count dropped.
protocol CountedPlanning: Job {
    /// `plan`, counting what it read into `work`.
    func plan(_ thread: ThreadSnapshot, messages: Range<Int>, tokenizer: any Tokenizer, ledger: inout JobLedger,
              work: inout PlanningWork) -> [JobItem]
}

extension CountedPlanning {
    public func plan(_ thread: ThreadSnapshot, messages range: Range<Int>, tokenizer: any Tokenizer, ledger: inout JobLedger) -> [JobItem] {
        var work = PlanningWork()
        return plan(thread, messages: range, tokenizer: tokenizer, ledger: &ledger, work: &work)
    }
}
