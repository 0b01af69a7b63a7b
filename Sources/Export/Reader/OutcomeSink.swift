/// Where the reader hands what a line or a file came to: a record, a bad line or a failure.
///
/// The reader's loop is written once, generic over this, so a pulled event (`next()`,
/// `nextOutline()`) and a callback (`forEachOutline`) come from the same checks; a record is
/// moved from the decoder into the event it becomes, one method per kind, rather than copied
/// through layers of wrapping enums (a large share of `replay flywheel` when it was).
protocol OutcomeSink {
    /// Whether each event is dealt with as it is handed over (a callback), so the reader may
    /// read on without returning; false for a sink that keeps one event for its caller.
    static var takesEventsInPlace: Bool { get }

    /// A valid `export` line.
    mutating func header(_ header: consuming ExportHeader, at location: consuming SourceLocation)
    /// A valid `thread` line.
    mutating func thread(_ thread: consuming ThreadRecord, at location: consuming SourceLocation)
    /// A valid `message` line, decoded whole.
    mutating func message(_ message: consuming MessageRecord, at location: consuming SourceLocation)
    /// A valid `message` line, decoded as an outline.
    mutating func outline(_ outline: consuming MessageOutline, at location: consuming SourceLocation)
    /// A line that was skipped, and why.
    mutating func badLine(_ bad: BadLine)
    /// A file that failed.
    mutating func fileFailed(_ error: ExportError)
}

/// Keeps the one event `CorpusReader.next()` returns.
struct PulledEvent: OutcomeSink {
    static var takesEventsInPlace: Bool { false }
    var event: ReaderEvent?

    mutating func header(_ header: consuming ExportHeader, at location: consuming SourceLocation) { event = .record(.header(header), location) }
    mutating func thread(_ thread: consuming ThreadRecord, at location: consuming SourceLocation) { event = .record(.thread(thread), location) }
    mutating func message(_ message: consuming MessageRecord, at location: consuming SourceLocation) { event = .record(.message(message), location) }
    mutating func outline(_ outline: consuming MessageOutline, at location: consuming SourceLocation) {
        preconditionFailure("an outline was decoded for a full read")
    }
    mutating func badLine(_ bad: BadLine) { event = .badLine(bad) }
    mutating func fileFailed(_ error: ExportError) { event = .fileFailed(error) }
}

/// Keeps the one event `CorpusReader.nextOutline()` returns.
struct PulledOutline: OutcomeSink {
    static var takesEventsInPlace: Bool { false }
    var event: OutlineEvent?

    mutating func header(_ header: consuming ExportHeader, at location: consuming SourceLocation) { event = .record(.header(header), location) }
    mutating func thread(_ thread: consuming ThreadRecord, at location: consuming SourceLocation) { event = .record(.thread(thread), location) }
    mutating func message(_ message: consuming MessageRecord, at location: consuming SourceLocation) {
        preconditionFailure("a full message was decoded for an outline read")
    }
    mutating func outline(_ outline: consuming MessageOutline, at location: consuming SourceLocation) { event = .record(.message(outline), location) }
    mutating func badLine(_ bad: BadLine) { event = .badLine(bad) }
    mutating func fileFailed(_ error: ExportError) { event = .fileFailed(error) }
}

/// Hands each outline event to a callback as soon as it is made (`CorpusReader.forEachOutline`).
struct OutlineCallback: OutcomeSink {
    static var takesEventsInPlace: Bool { true }
    let body: (OutlineEvent) -> Void

    mutating func header(_ header: consuming ExportHeader, at location: consuming SourceLocation) { body(.record(.header(header), location)) }
    mutating func thread(_ thread: consuming ThreadRecord, at location: consuming SourceLocation) { body(.record(.thread(thread), location)) }
    mutating func message(_ message: consuming MessageRecord, at location: consuming SourceLocation) {
        preconditionFailure("a full message was decoded for an outline read")
    }
    /// The outline and its location moved into the event (taken `consuming` for that): built
    /// in the call's argument, the event was a copy, a retain and a release of the outline more
    /// per message.
    mutating func outline(_ outline: consuming MessageOutline, at location: consuming SourceLocation) {
        let event = OutlineEvent.record(.message(consume outline), consume location)
        body(event)
    }
    mutating func badLine(_ bad: BadLine) { body(.badLine(bad)) }
    mutating func fileFailed(_ error: ExportError) { body(.fileFailed(error)) }
}
