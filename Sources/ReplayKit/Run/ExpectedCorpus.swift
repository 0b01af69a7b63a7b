import Export

/// The corpus as the run took its identity (`CorpusIdentity.take`): its files in reading order,
/// as resolved then, and the version (`FileVersion`) each regular file had when it was hashed.
///
/// The run reads these files, not the paths resolved again (a file added to a corpus directory
/// since is not read, one removed fails), and its reader fails a file that is not the version
/// hashed (`ExportError.fileChangedAfterIdentity`): the bytes replayed are the bytes the identity
/// names. Kept in memory only, never in a state: inodes and times differ between the machines
/// and copies of one corpus, and the states of a run's shards must merge byte for byte.
/// Standard input has no version.
struct ExpectedCorpus: Sendable, Equatable {
    var files: [String]
    var versions: [String: FileVersion]
}
