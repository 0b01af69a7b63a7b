import Foundation
import Testing
@testable import Audit
@testable import Confinement
import Privacy

@Suite struct SandboxReportTests {
    static let confined = SandboxReport(
        landlockABI: 7, writableDirectories: ["/out"], writableFiles: ["/dev/null"], handledFilesystemAccess: ["write_file"],
        withheldInWritableDirectories: ["remove_file", "remove_dir", "refer", "truncate", "make_sym"],
        networkRestricted: true, abstractUnixSocketsScoped: true, signalsScoped: true, seccompInstalled: true,
        coreDumpsDisabled: true, argumentAreaHidden: true, threadsAtConfinement: 1, allThreadsConfined: true)

    /// Each part the promise needs, taken away in turn.
    static let everyPartNeeded: [(String, @Sendable (inout SandboxReport) -> Void)] = [
        ("seccomp", { $0.seccompInstalled = false }),
        ("tcp", { $0.networkRestricted = false }),
        ("threads", { $0.allThreadsConfined = false }),
        ("files", { $0.handledFilesystemAccess = [] }),
        ("core dumps", { $0.coreDumpsDisabled = false }),
        ("argument area", { $0.argumentAreaHidden = false }),
        ("removal", { $0.withheldInWritableDirectories.removeAll { $0 == "remove_file" } }),
        ("truncation", { $0.withheldInWritableDirectories.removeAll { $0 == "truncate" } }),
        ("rename", { $0.withheldInWritableDirectories.removeAll { $0 == "refer" } }),
        ("unsandboxed", { $0.unsandboxedReason = "skipped" }),
    ]

    @Test func confinedReportIsEnforced() {
        #expect(Self.confined.enforced)
    }

    @Test(arguments: SandboxReportTests.everyPartNeeded.map(\.0))
    func enforcedNeedsEveryPart(_ part: String) throws {
        var report = Self.confined
        let takeAway = try #require(Self.everyPartNeeded.first { $0.0 == part }?.1)
        takeAway(&report)
        #expect(!report.enforced)
    }

    /// The scopes need ABI 6 while the promise needs ABI 4, like the abstract-socket scope before.
    @Test func scopesAreNotRequired() {
        var report = Self.confined
        report.signalsScoped = false
        report.abstractUnixSocketsScoped = false
        #expect(report.enforced)
    }

    @Test func unsandboxedRunIsNeverEnforcedAndSaysWhy() {
        let report = SandboxReport.unsandboxed(because: .landlockTooOld(abi: 3, needed: 4))
        #expect(!report.enforced)
        #expect(ReportValue(encoding: report)["enforced"] == .bool(false))
        #expect(ReportValue(encoding: report)["unsandboxed_reason"] == .label("The kernel's Landlock is ABI 3, but denying TCP connections needs ABI 4 (Linux 6.7 or later)."))
    }

    @Test func reportValueListsWhatIsEnforced() {
        let value = ReportValue(encoding: Self.confined)
        #expect(value["enforced"] == .bool(true))
        #expect(value["landlock_abi"] == .int(7))
        #expect(value["writable_directories"] == .array([.label("/out")]))
        #expect(value["non_unix_sockets_denied"] == .bool(true))
        for key in ["all_sockets_denied", "metadata_writes_denied", "ipc_denied", "exec_denied", "signals_scoped",
                    "core_dumps_disabled"] {
            #expect(value[key] == .bool(true), "\(key)")
        }
        #expect(value["withheld_in_writable_directories"]
                == .array(["remove_file", "remove_dir", "refer", "truncate", "make_sym"].map { .label($0) }))
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
            .keptDescriptorIsNotALoopbackConnection(descriptor: 6),
            .rulesetFailed(errno: EINVAL),
            .ruleFailed(path: "/out", errno: ENOENT),
            .noNewPrivilegesFailed(errno: EPERM),
            .restrictFailed(errno: EPERM),
            .seccompFailed(errno: EINVAL),
            .writableDescriptorOpen(descriptor: 5, kind: "a pipe"),
            .coreDumpsNotDisabled(errno: EPERM),
        ]
        for error in errors {
            let text = error.description
            #expect(text.first?.isUppercase == true && text.hasSuffix("."), "\(text)")
        }
        #expect(SandboxError.ruleFailed(path: "/out", errno: ENOENT).description
                == "Writes beneath /out could not be allowed: No such file or directory (errno 2).")
        #expect(SandboxError.landlockUnavailable(reason: Sandbox.unavailableReason(ENOSYS)).description.contains("built without Landlock"))
        #expect(SandboxError.writableDescriptorOpen(descriptor: 5, kind: "a pipe").description
                == "Descriptor 5, a pipe, is open for writing from before confinement, and the sandbox cannot stop writes"
                + " through it: start the program without it (in a shell, add 5>&- to the command).")
    }

    /// The rights handled per ABI: only those the kernel knows, or the ruleset would be refused.
    @Test func rightsFollowTheABI() {
        #expect(LandlockRight.writes(abi: 1).count == 10)
        #expect(LandlockRight.writes(abi: 4).map(\.name).suffix(2) == ["refer", "truncate"])
        #expect(LandlockRight.writes(abi: 7).last?.name == "ioctl_dev")
        #expect(LandlockRight.mask(LandlockRight.writes(abi: 3)) == (1 << 15) - 1 - 0b1101) // all but execute, read_file, read_dir
        // Beneath a createOnly directory, every right a kernel knows is withheld but these three.
        #expect(LandlockRight.createOnly.isSubset(of: Set(LandlockRight.writes(abi: 1).map(\.name))))
        #expect(LandlockRight.takeBack.isSubset(of: Set(LandlockRight.writes(abi: Sandbox.minimumABI).map(\.name))))
        #expect(LandlockRight.takeBack.isDisjoint(with: LandlockRight.createOnly))
    }
}
