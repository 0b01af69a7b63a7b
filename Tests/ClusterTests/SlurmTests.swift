import Foundation
import Privacy
import ReplayKit
import Testing
import TestSupport

/// Slurm for real: each test starts a one-node cluster on this machine (scripts/slurm/local-cluster,
/// installing slurm-wlm and munge first when missing), submits to it and stops it.
///
/// The first three need nothing of replay and pass today. `slurmArrayThenMergeEqualsOneProcess`
/// runs the real binary sharded and waits for sharding (`--resume`, the SLURM_ARRAY_* shard
/// selection, `replay merge`); until that lands it fails. `aStoppedShardIsRequeuedAndResumesToTheOneProcessReport`
/// stops a running shard (a signal, a real preemption) and follows the requeued task to its report.
@Suite(.serialized, .enabled(if: LocalSlurm.canBeRoot, "needs root: munged, slurmctld and slurmd run as root to start a one-node Slurm cluster"), .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct SlurmTests {
    /// The cluster itself: a 4-task array writes 4 files, and a job with `afterok` on the array
    /// runs only after all of them, and sees all four.
    @Test func localClusterRunsAnArrayThenItsAfterokJob() throws {
        let slurm = try LocalSlurm()
        defer { slurm.stop() }
        let results = try slurm.directory.makeDirectory("results")
        let task = try slurm.directory.write("task.sh", text: """
            #!/bin/sh
            echo "$SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT" > "\(results)/task-$SLURM_ARRAY_TASK_ID"
            """)
        let after = try slurm.directory.write("after.sh", text: """
            #!/bin/sh
            ls "\(results)" | grep -c '^task-' > "\(results)/after"
            """)
        let logs = slurm.directory.path("logs")
        let array = try slurm.submit(["--array=0-3", "--output=\(logs)-%A_%a.out", task])
        let dependent = try slurm.submit(["--dependency=afterok:\(array)", "--output=\(logs)-after.out", after])
        let states = try slurm.wait(for: [array, dependent], timeout: 90)

        #expect(states.count == 5 && states.values.allSatisfy { $0 == "COMPLETED" }, "\(states)")
        for index in 0..<4 {
            let written = try? String(contentsOfFile: results + "/task-\(index)", encoding: .utf8)
            #expect(written == "\(index) of 4\n")
        }
        #expect(try String(contentsOfFile: results + "/after", encoding: .utf8) == "4\n")
    }

    /// scripts/slurm/submit with a stand-in for replay that records what it was given: every
    /// array task runs the same command line with its own --out, takes its shard from the array's
    /// environment, and the merge runs after all of them over every shard, with the gates.
    @Test func submitRunsEveryShardThenTheMergeWithTheGates() throws {
        let slurm = try LocalSlurm()
        defer { slurm.stop() }
        let recorder = try Self.recordingReplay(in: slurm.directory)
        let out = slurm.directory.path("run")
        let submitted = try slurm.run(Repository.path("scripts/slurm/submit"),
                                      ["--shards", "4", "--replay", recorder, "--out", out,
                                       "--dry-run", "--fail-under", "chips.scanned=1", "--job", "chips", Repository.sample])
        try #require(submitted.status == 0, "submit exited \(submitted.status): \(submitted.errors)")
        let ids = try Self.jobIDs(submitted.output)
        let states = try slurm.wait(for: [ids.array, ids.merge], timeout: 90)
        #expect(states.count == 5 && states.values.allSatisfy { $0 == "COMPLETED" }, "\(states)\n\(LocalSlurm.tails(of: out + "/logs"))")

        for index in 0..<4 {
            let shard = out + "/shard-\(index)"
            let recorded = try String(contentsOfFile: shard + "/arguments", encoding: .utf8)
            #expect(recorded.split(separator: "\n").map(String.init) ==
                    ["--resume", "--out", shard, "--dry-run", "--job", "chips", Repository.sample,
                     "SLURM_ARRAY_TASK_ID=\(index)", "SLURM_ARRAY_TASK_COUNT=4"])
        }
        let merged = try String(contentsOfFile: out + "/merged/arguments", encoding: .utf8)
        #expect(merged.split(separator: "\n").map(String.init) ==
                ["merge", "--out", out + "/merged", "--fail-under", "chips.scanned=1"] + (0..<4).map { out + "/shard-\($0)" }
                + ["SLURM_ARRAY_TASK_ID=", "SLURM_ARRAY_TASK_COUNT="])
    }

    /// A shard that fails (here shard 2 exits 3, an input error) leaves the merge unrun: afterok is
    /// never met and --kill-on-invalid-dep cancels it rather than leaving it pending.
    @Test func aFailedShardCancelsTheMerge() throws {
        let slurm = try LocalSlurm()
        defer { slurm.stop() }
        let recorder = try Self.recordingReplay(in: slurm.directory, failingShard: 2)
        let out = slurm.directory.path("run")
        let submitted = try slurm.run(Repository.path("scripts/slurm/submit"),
                                      ["--shards", "4", "--replay", recorder, "--out", out, "--dry-run", Repository.sample])
        try #require(submitted.status == 0, "submit exited \(submitted.status): \(submitted.errors)")
        let ids = try Self.jobIDs(submitted.output)
        let states = try slurm.wait(for: [ids.array, ids.merge], timeout: 90)
        #expect(states["\(ids.array)_2"] == "FAILED", "\(states)")
        #expect(states[ids.merge] == "CANCELLED", "\(states)")
        #expect(!FileManager.default.fileExists(atPath: out + "/merged/arguments"))
    }

    /// The sharded replay equals one process: a 4-task array of `replay --dry-run` over the sample
    /// (each task picking its shard from SLURM_ARRAY_TASK_ID/COUNT), then `replay merge`, gives the
    /// report, flywheel metrics and files one `replay --dry-run` gives over the whole sample.
    /// WAITS FOR SHARDING: fails until replay has --resume, the Slurm shard selection and merge.
    @Test func slurmArrayThenMergeEqualsOneProcess() throws {
        let replay = BuiltProducts.executable("replay")
        try #require(FileManager.default.isExecutableFile(atPath: replay), "no replay binary at \(replay): swift build --product replay")
        let slurm = try LocalSlurm()
        defer { slurm.stop() }

        // One process. A kernel without Landlock ABI 4 refuses a sandboxed run (exit 8): then both
        // sides run with --allow-unsandboxed, since the sandbox is not what this test is about.
        // The one process uses the sharded run's key (submit keeps a key already beside the run),
        // so a label hashed in both reports is hashed alike.
        let out = slurm.directory.path("sharded")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let key = out + "/run-key"
        #expect(FileManager.default.createFile(atPath: key, contents: Data((0..<32).map { UInt8($0) }), attributes: [.posixPermissions: 0o600]))
        let one = slurm.directory.path("one")
        var options = ["--dry-run"]
        var single = try Subprocess.run(replay, options + ["--run-key", key, "--out", one, Repository.sample])
        if single.status == 8 {
            options.append("--allow-unsandboxed")
            single = try Subprocess.run(replay, options + ["--run-key", key, "--out", one, Repository.sample])
        }
        try #require(single.status == 0, "one process exited \(single.status): \(single.errors)")

        let submitted = try slurm.run(Repository.path("scripts/slurm/submit"),
                                      ["--shards", "4", "--replay", replay, "--out", out] + options + [Repository.sample])
        try #require(submitted.status == 0, "submit exited \(submitted.status): \(submitted.errors)")
        let ids = try Self.jobIDs(submitted.output)
        let states = try slurm.wait(for: [ids.array, ids.merge], timeout: 180)
        try #require(states.count == 5 && states.values.allSatisfy { $0 == "COMPLETED" },
                     "\(states)\n\(LocalSlurm.tails(of: out + "/logs"))")

        for index in 0..<4 {
            #expect(FileManager.default.fileExists(atPath: out + "/shard-\(index)/state.json"), "shard \(index) wrote no state.json")
        }
        // Every shard keyed its state with the run's key, which no shard's directory holds.
        let keyBytes = try #require(FileManager.default.contents(atPath: key))
        let check = try #require(RunKey(fileContents: [UInt8](keyBytes))).check
        for index in 0..<4 {
            let state = try String(contentsOfFile: out + "/shard-\(index)/state.json", encoding: .utf8)
            #expect(state.contains(check), "shard \(index) was keyed with the run's key")
            #expect(!FileManager.default.fileExists(atPath: out + "/shard-\(index)/run-key"))
        }
        let merged = out + "/merged"
        for name in ["report.json", "report.md", "junit.xml", "metrics.csv", "metrics.json", "dashboard.html"] {
            #expect(FileManager.default.fileExists(atPath: merged + "/" + name), "the merge wrote no \(name)")
        }
        let reportDifferences = try ReportComparison.differences(one + "/report.json", merged + "/report.json")
        #expect(reportDifferences.isEmpty, "report.json, merged against one process:\n\(reportDifferences.joined(separator: "\n"))")
        let metricsDifferences = try ReportComparison.differences(one + "/metrics.json", merged + "/metrics.json")
        #expect(metricsDifferences.isEmpty, "metrics.json, merged against one process:\n\(metricsDifferences.joined(separator: "\n"))")
        #expect(try String(contentsOfFile: one + "/metrics.csv", encoding: .utf8)
                == String(contentsOfFile: merged + "/metrics.csv", encoding: .utf8))
    }

    /// How a running shard is stopped. `signal`: SIGTERM to every process of the task, its batch
    /// shell included, as a time limit sends it (`scancel --signal=TERM --full`); the script
    /// requeues the task. `preemption`: a job of the higher partition `urgent` takes the node from
    /// the shard's partition `requeue` (PreemptMode=REQUEUE), so Slurm requeues the task itself
    /// as it signals it and refuses the script's requeue.
    enum Stop: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case signal, preemption
        var testDescription: String { rawValue }
        var partition: String { self == .preemption ? "requeue" : "local" }
    }

    /// A preempted shard loses nothing. A one-task array of scripts/slurm/replay-array.sbatch
    /// runs a dry run of 4,000 generated threads (tens of seconds in a debug build) with a
    /// checkpoint every 50 and the whole node (`--exclusive`); once a checkpoint is complete it is
    /// stopped (`Stop`). replay keeps a checkpoint and exits 10, the task is requeued, Slurm runs
    /// it again, it resumes after that checkpoint and completes: its report is the report of one
    /// `replay --dry-run` over the whole corpus.
    @Test(arguments: Stop.allCases)
    func aStoppedShardIsRequeuedAndResumesToTheOneProcessReport(stop: Stop) throws {
        let replay = BuiltProducts.executable("replay")
        try #require(FileManager.default.isExecutableFile(atPath: replay), "no replay binary at \(replay): swift build --product replay")
        let slurm = try LocalSlurm()
        defer { slurm.stop() }
        let threads = 4000
        let corpus = slurm.directory.path("generated.jsonl.zst")
        let generated = try Subprocess.run(replay, ["corpus", "generate", "--threads", "\(threads)", "--seed", "5", corpus])
        try #require(generated.status == 0, "corpus generate exited \(generated.status): \(generated.errors)")

        // One process, keyed with the run's key (the script keeps a key already beside the run);
        // unsandboxed on both sides where the kernel cannot confine (exit 8).
        let out = slurm.directory.path("run"), logs = out + "/logs", shard = out + "/shard-0"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        let key = out + "/run-key"
        #expect(FileManager.default.createFile(atPath: key, contents: Data((0..<32).map { UInt8($0) }), attributes: [.posixPermissions: 0o600]))
        let one = slurm.directory.path("one")
        var options = ["--dry-run"]
        var single = try Subprocess.run(replay, options + ["--run-key", key, "--out", one, corpus])
        if single.status == 8 {
            options.append("--allow-unsandboxed")
            single = try Subprocess.run(replay, options + ["--run-key", key, "--out", one, corpus])
        }
        try #require(single.status == 0, "one process exited \(single.status): \(single.errors)")

        let job = try slurm.submit(["--array=0-0", "--partition=\(stop.partition)", "--exclusive", "--output=\(logs)/shard-%a.out",
                                    Repository.path("scripts/slurm/replay-array.sbatch")] + options + ["--checkpoint-every", "50", corpus],
                                   extraEnvironment: ["OUT": out, "REPLAY": replay])
        let task = job + "_0", log = logs + "/shard-0.out"
        func said() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        // Running, with a checkpoint that reads whole: then the stop.
        // Checkpoints carry a digest under the run key: read them with it.
        let runKey = try #require(RunKey(bytes: (0..<32).map { UInt8($0) }))
        let ready = Date().addingTimeInterval(120)
        while true {
            let state = try slurm.fields(ofJob: task)["JobState"] ?? "?"
            if state == "RUNNING" && OutputDirectory(shard, key: runKey).newestCompleteCheckpoint().state != nil { break }
            try #require(Date() < ready && (state == "PENDING" || state == "RUNNING" || state == "CONFIGURING"),
                         "task \(task) is \(state) with no complete checkpoint in \(shard)\n\(said())")
            Thread.sleep(forTimeInterval: 0.05)
        }
        let stopped = Date()
        var urgent: String? = nil
        switch stop {
        case .signal:
            let signal = try slurm.run("scancel", ["--signal=TERM", "--full", task])
            try #require(signal.status == 0, "scancel exited \(signal.status): \(signal.errors)")
        case .preemption:
            urgent = try slurm.submit(["--partition=urgent", "--exclusive", "--output=\(logs)/urgent.out", "--wrap", "true"])
        }

        // Requeued (Restarts 1), started again, completed.
        var requeued: Date? = nil, restarted: Date? = nil, fields: [String: String] = [:]
        let end = Date().addingTimeInterval(300)
        while true {
            fields = try slurm.fields(ofJob: task)
            let state = fields["JobState"] ?? "?"
            if requeued == nil, Int(fields["Restarts"] ?? "") ?? 0 >= 1 { requeued = Date() }
            if requeued != nil, restarted == nil, state == "RUNNING" || !LocalSlurm.unfinishedStates.contains(state) { restarted = Date() }
            if !LocalSlurm.unfinishedStates.contains(state) { break }
            try #require(Date() < end, "task \(task) still \(state) (\(fields["Reason"] ?? "")) 300 s after the stop\n\(said())")
            Thread.sleep(forTimeInterval: 0.2)
        }
        let completed = Date()
        let text = said()
        #expect(fields["JobState"] == "COMPLETED", "\(fields["JobState"] ?? "?"), exit \(fields["ExitCode"] ?? "?")\n\(text)")
        #expect(fields["Restarts"] == "1", "Restarts=\(fields["Restarts"] ?? "?")")
        if let urgent {
            let states = try slurm.wait(for: [urgent], timeout: 60)
            #expect(states[urgent] == "COMPLETED", "the preempting job: \(states)")
            #expect(text.contains("DUE TO PREEMPTION"), "\(text)")
        }

        // The log, appended to across the two runs: what the first kept, the requeue, the resume of exactly that.
        let kept = try #require(text.firstMatch(of: /replay: stopped by SIGTERM: (\d+) threads kept in (\S+)\/(checkpoint-\d{6}\.json); the same command with --resume goes on from there/),
                                "no stop by SIGTERM in the task's log:\n\(text)")
        let keptThreads = Int(kept.1) ?? 0, checkpoint = String(kept.3)
        #expect(String(kept.2) == shard)
        #expect(keptThreads > 0 && keptThreads < threads, "\(keptThreads) threads kept of \(threads)")
        let requeueLine = stop == .signal ? "replay-array: stopped by a signal with its work kept; requeued \(task) to resume from its checkpoint"
            : "replay-array: stopped by a signal with its work kept; Slurm requeued \(task) itself (preemption), to resume from its checkpoint"
        let requeue = try #require(text.range(of: requeueLine), "no requeue of \(task) said:\n\(text)")
        let resume = try #require(text.range(of: "replay: resuming after \(checkpoint): \(keptThreads) threads already replayed"),
                                  "the second run did not resume after \(checkpoint) with \(keptThreads) threads:\n\(text)")
        #expect(kept.range.upperBound <= requeue.lowerBound && requeue.upperBound <= resume.lowerBound, "\(text)")

        let reportDifferences = try ReportComparison.differences(one + "/report.json", shard + "/report.json")
        #expect(reportDifferences.isEmpty, "report.json, stopped shard against one process:\n\(reportDifferences.joined(separator: "\n"))")
        let metricsDifferences = try ReportComparison.differences(one + "/metrics.json", shard + "/metrics.json")
        #expect(metricsDifferences.isEmpty, "metrics.json, stopped shard against one process:\n\(metricsDifferences.joined(separator: "\n"))")

        let seconds = { (date: Date?) in date.map { String(format: "%.1f s", $0.timeIntervalSince(stopped)) } ?? "never" }
        print("\(stop.rawValue): \(keptThreads) of \(threads) threads kept; after the stop: requeued \(seconds(requeued)), "
              + "running again \(seconds(restarted)), completed \(seconds(completed))")
    }

    // MARK: helpers

    /// A stand-in for replay: writes its arguments, one a line, and the shard environment to
    /// `arguments` in its --out; exits 3 when it is shard `failingShard` of the array.
    static func recordingReplay(in directory: TemporaryDirectory, failingShard: Int? = nil) throws -> String {
        let fail = failingShard.map { "[ \"${SLURM_ARRAY_TASK_ID:-}\" = \($0) ] && exit 3" } ?? ""
        let path = try directory.write("replay", text: """
            #!/usr/bin/env bash
            set -eu
            \(fail)
            out="" previous=""
            for argument in "$@"; do [ "$previous" = --out ] && out=$argument; previous=$argument; done
            mkdir -p "$out"
            { printf '%s\\n' "$@"; echo "SLURM_ARRAY_TASK_ID=${SLURM_ARRAY_TASK_ID:-}"; echo "SLURM_ARRAY_TASK_COUNT=${SLURM_ARRAY_TASK_COUNT:-}"; } > "$out/arguments"

            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// The `array ID` and `merge ID` lines scripts/slurm/submit prints.
    static func jobIDs(_ output: String) throws -> (array: String, merge: String) {
        var ids: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if words.count == 2 { ids[words[0]] = words[1] }
        }
        guard let array = ids["array"], let merge = ids["merge"] else { throw Failure("submit printed no job ids: \(output)") }
        return (array, merge)
    }
}
