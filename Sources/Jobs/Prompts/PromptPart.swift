/// One part of a job's prompt: a template, kept always, or only when a condition of the job
/// holds (`when`), or only when it does not (`unless`).
///
/// A prompt's parts are joined by a newline; a part that is dropped leaves no line behind.
public struct PromptPart: Sendable, Equatable {
    public var template: PromptTemplate
    /// The part is kept only when this condition holds.
    public var when: String?
    /// The part is kept only when this condition does not hold.
    public var unless: String?

    public init(_ template: PromptTemplate, when: String? = nil, unless: String? = nil) {
        self.template = template
        self.when = when
        self.unless = unless
    }

    /// Whether the part is in the prompt filled with `values`, by the conditions that hold there.
    func isKept(under values: PromptValues) -> Bool {
        if let when, !values.holds(when) { return false }
        if let unless, values.holds(unless) { return false }
        return true
    }
}
