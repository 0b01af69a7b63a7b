import Confinement
import Privacy

extension ResultVocabulary {
    /// The words of `strerror` for every errno the C library names: system words, never data.
    static let systemWords: Set<String> = {
        var words: Set<String> = []
        for code in Int32(1)..<Int32(200) { words.formUnion(ResultProse.words(of: SystemError(code).message)) }
        return words
    }()
}
