import Foundation

/// Writes the flywheel's three files into a directory: metrics.csv, metrics.json, dashboard.html.
public enum FlywheelFiles {
    /// The file names, in the order written.
    public static let names = ["metrics.csv", "metrics.json", "dashboard.html"]

    /// Writes the three files for `counter` into `directory` (made, with its parents, if missing),
    /// each atomically (a temporary file renamed into place); returns their paths.
    @discardableResult
    public static func write(_ counter: FlywheelCounter, replayed: [ReplayedJobSummary]? = nil,
                             to directory: String) throws(FlywheelError) -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreateDirectory(path: directory, reason: reason(error))
        }
        let contents = [MetricsCSV.render(counter),
                        MetricsJSON.report(counter, replayed: replayed).json(),
                        Dashboard.render(counter, replayed: replayed)]
        var paths: [String] = []
        for (name, text) in zip(names, contents) {
            let path = (directory as NSString).appendingPathComponent(name)
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw .cannotWrite(path: path, reason: reason(error))
            }
            paths.append(path)
        }
        return paths
    }

    /// The system's reason for a Foundation file error, without the error's own path text.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
