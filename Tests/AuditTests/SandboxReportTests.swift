import Foundation
import Testing
@testable import Audit
import Privacy

@Suite struct SandboxReportTests {
    static let confined = SandboxReport(
        landlockABI: 7, writableDirectories: ["/out"], writableFiles: ["/dev/null"], handledFilesystemAccess: ["write_file"],
        networkRestricted: true, abstractUnixSocketsScoped: true, seccompInstalled: true,
        threadsAtConfinement: 1, allThreadsConfined: true)

    @Test func enforcedNeedsEveryPart() {
        #expect(Self.confined.enforced)
        var noSeccomp = Self.confined
        noSeccomp.seccompInstalled = false
        #expect(!noSeccomp.enforced)
        var noTCP = Self.confined
        noTCP.networkRestricted = false
        #expect(!noTCP.enforced)
        var threadEscaped = Self.confined
        threadEscaped.allThreadsConfined = false
        #expect(!threadEscaped.enforced)
        var noFiles = Self.confined
        noFiles.handledFilesystemAccess = []
        #expect(!noFiles.enforced)
    }

    @Test func unsandboxedRunIsNeverEnforcedAndSaysWhy() {
        let report = SandboxReport.unsandboxed(because: .landlockTooOld(abi: 3, needed: 4))
        #expect(!report.enforced)
        #expect(report.reportValue["enforced"] == .bool(false))
        #expect(report.reportValue["unsandboxed_reason"] == .label("The kernel's Landlock is ABI 3, but denying TCP connections needs ABI 4 (Linux 6.7 or later)."))
    }

    @Test func reportValueListsWhatIsEnforced() {
        let value = Self.confined.reportValue
        #expect(value["enforced"] == .bool(true))
        #expect(value["landlock_abi"] == .int(7))
        #expect(value["writable_directories"] == .array([.label("/out")]))
        #expect(value["non_unix_sockets_denied"] == .bool(true))
        #expect(value["unsandboxed_reason"] == .null)
    }

    @Test func errorsReadAsSentences() {
        let errors: [SandboxError] = [
            .landlockUnavailable(reason: Sandbox.unavailableReason(ENOSYS)),
            .landlockUnavailable(reason: Sandbox.unavailableReason(EOPNOTSUPP)),
            .landlockTooOld(abi: 3, needed: 4),
            .threadsAlreadyRunning(count: 5, abi: 7),
            .threadsAlreadyRunning(count: -1, abi: 7),
            .networkSocketOpen(descriptor: 4, domain: AF_INET),
            .rulesetFailed(errno: EINVAL),
            .ruleFailed(path: "/out", errno: ENOENT),
            .noNewPrivilegesFailed(errno: EPERM),
            .restrictFailed(errno: EPERM),
            .seccompFailed(errno: EINVAL),
        ]
        for error in errors {
            let text = error.description
            #expect(text.first?.isUppercase == true && text.hasSuffix("."), "\(text)")
        }
        #expect(SandboxError.ruleFailed(path: "/out", errno: ENOENT).description
                == "Writes beneath /out could not be allowed: No such file or directory (errno 2).")
        #expect(SandboxError.landlockUnavailable(reason: Sandbox.unavailableReason(ENOSYS)).description.contains("built without Landlock"))
    }

    /// The rights handled per ABI: only those the kernel knows, or the ruleset would be refused.
    @Test func rightsFollowTheABI() {
        #expect(LandlockRight.writes(abi: 1).count == 10)
        #expect(LandlockRight.writes(abi: 4).map(\.name).suffix(2) == ["refer", "truncate"])
        #expect(LandlockRight.writes(abi: 7).last?.name == "ioctl_dev")
        #expect(LandlockRight.mask(LandlockRight.writes(abi: 3)) == (1 << 15) - 1 - 0b1101) // all but execute, read_file, read_dir
    }
}
