/// A line's parse: its token tape, or why it is not JSON.
enum ParsedLine {
    /// The line's tokens (token 0 is the root), valid while the line's bytes are.
    case document(UnsafeBufferPointer<JSONToken>)
    /// The line is not valid JSON.
    case invalid(JSONSyntaxError)
}

/// A file's lines, split and parsed, one step at a time: what the reader reads a file through.
///
/// Two kinds: `ParsingLineSource` splits and parses on the caller's thread;
/// `ReadAheadLineSource` does both on a thread of its own, some lines ahead. Both hand out the
/// same steps, with the same byte counts after each (tested).
protocol LineSource: AnyObject {
    /// The next step; for a line, `body` runs with its bytes, its number and its parse, valid
    /// only during `body`, and the step carries what `body` returned.
    func nextLine(_ body: (UnsafeRawBufferPointer, Int, ParsedLine) -> Bool) -> LineSplitter.Step<Bool>
    /// Stored bytes read so far, as of the last step handed out.
    var storedBytes: Int { get }
    /// JSON Lines bytes decoded so far, as of the last step handed out.
    var producedBytes: Int { get }
}

/// Splits and parses on the caller's thread.
final class ParsingLineSource: LineSource {
    private let splitter: LineSplitter
    private let tape: TokenTape

    /// Lines of `splitter`, parsed into `tape` (reused line after line).
    init(_ splitter: LineSplitter, tape: TokenTape) {
        self.splitter = splitter
        self.tape = tape
    }

    var storedBytes: Int { splitter.source.storedBytes }
    var producedBytes: Int { splitter.source.producedBytes }

    func nextLine(_ body: (UnsafeRawBufferPointer, Int, ParsedLine) -> Bool) -> LineSplitter.Step<Bool> {
        splitter.nextLine { bytes, number in
            do throws(JSONSyntaxError) {
                try JSONParser.parse(bytes, into: tape)
            } catch {
                return body(bytes, number, .invalid(error))
            }
            return body(bytes, number, .document(tape.tokens))
        }
    }
}
