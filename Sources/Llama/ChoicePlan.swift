/// Which tokens a scored request (`GenerationRequest.choices`) evaluates after its prompt, and
/// which choice's next token each evaluated row predicts.
///
/// Every choice's log probability needs the row of logits after each of its proper prefixes.
/// The tokens all choices start with (`{"to":"`, the first `shared`) are evaluated once by the
/// engine, and their last row predicts each choice's first token of its own; this plan covers
/// the rest. Each choice's own tokens but its last go in after the shared ones, one evaluation
/// per choice, and are forgotten again before the next: the plain engine's way.
///
/// Sharing, the plan walks the choices in token order, so choices that start alike are
/// neighbours (members whose names share their first tokens), keeps the tokens a choice shares
/// with the one before it in the sequence, and lets one row predict the next token of every
/// choice it is a prefix of. The answers stay the plain engine's to the last bit, because a row's
/// numbers depend on its own sequence's cells only and on whether it was its sequence's only row
/// in an evaluation (llama.cpp's attention takes another kernel for a single row,
/// `LlamaEngine`): so an evaluation for a choice of two or more own tokens always holds two rows
/// or more (it goes back one token when it would hold one), its rows serve only choices of two or
/// more, and a choice of one own token before its last is evaluated alone, as the plain engine
/// does, serving only choices of one.
struct ChoicePlan: Equatable {
    /// One evaluation: `count` tokens of choice `choice` from its token `from`, at the prompt's
    /// end plus `from`. The sequence keeps its cells before that place and forgets those after.
    struct Evaluation: Equatable {
        var choice: Int
        var from: Int
        var count: Int
        /// Per evaluated token, in order: the choices whose token after it that row predicts.
        var predicts: [[Int]]
    }

    /// The tokens every choice starts with.
    let shared: Int
    let evaluations: [Evaluation]

    /// The plan for `choices` (token ids), `sharing` prefixes between choices or not.
    init(choices: [[Int32]], sharing: Bool) {
        let shared = choices.dropFirst().reduce(choices.first?.count ?? 0) { min($0, commonPrefix(choices[0], $1)) }
        self.shared = shared
        // Each choice's next token whose log probability is still missing (the shared tokens' last
        // row predicts the first of its own).
        var next = choices.map { _ in shared + 1 }
        let order = choices.indices.sorted { a, b in
            choices[a] == choices[b] ? a < b : choices[a].lexicographicallyPrecedes(choices[b])
        }
        // A choice of one own token before its last is its sequence's only row when evaluated.
        let alone = choices.map { $0.count - 1 - shared == 1 }
        // The choice tokens in the sequence after the shared ones: `choices[kept.choice][..<kept.count]`.
        var kept = (choice: 0, count: shared)
        var evaluations: [Evaluation] = []
        for i in order where next[i] < choices[i].count {
            let choice = choices[i]
            let end = choice.count - 1
            var from = shared
            if sharing && !alone[i] {
                let reusable = min(kept.count, commonPrefix(choices[kept.choice][..<kept.count], choice))
                from = max(shared, min(reusable, end - 2))
            }
            var predicts: [[Int]] = []
            for k in from..<end {
                var served: [Int] = []
                for j in sharing ? order : [i] where next[j] == k + 1 && choices[j].count > k + 1 && alone[j] == alone[i]
                    && commonPrefix(choices[j][...k], choice[...k]) == k + 1 {
                    served.append(j)
                    next[j] += 1
                }
                predicts.append(served)
            }
            evaluations.append(Evaluation(choice: i, from: from, count: end - from, predicts: predicts))
            // A lone row's cells are not what a longer choice's evaluation makes: not kept.
            kept = sharing && !alone[i] ? (i, end) : (i, shared)
        }
        self.evaluations = evaluations
    }

    /// Choice tokens evaluated in all (the shared ones not counted).
    var tokens: Int { evaluations.reduce(0) { $0 + $1.count } }
}
