// The reader's floor with the fastest JSON parser known: a zstd JSON Lines file decompressed by
// libzstd's streaming API on one thread while simdjson (its DOM parser, which validates every
// line: grammar, strings, UTF-8, numbers) parses the lines on a second, the same two-thread shape
// as `replay flywheel`'s reader. Nothing is kept or printed from a line: only counts go to
// stdout, and the exit status is 1 when any line failed to parse (bench/reader.sh stops then: a
// floor that skipped lines would be no floor).
//
// It does less than a reader of the export format must: no record is decoded, no rule of
// EXPORT_FORMAT.md checked, nothing counted but lines. So its time is below any reader of the
// format built on simdjson, and a ratio to `zstd -dc` it cannot reach, no reader can.
//
// usage: simdjson_floor FILE.jsonl.zst          (two threads: decompress, parse)
//        simdjson_floor --one-thread FILE.jsonl.zst
//
// Built by bench/reader.sh against simdjson's single-file release (from pysimdjson's sdist on
// PyPI) and the system's libzstd; simdjson picks its kernels at run time (no -march).
#include "simdjson.h"
#include <zstd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace {

// A run of whole lines, padded as simdjson requires.
struct Chunk {
    std::vector<char> bytes;  // the lines, then SIMDJSON_PADDING spare bytes
    size_t length = 0;        // bytes of lines
};

// Decompresses `path` straight into chunk buffers and hands over runs of whole lines of about
// `target` bytes each; only a run's unfinished last line is copied, into the next buffer.
template <typename Emit>
bool decompress(const char* path, size_t target, Emit emit) {
    FILE* file = std::fopen(path, "rb");
    if (!file) { std::perror(path); return false; }
    ZSTD_DStream* stream = ZSTD_createDStream();
    std::vector<char> in(ZSTD_DStreamInSize());
    const size_t step = ZSTD_DStreamOutSize();
    Chunk chunk;  // bytes[0, length) decompressed, the rest room for more and the padding
    auto make_room = [&] {
        if (chunk.bytes.size() < chunk.length + step + simdjson::SIMDJSON_PADDING) {
            chunk.bytes.resize(std::max(target, chunk.length) + step + simdjson::SIMDJSON_PADDING);
        }
    };
    bool ok = true;
    size_t read;
    while (ok && (read = std::fread(in.data(), 1, in.size(), file)) > 0) {
        ZSTD_inBuffer input = {in.data(), read, 0};
        while (input.pos < input.size) {
            make_room();
            ZSTD_outBuffer output = {chunk.bytes.data() + chunk.length, step, 0};
            size_t status = ZSTD_decompressStream(stream, &output, &input);
            if (ZSTD_isError(status)) { std::fprintf(stderr, "%s: %s\n", path, ZSTD_getErrorName(status)); ok = false; break; }
            chunk.length += output.pos;
            if (chunk.length < target) continue;
            const char* base = chunk.bytes.data();
            const char* last = static_cast<const char*>(memrchr(base, '\n', chunk.length));
            if (!last) continue;  // one line longer than a chunk: keep reading into it
            size_t whole = static_cast<size_t>(last - base) + 1;
            Chunk next;
            next.length = chunk.length - whole;
            next.bytes.resize(target + step + simdjson::SIMDJSON_PADDING);
            std::memcpy(next.bytes.data(), base + whole, next.length);
            chunk.length = whole;
            emit(std::move(chunk));
            chunk = std::move(next);
        }
    }
    if (ok && chunk.length > 0) {
        make_room();
        emit(std::move(chunk));
    }
    ZSTD_freeDStream(stream);
    std::fclose(file);
    return ok;
}

struct Counts {
    size_t lines = 0;
    size_t errors = 0;
    size_t bytes = 0;
};

// Parses every line of `chunk` with the DOM parser (full validation), one line at a time, as a
// reader of JSON Lines must to name the bad line.
void parse(simdjson::dom::parser& parser, const Chunk& chunk, Counts& counts) {
    const char* base = chunk.bytes.data();
    size_t start = 0;
    counts.bytes += chunk.length;
    while (start < chunk.length) {
        const void* newline = std::memchr(base + start, '\n', chunk.length - start);
        size_t end = newline ? static_cast<const char*>(newline) - base : chunk.length;
        // The padding simdjson reads past a line is the next line's bytes (or the chunk's spare).
        simdjson::dom::element element;
        if (parser.parse(base + start, end - start, false).get(element)) counts.errors += 1;
        counts.lines += 1;
        start = end + 1;
    }
}

}  // namespace

int main(int argc, char** argv) {
    bool oneThread = argc == 3 && std::strcmp(argv[1], "--one-thread") == 0;
    if (argc != 2 && !oneThread) {
        std::fprintf(stderr, "usage: simdjson_floor [--one-thread] FILE.jsonl.zst\n");
        return 2;
    }
    const char* path = argv[argc - 1];
    const size_t target = 256 << 10;  // replay's read-ahead batch size
    simdjson::dom::parser parser;
    Counts counts;
    bool ok;
    if (oneThread) {
        ok = decompress(path, target, [&](Chunk&& chunk) { parse(parser, chunk, counts); });
    } else {
        // At most four chunks ahead, as replay's read-ahead.
        std::mutex mutex;
        std::condition_variable changed;
        std::deque<Chunk> queue;
        bool done = false;
        std::thread consumer([&] {
            while (true) {
                Chunk chunk;
                {
                    std::unique_lock<std::mutex> lock(mutex);
                    changed.wait(lock, [&] { return !queue.empty() || done; });
                    if (queue.empty()) return;
                    chunk = std::move(queue.front());
                    queue.pop_front();
                }
                changed.notify_all();
                parse(parser, chunk, counts);
            }
        });
        ok = decompress(path, target, [&](Chunk&& chunk) {
            std::unique_lock<std::mutex> lock(mutex);
            changed.wait(lock, [&] { return queue.size() < 4; });
            queue.push_back(std::move(chunk));
            changed.notify_all();
        });
        {
            std::lock_guard<std::mutex> lock(mutex);
            done = true;
        }
        changed.notify_all();
        consumer.join();
    }
    std::printf("{\"lines\": %zu, \"errors\": %zu, \"bytes\": %zu, \"implementation\": \"%s\"}\n", counts.lines,
                counts.errors, counts.bytes, simdjson::get_active_implementation()->name().c_str());
    return ok && counts.errors == 0 ? 0 : 1;
}
