import Foundation
import Testing
import TestSupport

/// deploy/kubernetes, read with a small YAML parser (MiniYAML; no kubectl here): the Indexed Job
/// and the merge Job are what deploy/kubernetes/README.md says, agree on N and the volumes, run the Slurm scripts'
/// command lines, and use only flags the built replay accepts.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct KubernetesManifestTests {
    static let folder = "deploy/kubernetes"

    static func documents(_ name: String) throws -> [YAML] {
        try MiniYAML.documents(Repository.text(folder + "/" + name))
    }

    static func job(_ file: String) throws -> YAML {
        let documents = try documents(file)
        try #require(documents.count == 1 && documents[0]["kind"]?.string == "Job", "\(file) holds one Job")
        return documents[0]
    }

    /// The pod template's replay container of a Job.
    static func container(_ job: YAML) throws -> YAML {
        let containers = try #require(job.at("spec.template.spec.containers")?.list)
        return try #require(containers.first { $0["command"]?.list == [.string("replay")] }, "a container whose command is replay")
    }

    static func strings(_ value: YAML?) throws -> [String] {
        let list = try #require(value?.list)
        return try list.map { try #require($0.string, "\($0) is not a string (Kubernetes wants args and command as strings: quote numbers)") }
    }

    /// The value after `flag` in an argument list.
    static func value(of flag: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    @Test func everyManifestParsesAsKubernetesObjects() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Repository.path(Self.folder)).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(names == ["kustomization.yaml", "merge-job.yaml", "shards-job.yaml", "volumes.yaml"])
        for name in names {
            for document in try Self.documents(name) {
                #expect(document["apiVersion"]?.string != nil, "\(name): apiVersion")
                let kind = try #require(document["kind"]?.string, "\(name): kind")
                if kind != "Kustomization" { #expect(document.at("metadata.name")?.string != nil, "\(name): metadata.name") }
            }
        }
        let kustomization = try #require(try Self.documents("kustomization.yaml").first)
        let resources = try Self.strings(kustomization["resources"])
        #expect(resources == ["shards-job.yaml", "merge-job.yaml"], "the volumes are applied apart, so deleting the jobs keeps the data")
        for resource in resources {
            #expect(FileManager.default.fileExists(atPath: Repository.path(Self.folder + "/" + resource)), "\(resource) is listed and missing")
        }
        let images = try #require(kustomization["images"]?.list)
        for file in ["shards-job.yaml", "merge-job.yaml"] {
            let image = try Self.container(Self.job(file))["image"]?.string
            #expect(images.contains { $0["name"]?.string == image }, "kustomization.yaml sets the image \(file) names")
        }
    }

    /// The parser agrees with PyYAML on every manifest, where the system Python has it (it does on
    /// Debian with python3-yaml); the other tests never need it.
    @Test(.enabled(if: Self.pyYAML != nil, "PyYAML is not installed (Debian python3-yaml): the cross-check of the test's YAML parser is skipped"))
    func theParserReadsTheManifestsAsPyYAMLDoes() throws {
        let python = try #require(Self.pyYAML)
        for name in ["kustomization.yaml", "merge-job.yaml", "shards-job.yaml", "volumes.yaml"] {
            let dumped = try Subprocess.run(python, ["-c", "import json, sys, yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))",
                                                     Repository.path(Self.folder + "/" + name)])
            try #require(dumped.status == 0, "\(dumped.errors)")
            let theirs = try JSONSerialization.jsonObject(with: dumped.standardOutput) as! NSArray
            let ours = try JSONSerialization.jsonObject(with: JSONSerialization.data(withJSONObject: try Self.documents(name).map(\.foundation))) as! NSArray
            #expect(ours.isEqual(theirs), "\(name): MiniYAML and PyYAML disagree")
        }
    }

    static let pyYAML: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { python in
        FileManager.default.isExecutableFile(atPath: python) && (try? Subprocess.run(python, ["-c", "import yaml"]))?.status == 0
    }

    /// One pod per shard: completions = parallelism = --shards = N; pod I writes /results/shard-I
    /// (JOB_COMPLETION_INDEX, defined in its environment, since Kubernetes expands only defined
    /// variables); the corpus and the cache on a read-only data volume, the results on a shared one.
    @Test func theShardsJobIsIndexedWithOnePodPerShard() throws {
        let job = try Self.job("shards-job.yaml")
        #expect(job.at("spec.completionMode")?.string == "Indexed")
        let shards = try #require(job.at("spec.completions")?.int)
        #expect(shards >= 1 && job.at("spec.parallelism")?.int == shards)
        #expect(job.at("spec.template.spec.restartPolicy")?.string == "Never")
        let container = try Self.container(job)
        let arguments = try Self.strings(container["args"])
        #expect(Self.value(of: "--shards", in: arguments) == String(shards))
        #expect(Self.value(of: "--out", in: arguments) == "/results/shard-$(JOB_COMPLETION_INDEX)")

        let environment = container["env"]?.list ?? []
        let defined = Set(environment.compactMap { $0["name"]?.string })
        for argument in arguments {
            for variable in Self.expansions(in: argument) {
                #expect(defined.contains(variable), "$(\(variable)) in args is not in the container's env, so Kubernetes would leave it as it is")
            }
        }
        #expect(environment.first { $0["name"]?.string == "JOB_COMPLETION_INDEX" }?.at("valueFrom.fieldRef.fieldPath")?.string
                == "metadata.annotations['batch.kubernetes.io/job-completion-index']")

        let mounts = try Self.mounts(job)
        let data = try #require(mounts["replay-data"], "the data volume is mounted")
        #expect(data.readOnly)
        let cache = try #require(environment.first { $0["name"]?.string == "REPLAY_CACHE" }?["value"]?.string)
        #expect(cache.hasPrefix(data.path + "/"), "REPLAY_CACHE is on the data volume")
        let corpus = try #require(arguments.last)
        #expect(corpus.hasPrefix(data.path + "/"), "the corpus is on the data volume")
        let results = try #require(mounts["replay-results"], "the results volume is mounted")
        #expect(!results.readOnly && results.path == "/results")
        // Every shard reads one run key, from a Secret no result volume holds.
        let key = try #require(mounts["secret:replay-run-key"], "the run key's Secret is mounted")
        #expect(key.readOnly && !key.path.hasPrefix(results.path) && !key.path.hasPrefix(data.path))
        let keyFile = try #require(environment.first { $0["name"]?.string == "REPLAY_RUN_KEY" }?["value"]?.string)
        #expect(keyFile.hasPrefix(key.path + "/"), "REPLAY_RUN_KEY names a file of the Secret")

        for rule in job.at("spec.podFailurePolicy.rules")?.list ?? [] {
            if let name = rule.at("onExitCodes.containerName")?.string { #expect(name == container["name"]?.string) }
        }
    }

    /// The merge runs once, suspended until the shards are done, and names every shard 0..N-1.
    @Test func theMergeJobNamesEveryShard() throws {
        let shards = try #require(Self.job("shards-job.yaml").at("spec.completions")?.int)
        let job = try Self.job("merge-job.yaml")
        #expect(job.at("spec.suspend")?.bool == true, "created suspended: Kubernetes has no afterok between jobs")
        #expect(job.at("spec.completions")?.int == 1)
        let arguments = try Self.strings(Self.container(job)["args"])
        #expect(Array(arguments.prefix(3)) == ["merge", "--out", "/results/merged"])
        #expect(Array(arguments.dropFirst(3)).filter { !$0.hasPrefix("-") && !$0.contains("=") } == (0..<shards).map { "/results/shard-\($0)" })
        let results = try #require(Self.mounts(job)["replay-results"])
        #expect(!results.readOnly && results.path == "/results")
        // The merge checks each shard's state against its digest under the run key: it reads the shards' key.
        let key = try #require(Self.mounts(job)["secret:replay-run-key"], "the run key's Secret is mounted in the merge")
        #expect(key.readOnly && !key.path.hasPrefix(results.path))
        let environment = try Self.container(job)["env"]?.list ?? []
        let keyFile = try #require(environment.first { $0["name"]?.string == "REPLAY_RUN_KEY" }?["value"]?.string)
        #expect(keyFile.hasPrefix(key.path + "/"), "REPLAY_RUN_KEY names a file of the Secret")
    }

    /// Kubernetes runs the Slurm scripts' command lines: the shard's flags are the array task's (plus
    /// --shards, since Kubernetes gives no count), the merge's are the merge step's, and the
    /// directories are named alike.
    @Test func kubernetesRunsTheSlurmCommandLines() throws {
        let slurmShard = try Self.slurmReplayCommand("scripts/slurm/replay-array.sbatch")
        let kubernetesShard = try Self.strings(Self.container(Self.job("shards-job.yaml"))["args"])
        #expect(kubernetesShard.filter { $0.hasPrefix("--") && $0 != "--shards" } == slurmShard.filter { $0.hasPrefix("--") })
        #expect(Self.value(of: "--out", in: slurmShard) == "\"$OUT/shard-$SLURM_ARRAY_TASK_ID\"")
        #expect(Self.value(of: "--out", in: kubernetesShard)?.hasSuffix("/shard-$(JOB_COMPLETION_INDEX)") == true)

        let slurmMerge = try Self.slurmReplayCommand("scripts/slurm/replay-merge.sbatch")
        let kubernetesMerge = try Self.strings(Self.container(Self.job("merge-job.yaml"))["args"])
        #expect(Array(slurmMerge.prefix(2)) == ["merge", "--out"] && Array(kubernetesMerge.prefix(2)) == ["merge", "--out"])
        #expect(Self.value(of: "--out", in: slurmMerge) == "\"$OUT/merged\"")
        #expect(Self.value(of: "--out", in: kubernetesMerge)?.hasSuffix("/merged") == true)
    }

    /// Every flag and subcommand the manifests and the Slurm scripts give replay is one that
    /// `replay --help` of the built binary lists. WAITS FOR SHARDING: --resume, --shards and
    /// `replay merge` appear there once sharding lands; until then this fails, naming them.
    @Test func manifestsUseOnlyFlagsTheBinaryAccepts() throws {
        let replay = BuiltProducts.executable("replay")
        try #require(FileManager.default.isExecutableFile(atPath: replay), "no replay binary at \(replay): swift build --product replay")
        let help = try Subprocess.run(replay, ["--help"])
        try #require(help.status == 0, "replay --help exited \(help.status)")
        let text = help.output + help.errors
        let accepted = Self.flags(in: text)
        let subcommands = Self.subcommands(in: text)

        var used: [(flag: String, where: String)] = []
        for file in ["shards-job.yaml", "merge-job.yaml"] {
            let arguments = try Self.strings(Self.container(Self.job(file))["args"])
            used += Self.replayWords(arguments).map { ($0, "deploy/kubernetes/" + file) }
        }
        for script in ["scripts/slurm/replay-array.sbatch", "scripts/slurm/replay-merge.sbatch"] {
            used += Self.replayWords(try Self.slurmReplayCommand(script)).map { ($0, script) }
        }
        // scripts/slurm/submit hands --fail-under to the merge.
        used.append(("--fail-under", "scripts/slurm/submit"))
        #expect(used.contains { $0.flag == "merge" } && used.contains { $0.flag == "--out" })

        let unknown = used.filter { word in word.flag.hasPrefix("--") ? !accepted.contains(word.flag) : !subcommands.contains(word.flag) }
        let named = unknown.map { "\($0.flag) (\($0.where))" }.joined(separator: ", ")
        #expect(unknown.isEmpty, "not in `replay --help`: \(named)")
    }

    // MARK: helpers

    struct Mount { var path: String; var readOnly: Bool }

    /// The replay container's mounts, keyed by the claim of the volume each one mounts (a Secret's
    /// as `secret:NAME`); every claim is a PersistentVolumeClaim of volumes.yaml, and every mount
    /// names a volume of the pod.
    static func mounts(_ job: YAML) throws -> [String: Mount] {
        let claims = Set(try documents("volumes.yaml").filter { $0["kind"]?.string == "PersistentVolumeClaim" }.compactMap { $0.at("metadata.name")?.string })
        var volumes: [String: String] = [:]
        for volume in job.at("spec.template.spec.volumes")?.list ?? [] {
            let name = try #require(volume["name"]?.string)
            if let secret = volume.at("secret.secretName")?.string {
                volumes[name] = "secret:" + secret
                continue
            }
            let claim = try #require(volume.at("persistentVolumeClaim.claimName")?.string, "volume \(name) is a PVC or a Secret")
            #expect(claims.contains(claim), "claim \(claim) is declared in volumes.yaml")
            volumes[name] = claim
        }
        var mounts: [String: Mount] = [:]
        for mount in try container(job)["volumeMounts"]?.list ?? [] {
            let name = try #require(mount["name"]?.string)
            let claim = try #require(volumes[name], "mount \(name) names a volume of the pod")
            mounts[claim] = Mount(path: try #require(mount["mountPath"]?.string), readOnly: mount["readOnly"]?.bool ?? false)
        }
        return mounts
    }

    /// The words after `"$replay"` on the line of a Slurm script that runs it.
    static func slurmReplayCommand(_ script: String) throws -> [String] {
        let lines = try Repository.text(script).split(separator: "\n").filter { $0.contains("\"$replay\"") && !$0.hasPrefix("#") }
        let line = try #require(lines.count == 1 ? lines[0] : nil, "\(script) runs replay on exactly one line")
        let words = line.split(separator: " ").map(String.init)
        return Array(words[(words.firstIndex(of: "\"$replay\"")! + 1)...])
    }

    /// The flags (and a leading subcommand) of a replay argument list.
    static func replayWords(_ arguments: [String]) -> [String] {
        var words = arguments.filter { $0.hasPrefix("--") }.map { String($0.split(separator: "=")[0]) }
        if let first = arguments.first, first.first?.isLetter == true { words.insert(first, at: 0) }
        return words
    }

    /// Every `--flag` a help text names.
    static func flags(in text: String) -> Set<String> {
        var flags: Set<String> = []
        let characters = Array(text)
        var index = 0
        while index + 2 < characters.count {
            if characters[index] == "-", characters[index + 1] == "-", characters[index + 2].isLetter,
               index == 0 || !(characters[index - 1].isLetter || characters[index - 1] == "-") {
                var end = index + 2
                while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "-" { end += 1 }
                flags.insert(String(characters[index..<end]))
                index = end
            } else {
                index += 1
            }
        }
        return flags
    }

    /// The subcommands a help text's usage lines show: `replay WORD` at the start of a line
    /// (after `usage:` on the first).
    static func subcommands(in text: String) -> Set<String> {
        var words: Set<String> = []
        for line in text.split(separator: "\n") {
            var parts = line.split(separator: " ")
            if parts.first == "usage:" { parts.removeFirst() }
            if parts.count > 1, parts[0] == "replay", parts[1].allSatisfy(\.isLetter) { words.insert(String(parts[1])) }
        }
        return words
    }

    /// The `$(NAME)` references in a Kubernetes argument.
    static func expansions(in argument: String) -> [String] {
        var names: [String] = []
        var rest = Substring(argument)
        while let start = rest.range(of: "$(") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: ")") else { break }
            names.append(String(rest[..<end]))
            rest = rest[rest.index(after: end)...]
        }
        return names
    }
}
