import Engine

/// A job whose planning counts what it reads (`PlanningWork`): every job, so the tests can hold
/// each to a cost linear in a thread's length. `Job.plan` is this planning with the count dropped.
///
/// A job writes only its places, into the plan call's one `RequestWriter`; the writer and the
/// items it gathers are made and returned here, the same for every job.
protocol CountedPlanning: AskingJob {
    /// Writes an item for each place among `messages` into `writer`, counting what it read into `work`.
    func plan(_ thread: ThreadSnapshot, messages: Range<Int>, writer: inout RequestWriter, ledger: inout JobLedger,
              work: inout PlanningWork)
}

extension CountedPlanning {
    /// `plan`, counting what it read into `work`.
    func plan(_ thread: ThreadSnapshot, messages range: Range<Int>, tokenizer: any Tokenizer, ledger: inout JobLedger,
              work: inout PlanningWork) -> [JobItem] {
        var writer = RequestWriter(asking: asking, tokenizer: tokenizer)
        plan(thread, messages: range, writer: &writer, ledger: &ledger, work: &work)
        return writer.items
    }

    public func plan(_ thread: ThreadSnapshot, messages range: Range<Int>, tokenizer: any Tokenizer, ledger: inout JobLedger) -> [JobItem] {
        var work = PlanningWork()
        return plan(thread, messages: range, tokenizer: tokenizer, ledger: &ledger, work: &work)
    }
}
