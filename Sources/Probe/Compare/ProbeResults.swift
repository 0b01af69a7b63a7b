import Foundation
import Privacy
import ReplayKit

/// A finished `replay probe injection`'s results, as `replay probe compare` reads them: its
/// directory, its report.json and its trials.json's trials (in key order).
///
/// Finished means its manifest verifies (written last, and nothing changed since), as `replay
/// suite compare` and `replay compare` ask of the runs they read; both files are then decoded
/// by their own types (whose readers check what the types cannot say: trials.json's columns).
public struct ProbeResults: Sendable {
    /// The directory as given, made absolute.
    public var directory: String
    public var report: ProbeReportDocument
    public var trials: [ProbeTrial]

    public init(directory: String, report: ProbeReportDocument, trials: [ProbeTrial]) {
        (self.directory, self.report, self.trials) = (directory, report, trials)
    }

    /// The probe in `directory` (relative ones from `workingDirectory`), or why it is not one.
    public static func read(_ directory: String, workingDirectory: String) throws(ProbeError) -> ProbeResults {
        func refuse(_ because: String) -> ProbeError { .notProbeResults(directory: directory, because: because) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw refuse("there is no such directory")
        }
        if let problem = FinishedRun.problem(in: directory) { throw refuse(problem) }
        func value(_ name: String) throws(ProbeError) -> ReportValue {
            guard let text = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8) else {
                throw refuse("it has no \(name) that can be read as UTF-8 text")
            }
            do {
                return try ReportValue(parsingExactJSON: text)
            } catch {
                throw refuse("its \(name) is not JSON: \(error.description)")
            }
        }
        let reportValue = try value("report.json")
        let trialsValue = try value(ProbeTrialsDocument.fileName)
        let report: ProbeReportDocument
        do {
            report = try ReportValueDecoder().decode(ProbeReportDocument.self, from: reportValue)
        } catch {
            throw refuse("its report.json is not a probe's (\(ProbeReportDocument.schema)): \(error.description)")
        }
        let trials: ProbeTrialsDocument
        do {
            trials = try ReportValueDecoder().decode(ProbeTrialsDocument.self, from: trialsValue)
        } catch {
            throw refuse("its \(ProbeTrialsDocument.fileName) is not a probe's trials (\(ProbeTrialsDocument.schema)): \(error.description)")
        }
        return ProbeResults(directory: OutputDirectory.resolve(directory, from: workingDirectory), report: report, trials: trials.trials)
    }
}
