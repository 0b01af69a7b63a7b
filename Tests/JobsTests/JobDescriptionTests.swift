import Privacy
import Engine
import Export
import Testing
@testable import Jobs

/// Each job describes itself, and one registry maps a kind to its job.
@Suite struct JobDescriptionTests {
    @Test(arguments: JobKind.allCases)
    func theRegistryMakesEachKindsJob(kind: JobKind) {
        let job = kind.job()
        #expect(job.kind == kind && job.described.kind == kind)
        #expect(job.described.budget == type(of: job).defaultBudget)
    }

    /// Chips' 800 ms is the spec's (§2); the other budgets are the project's choices, as is
    /// routing's 0.4 confidence: the spec gives no number for them.
    @Test(arguments: [
        (JobKind.chips, 800.0, SettingSource.spec),
        (.route, 400, .projectDefault),
        (.push, 3000, .projectDefault),
        (.draft, 2000, .projectDefault),
    ])
    func budgetsSayWhereTheirNumberComesFrom(kind: JobKind, milliseconds: Double, source: SettingSource) throws {
        #expect(kind.job().described.budget == Budget(milliseconds: milliseconds, source: source))
        #expect(kind.job(budgetMilliseconds: milliseconds).described.budget.source == source)   // the same number
        #expect(kind.job(budgetMilliseconds: milliseconds + 1).described.budget
                == Budget(milliseconds: milliseconds + 1, source: .flagOrConfig))
        let settings = try ReportValueEncoder().encode(kind.job().described.reportSettings)
        #expect(settings["budget_source"] == .label(source == .spec ? "spec" : "default"))
    }

    @Test func routesConfidenceThresholdIsTheProjectsDefault() {
        func source(_ job: RouteJob) -> SettingSource? { job.described.settings.minimumConfidenceSource }
        #expect(source(RouteJob()) == .projectDefault)
        #expect(source(RouteJob(minimumConfidence: 0.7)) == .flagOrConfig)
        #expect(RouteJob().described.settings.minimumConfidence == 0.4)
    }

    /// The schema a job describes is the one its requests are decoded under.
    @Test(arguments: JobKind.allCases)
    func theDescribedSchemaIsTheOneTheModelFills(kind: JobKind) throws {
        let job = kind.job()
        var ledger = JobLedger()
        let item = try #require(job.plan(FallbackTests.firingThread(kind, locale: "en-US", lang: nil),
                                         tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        let request = try #require(item.request)
        if let schema = job.described.outputSchema {
            #expect(request.grammar == GrammarWriter.grammar(for: schema))
        } else {
            #expect(kind == .route)   // made per group, from its members
        }
        #expect(request.contextLimit == job.described.contextLimitTokens)
    }
}
