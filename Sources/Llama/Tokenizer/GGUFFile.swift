internal import CLlama
import Foundation

/// A GGUF file's metadata, read without its tensors: owns the `gguf_context` and frees it once.
///
/// llama.h exposes a vocabulary's tokens but not its BPE merge rules; the native tokenizer reads
/// those from the same file llama.cpp loaded, through ggml's own GGUF reader.
final class GGUFFile {
    private let context: OpaquePointer

    /// Reads the metadata of the GGUF file at `path`; nil when ggml cannot.
    init?(path: String) {
        let params = gguf_init_params(no_alloc: true, ctx: nil)
        guard let context = gguf_init_from_file(path, params) else { return nil }
        self.context = context
    }

    deinit { gguf_free(context) }

    /// Whether the metadata holds `key`.
    func has(_ key: String) -> Bool {
        gguf_find_key(context, key) >= 0
    }

    /// The string under `key`; nil when the key is absent or not one.
    func string(_ key: String) -> String? {
        let index = gguf_find_key(context, key)
        guard index >= 0, gguf_get_kv_type(context, index) == GGUF_TYPE_STRING, let text = gguf_get_val_str(context, index) else {
            return nil
        }
        return String(cString: text)
    }

    /// The array of strings under `key`, each as its bytes; nil when the key is absent or not one.
    func strings(_ key: String) -> [[UInt8]]? {
        let index = gguf_find_key(context, key)
        guard index >= 0, gguf_get_kv_type(context, index) == GGUF_TYPE_ARRAY,
              gguf_get_arr_type(context, index) == GGUF_TYPE_STRING else { return nil }
        let count = gguf_get_arr_n(context, index)
        var strings: [[UInt8]] = []
        strings.reserveCapacity(count)
        for item in 0..<count {
            guard let text = gguf_get_arr_str(context, index, item) else { return nil }
            strings.append(Array(UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self),
                                                     count: strlen(text))))
        }
        return strings
    }
}
