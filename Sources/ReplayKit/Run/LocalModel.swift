import Confinement
import Engine
import Llama

/// A command's model on this machine, loaded as a run loads it: the GGUF file at `--model` (the
/// options' parser has already turned an installed model's name into its path) or else the
/// default model; one sequence per request decoded together, each holding the largest session any
/// model version has on the device (a request a larger one allows gets a sequence of its own);
/// and the description the report's `model` block is made from. `replay suite run` and `replay
/// probe injection` load theirs here, and a run's `RunModel` sizes its engine the same way.
public struct LocalModel: Sendable {
    public let engine: LlamaEnginePool
    public let description: ModelDescription

    /// Why the model could not be loaded, in a sentence for the command to prefix.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Loads the model at `path` (nil: the default model) for `batch` requests at a time.
    public static func load(path given: String?, batch: Int, profiles: ModelProfiles, device: DeviceProfile) throws(Failure) -> LocalModel {
        guard let path = given ?? DefaultModel.path() else {
            throw Failure(description: "no model: pass --model PATH, or run scripts/setup to install the default model")
        }
        do {
            let loaded = try engine(path: path, batch: batch, profiles: profiles, device: device)
            return LocalModel(engine: loaded, description: ModelDescription(info: loaded.info, fileBytes: RunCommand.fileSize(path),
                                                                            sha256: CorpusIdentity.sha256(ofFile: path)))
        } catch {
            throw Failure(description: error.description)
        }
    }

    /// The engine alone, sized as `load` sizes it.
    static func engine(path: String, batch: Int, profiles: ModelProfiles, device: DeviceProfile) throws(LlamaError) -> LlamaEnginePool {
        // Each lane's sequences hold a 4,096-token session (26.x's); a request that a version with
        // a larger one allows (27.0's 8,192) gets a sequence of its own.
        let largest = profiles.largestContext(on: device.name)
        return try LlamaEnginePool(modelPath: path, sequences: batch, contextPerSequence: min(4096, largest), longestContext: largest,
                                   threads: AvailableProcessors.count)
    }
}
