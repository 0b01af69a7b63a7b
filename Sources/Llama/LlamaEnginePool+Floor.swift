import Engine
import Privacy

extension LlamaEnginePool {
    /// The evaluation no exact engine on these kernels can skip to answer some requests, for a
    /// benchmark's floor (`bench/model.sh`): counts only.
    public struct FewestTokens: Sendable, Equatable {
        /// Where `promptByPosition`'s ranges start: a prompt token's keys and queries meet every
        /// cell before it, so a token at position 2,048 costs the kernels about twice one at 0.
        public static let positionStarts = [0, 512, 1024, 2048]

        /// The nodes of the trie of the prompts' tokens, by the position of their token in
        /// `positionStarts`' ranges. A token's keys and values depend on every token before it,
        /// so only a prefix that prompts share can be evaluated once.
        public var promptByPosition: [Int]
        /// The choice tokens a scored request (`GenerationRequest.choices`) must evaluate: the
        /// logits that predict each choice's every token come from the prompt and the choice's
        /// tokens before it, so each proper prefix of a choice is evaluated, and a prefix that
        /// choices share once. Requests with the same prompt tokens share theirs.
        public var choices: Int

        /// Prompt tokens at any position.
        public var prompt: Int { promptByPosition.reduce(0, +) }

        /// Which of `positionStarts`' ranges `position` falls in.
        static func range(of position: Int) -> Int {
            positionStarts.lastIndex { $0 <= position } ?? 0
        }
    }

    /// The fewest tokens any engine must evaluate to answer `requests` exactly (see `FewestTokens`).
    public func fewestTokens(for requests: [GenerationRequest]) -> FewestTokens {
        var prompts = TokenTrie()
        var byPosition = [Int](repeating: 0, count: FewestTokens.positionStarts.count)
        var choiceTries: [[Int32]: TokenTrie] = [:]
        var choices = 0
        for request in requests {
            let tokens = model.promptTokens(for: request)
            prompts.insert(tokens) { depth in byPosition[FewestTokens.range(of: depth - 1)] += 1 }
            guard let texts = request.choices, !texts.isEmpty else { continue }
            var trie = choiceTries[tokens] ?? TokenTrie()
            for text in texts {
                // Every proper prefix of the choice: the choice's last token is predicted, not evaluated.
                let choice = text.withUnsealedText { model.tokenize($0) }
                trie.insert(choice.dropLast()) { _ in choices += 1 }
            }
            choiceTries[tokens] = trie
        }
        return FewestTokens(promptByPosition: byPosition, choices: choices)
    }

    /// The fewest prompt tokens any engine must evaluate to answer `requests` exactly: the nodes of
    /// the trie of their prompts' tokens (`fewestTokens(for:)`).
    public func fewestPromptTokens(for requests: [GenerationRequest]) -> Int {
        fewestTokens(for: requests).prompt
    }
}

/// Token sequences as a trie: each new node is a token no earlier sequence held at its place.
struct TokenTrie {
    private struct Edge: Hashable {
        let parent: Int
        let token: Int32
    }
    private var nodes: [Edge: Int] = [:]

    /// Adds `tokens`, calling `added` with the depth (1 for the first token) of each new node.
    mutating func insert<S: Sequence>(_ tokens: S, added: (Int) -> Void) where S.Element == Int32 {
        var node = 0
        var depth = 0
        for token in tokens {
            depth += 1
            let edge = Edge(parent: node, token: token)
            if let known = nodes[edge] {
                node = known
            } else {
                node = nodes.count + 1
                nodes[edge] = node
                added(depth)
            }
        }
    }
}
