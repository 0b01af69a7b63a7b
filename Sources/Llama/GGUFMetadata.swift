/// What a GGUF file says of its model, read from its metadata without its tensors.
///
/// The auditor's schema check admits a report's model name when it is the model file's own:
/// `general.name` ("Qwen2.5 Coder 0.5B Instruct") may hold words its file's name lacks.
public enum GGUFMetadata {
    /// The file's `general.name`; nil when the file is not GGUF or has none.
    public static func generalName(ofFile path: String) -> String? {
        GGUFFile(path: path)?.string("general.name")
    }
}
