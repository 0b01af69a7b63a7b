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
    /// routing's 0.5 confidence: the spec gives no number for them.
    @Test(arguments: [
        (JobKind.chips, 800.0, SettingSource.spec),
        (.route, 400, .projectDefault),
        (.push, 3000, .projectDefault),
        (.draft, 2000, .projectDefault),
    ])
    func budgetsSayWhereTheirNumberComesFrom(kind: JobKind, milliseconds: Double, source: SettingSource) {
        #expect(kind.job().described.budget == Budget(milliseconds: milliseconds, source: source))
        #expect(kind.job(budgetMilliseconds: milliseconds).described.budget.source == source)   // the same number
        #expect(kind.job(budgetMilliseconds: milliseconds + 1).described.budget
                == Budget(milliseconds: milliseconds + 1, source: .flagOrConfig))
        let fields = kind.job().described.reportFields
        #expect(fields.first { $0.0 == "budget_source" }?.1 == .label(source == .spec ? "spec" : "default"))
    }

    @Test func routesConfidenceThresholdIsTheProjectsDefault() {
        func source(_ job: RouteJob) -> ReportValue? { job.described.settings.first { $0.0 == "minimum_confidence_source" }?.1 }
        #expect(source(RouteJob()) == .label("default"))
        #expect(source(RouteJob(minimumConfidence: 0.7)) == .label("flag_or_config"))
        #expect(RouteJob().described.settings.first?.1 == .number(0.5))
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
