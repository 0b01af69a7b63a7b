@testable import ReplayKit
import Testing

/// How `--shard`, `--shards`, `--shard-by`, `--resume` and `replay merge` parse, and where the
/// shard comes from when no flag names it.
@Suite struct ShardArgumentTests {
    func options(_ arguments: [String], _ environment: [String: String] = [:]) throws -> ReplayOptions {
        guard case .replay(let options) = try ArgumentParser.parse(arguments + ["c.jsonl"], environment: environment) else {
            Issue.record("not a replay")
            return ReplayOptions()
        }
        return options
    }

    @Test func flagsAndEnvironment() throws {
        #expect(try options([]).shard == .whole)
        #expect(try options(["--shard", "2/5"]).shard == ShardSpec(index: 2, count: 5))
        #expect(try options(["--shard", "0/2", "--shard-by", "file"]).shard == ShardSpec(index: 0, count: 2, by: .file))
        #expect(try options([], ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"]).shard == ShardSpec(index: 3, count: 4))
        #expect(try options([], ["SLURM_ARRAY_TASK_ID": "3"]).shard == .whole)   // no count: not an array of shards
        #expect(try options(["--shards", "8"], ["JOB_COMPLETION_INDEX": "7"]).shard == ShardSpec(index: 7, count: 8))
        #expect(try options(["--shard", "1/2"], ["JOB_COMPLETION_INDEX": "7"]).shard == ShardSpec(index: 1, count: 2))
        #expect(try options(["--resume"]).checkpointEvery == ReplayOptions.defaultCheckpointEvery)
        #expect(try options(["--resume", "--checkpoint-every", "5"]).checkpointEvery == 5)
        #expect(try options([]).checkpointEvery == nil)
        for bad in [["--shard", "2/2"], ["--shard", "x"], ["--shard", "1/0"], ["--shard-by", "line"], ["--shards", "4"],
                    ["--shard", "1/2", "--shards", "3"], ["--checkpoint-every", "0"]] {
            #expect(throws: ArgumentParser.UsageError.self, "\(bad)") { try options(bad) }
        }
        #expect(throws: ArgumentParser.UsageError.self) { try options(["--shards", "4"], ["JOB_COMPLETION_INDEX": "4"]) }
    }

    @Test func merge() throws {
        let merge = try #require(try MergeCommand.parse(["--out", "m", "--fail-under", "chips.scanned=1", "a", "b"]))
        #expect(merge.outputDirectory == "m")
        #expect(merge.shardDirectories == ["a", "b"])
        #expect(merge.thresholds == [Threshold(key: try GateKey(parsing: "chips.scanned"), minimum: 1)])
        #expect(throws: ArgumentParser.UsageError.self) { try MergeCommand.parse(["--out", "m"]) }
        #expect(throws: ArgumentParser.UsageError.self) { try MergeCommand.parse(["--limit", "3", "a"]) }
    }

    @Test func helpListsTheShardingOptionsAndMerge() {
        for word in ["--shard I/N", "--shards N", "--shard-by", "--resume", "--checkpoint-every", "replay merge"] {
            #expect(ArgumentParser.usage.contains(word), "\(word)")
        }
    }
}
