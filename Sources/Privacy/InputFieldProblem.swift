/// What is wrong with the keys of an input file's object (`InputFields`): where, by key path,
/// never a value. Each reader turns it into its own error, whose text names the file.
public enum InputFieldProblem: Error, Sendable, Equatable {
    /// The value at `path` is not an object.
    case notAnObject(path: String)
    /// The object at `path` has `key`, which is not one of `allowed`.
    case unknownKey(path: String, key: String, allowed: [String])
    /// The object at `path` gives `key` twice.
    case keyGivenTwice(path: String, key: String)
    /// The object at `path` lacks `key`, which it must have.
    case missingKey(path: String, key: String)

    /// Where the problem is: the key's path (`path.key`), or for `notAnObject` the value's.
    public var place: String {
        switch self {
        case .notAnObject(let path): path
        case .unknownKey(let path, let key, _), .keyGivenTwice(let path, let key), .missingKey(let path, let key): InputFields.join(path, key)
        }
    }
}
