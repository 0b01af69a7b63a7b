import Foundation
import Testing
import TestSupport
@testable import Llama

/// A dry run's check of the model file, from its metadata: what it admits and what it names.
@Suite struct ModelCheckTests {
    /// A GGUF file (version 3, no tensors) holding `entries`: string values, or arrays of strings.
    private static func gguf(_ entries: [(String, Any)]) -> Data {
        var data = Data("GGUF".utf8)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func append(string: String) {
            append(UInt64(string.utf8.count))
            data.append(contentsOf: Array(string.utf8))
        }
        append(UInt32(3))
        append(UInt64(0))
        append(UInt64(entries.count))
        for (key, value) in entries {
            append(string: key)
            if let strings = value as? [String] {
                append(UInt32(9))  // GGUF_TYPE_ARRAY
                append(UInt32(8))  // of GGUF_TYPE_STRING
                append(UInt64(strings.count))
                strings.forEach { append(string: $0) }
            } else {
                append(UInt32(8))
                append(string: value as! String)
            }
        }
        return data
    }

    @Test func theInstalledModelPasses() throws {
        let path = try #require(DefaultModel.path(), "run scripts/setup first")
        try LlamaModel.check(path: path)
    }

    @Test func eachMissingPartIsNamed() throws {
        let directory = try TemporaryDirectory()
        func file(_ name: String, _ data: Data) -> String {
            let path = directory.path(name)
            FileManager.default.createFile(atPath: path, contents: data)
            return path
        }
        let architecture: (String, Any) = ("general.architecture", "llama")
        let tokens: (String, Any) = ("tokenizer.ggml.tokens", ["a", "b"])
        let template: (String, Any) = ("tokenizer.chat_template", "<|im_start|>")

        #expect(throws: LlamaError.modelFileUnreadable(path: directory.path("absent.gguf"), reason: "no such file")) {
            try LlamaModel.check(path: directory.path("absent.gguf"))
        }
        let json = file("json.gguf", Data("{}\n".utf8))
        #expect(throws: LlamaError.notAGGUFFile(path: json)) { try LlamaModel.check(path: json) }
        let whole = Self.gguf([architecture, tokens, template])
        let cut = file("cut.gguf", whole.prefix(whole.count - 5))
        #expect(throws: LlamaError.modelFailedToLoad(path: cut)) { try LlamaModel.check(path: cut) }
        let noVocabulary = file("no-vocabulary.gguf", Self.gguf([architecture, template]))
        #expect(throws: LlamaError.modelHasNoVocabulary(path: noVocabulary)) { try LlamaModel.check(path: noVocabulary) }
        let noArchitecture = file("no-architecture.gguf", Self.gguf([tokens, template]))
        #expect(throws: LlamaError.modelHasNoVocabulary(path: noArchitecture)) { try LlamaModel.check(path: noArchitecture) }
        let noTemplate = file("no-template.gguf", Self.gguf([architecture, tokens]))
        #expect(throws: LlamaError.modelHasNoChatTemplate(path: noTemplate)) { try LlamaModel.check(path: noTemplate) }
        // The metadata a model needs, and no weights: the check reads no further.
        try LlamaModel.check(path: file("metadata-only.gguf", whole))
    }
}
