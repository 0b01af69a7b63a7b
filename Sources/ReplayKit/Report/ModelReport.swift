import Privacy

/// The `model` block of a report (and `model.description` of a state): the model's name and
/// llama.cpp's description of it from its file, the file, its size and digest, and the
/// engine's sizes; for a Chat Completions server (`replay suite run --endpoint`), the model id
/// its requests named (`endpoint_model`, by the token rule: kept when it is a token, else hashed;
/// absent otherwise). Null in a dry run or without a model.
public struct ModelReport: Codable, Sendable, Equatable {
    public var name: ModelText
    public var description: ModelText
    public var file: ResultPath
    public var fileBytes: Int
    public var sha256: SHA256Hex?
    public var parameters: Int
    public var contextPerSequence: Int
    public var batchSize: Int
    @OmittedWhenNil public var endpointModel: TokenLabel?

    enum CodingKeys: String, CodingKey {
        case name, description, file
        case fileBytes = "file_bytes"
        case sha256, parameters
        case contextPerSequence = "context_per_sequence"
        case batchSize = "batch_size"
        case endpointModel = "endpoint_model"
    }
}
