import Engine
import Foundation

/// The team's profiles file (`--profiles FILE`, or `"profiles"` in `--config`): each model
/// version's context, languages and speed, and the devices (`ModelProfiles`, schema
/// `replay.profiles/1`, docs/profiles.md).
///
/// Read by the argument parser, before the run confines itself, so a file that cannot be read or
/// checked is a usage error (exit 2) naming the file and the key, before anything ran.
///
/// The file's `source` texts are the team's prose, not the replay's: the results say where the
/// numbers come from as `teamSource` (the report's `run.profiles.sha256` names the file), so
/// `replay audit` can keep holding every prose string of a result to the writers' own words.
package enum ProfilesFile {
    /// The largest profiles file read: a few devices and versions, not a corpus.
    static let maximumBytes = 1 << 20

    package static func load(_ path: String) throws(ArgumentParser.UsageError) -> ModelProfiles {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ArgumentParser.UsageError("cannot read the profiles file \(path)")
        }
        guard data.count <= maximumBytes else {
            throw ArgumentParser.UsageError("the profiles file \(path) is larger than \(maximumBytes / 1024) KiB: it should hold profiles, not a corpus")
        }
        var profiles: ModelProfiles
        do {
            profiles = try ModelProfiles(parsing: Array(data), file: path)
        } catch {
            throw ArgumentParser.UsageError(error.description)
        }
        for index in profiles.devices.indices { profiles.devices[index].source = teamSource }
        for index in profiles.models.indices { profiles.models[index].source = teamSource }
        profiles.unknownModel.source = teamSource
        if profiles.queue != ModelProfiles.estimatedQueue { profiles.queue.source = teamSource }
        return profiles
    }

    /// Where a team file's numbers come from, as the results say it.
    static let teamSource = "stated in the team's profiles file"
}
