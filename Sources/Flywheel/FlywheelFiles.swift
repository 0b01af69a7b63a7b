import Foundation
import Privacy
import Synchronization

/// Writes the flywheel's three files into a directory: metrics.csv, metrics.json, dashboard.html.
public enum FlywheelFiles {
    /// The file names, in the order written.
    public static let names = ["metrics.csv", "metrics.json", "dashboard.html"]

    /// Writes the three files for `counter` into `directory` (made, with its parents, if missing),
    /// each created new (`ReportFile`: files are never replaced, so the sandbox can deny removal);
    /// returns their paths. The caller clears stale copies before confinement.
    @discardableResult
    public static func write(_ counter: FlywheelCounter, replayed: [ReplayedJobSummary]? = nil,
                             to directory: String) throws(FlywheelError) -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreateDirectory(path: directory, reason: reason(error))
        }
        var paths: [String] = []
        for (name, text) in contents(counter, replayed: replayed) {
            let path = (directory as NSString).appendingPathComponent(name)
            do {
                try ReportFile.create(path, text: text)
            } catch {
                throw .cannotWrite(path: path, reason: error.message)
            }
            paths.append(path)
        }
        return paths
    }

    /// The three files' names and texts, in `names` order, for a writer of its own
    /// (ReplayKit's `OutputDirectory`, the one writer of everything under `--out`).
    ///
    /// The dashboard is about as much work as the other two together and needs nothing of theirs,
    /// so it is rendered on a second core meanwhile: this is the tail of `replay flywheel`, after
    /// the last line is counted, when nothing else runs.
    public static func contents(_ counter: FlywheelCounter, replayed: [ReplayedJobSummary]? = nil) -> [(name: String, text: String)] {
        let texts = Mutex<[String]>(["", "", ""])
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            if part == 0 {
                let csv = MetricsCSV.render(counter)
                let json = MetricsDocument(counter, replayed: replayed).json()
                texts.withLock { $0[0] = csv; $0[1] = json }
            } else {
                let dashboard = Dashboard.render(counter, replayed: replayed)
                texts.withLock { $0[2] = dashboard }
            }
        }
        return zip(names, texts.withLock { $0 }).map { ($0, $1) }
    }

    /// The system's reason for a Foundation file error, without the error's own path text.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return SystemError(Int32(underlying.code)).message
        }
        if nsError.domain == NSPOSIXErrorDomain { return SystemError(Int32(nsError.code)).message }
        return nsError.localizedDescription
    }
}
