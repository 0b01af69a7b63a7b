/// Where the reader hands what a line or a file came to: a record, a bad line or a failure.
///
/// The reader's loop is written once, generic over this, so a pulled event (`next()`,
/// `nextOutline()`) and a callback (`forEachOutline`) come from the same checks; a record is
/// moved from the decoder into the event it becomes, rather than copied through layers of
/// wrapping enums (a large share of `replay flywheel` when it was).
protocol OutcomeSink {
    /// A valid line, decoded (never `.unknownType`: those are only counted).
    mutating func record(_ decoded: consuming RecordDecoder.Decoded, at location: SourceLocation)
    /// A line that was skipped, and why.
    mutating func badLine(_ bad: BadLine)
    /// A file that failed.
    mutating func fileFailed(_ error: ExportError)
}

/// Keeps the one event `CorpusReader.next()` returns.
struct PulledEvent: OutcomeSink {
    var event: ReaderEvent?

    mutating func record(_ decoded: consuming RecordDecoder.Decoded, at location: SourceLocation) {
        switch consume decoded {
        case .header(let header): event = .record(.header(header), location)
        case .thread(let thread): event = .record(.thread(thread), location)
        case .message(let message): event = .record(.message(message), location)
        case .outline: preconditionFailure("an outline was decoded for a full read")
        case .unknownType: preconditionFailure("an unknown type is counted, never handed out")
        }
    }

    mutating func badLine(_ bad: BadLine) { event = .badLine(bad) }
    mutating func fileFailed(_ error: ExportError) { event = .fileFailed(error) }
}

/// Turns what the reader decoded without words into the event the outline mode hands out.
enum OutlineEvents {
    static func event(_ decoded: consuming RecordDecoder.Decoded, at location: SourceLocation) -> OutlineEvent {
        switch consume decoded {
        case .header(let header): return .record(.header(header), location)
        case .thread(let thread): return .record(.thread(thread), location)
        case .outline(let outline, _): return .record(.message(outline), location)
        case .message: preconditionFailure("a full message was decoded for an outline read")
        case .unknownType: preconditionFailure("an unknown type is counted, never handed out")
        }
    }
}

/// Keeps the one event `CorpusReader.nextOutline()` returns.
struct PulledOutline: OutcomeSink {
    var event: OutlineEvent?

    mutating func record(_ decoded: consuming RecordDecoder.Decoded, at location: SourceLocation) {
        event = OutlineEvents.event(decoded, at: location)
    }

    mutating func badLine(_ bad: BadLine) { event = .badLine(bad) }
    mutating func fileFailed(_ error: ExportError) { event = .fileFailed(error) }
}

/// Hands each outline event to a callback as soon as it is made (`CorpusReader.forEachOutline`).
struct OutlineCallback: OutcomeSink {
    let body: (OutlineEvent) -> Void

    mutating func record(_ decoded: consuming RecordDecoder.Decoded, at location: SourceLocation) {
        body(OutlineEvents.event(decoded, at: location))
    }

    mutating func badLine(_ bad: BadLine) { body(.badLine(bad)) }
    mutating func fileFailed(_ error: ExportError) { body(.fileFailed(error)) }
}
