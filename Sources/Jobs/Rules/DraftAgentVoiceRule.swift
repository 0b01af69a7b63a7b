import Privacy

/// `NeverRule.draftAgentVoice`: a draft that speaks as the agent (spec §5: the draft is drawn
/// "Draft on this phone, not from Coach"; §8: it "never writes an agent's reply, never speaks in
/// an agent's look").
///
/// A draft is the person's list, timer or note, and first person in it is the person's ("I'll
/// call the bank"). What speaks as the agent is what an agent says *to* the person: praise
/// ("Great job!"), a hand-over ("Here's your plan", "Voici ta liste"), a check-in ("Let me know
/// how it goes", "How are you feeling?"), the agent's own acts ("I've updated your plan", "I've
/// made you a list", "As your coach"), an answer's openers and closers ("Sure!", "Of course",
/// "Hope this helps", "Good luck!"), and a line spoken for the agent ("Coach says…").
///
/// Reuses the chips' `AgentVoiceRule` (what only an agent says to the person) and adds what an
/// assistant says when answering (`answering`). Advice is `DraftAdviceRule`'s: a phrase both
/// tables hold ("I recommend", "You should", "Remember to") is advice, counted there and not
/// here, so one draft is not counted twice for one phrase. A phrase the person's message holds
/// too is the person's ("note: here's your receipt"), and "<Agent>: …" or "<Agent> says" is the
/// person's when the message names the agent ("ask Coach about shoes").
public enum DraftAgentVoiceRule {
    /// Whether `field` (a title, body, item or label) speaks as `agent`, given the person's `message`.
    public static func speaksAsAgent(_ field: String, agent: String?, message: SourceFacts?) -> Bool {
        let folded = PhraseTable.Folded(DraftAdviceRule.clauses(field))
        let advice = DraftAdviceRule.phrases.matches(in: folded)
        let voice = AgentVoiceRule.phrases.matches(in: folded) + answering.matches(in: folded)
        if voice.contains(where: { range in
            !advice.contains(where: { $0.overlaps(range) })
                && !(message?.mayContain(phrase: FactReader.fold(String(decoding: folded.bytes[range], as: UTF8.self))) ?? false)
        }) {
            return true
        }
        guard let agent, !agent.isEmpty, PushLineRule.everyLanguage.speaksForAgent(field, agent: agent) else { return false }
        return !(message?.mayContain(phrase: FactReader.fold(agent)) ?? false)
    }

    /// Whether any of a draft's fields speaks as the agent.
    public static func breaks(_ fields: [SealedText], agent: String?, message: SourceFacts?) -> Bool {
        fields.contains { $0.withUnsealedText { speaksAsAgent($0, agent: agent, message: message) } }
    }

    /// What an assistant says when it answers, by language: openers, offers, closers, and
    /// handing over what it made.
    public static let answering = PhraseTable([
        "en": [
            "^sure !enough", "^of course", "^absolutely", "^certainly", "^got it", "^no problem", "^here you go", "^here you are",
            "^great question", "^good question", "hope this helps", "hope that helps", "^good luck !charm", "^best of luck",
            "i've made you", "i made you", "i've put together", "i have put together", "i've created a", "i've made a",
            "i've prepared a", "i have prepared", "here's a", "here is a", "here are some", "here's what", "here's the",
            "here is the", "i'll get back to you", "i will get back to you", "i'll send you", "i'll let you know", "as your trainer",
            "as your assistant", "enjoy your", "have a great", "have fun", "^you can do it", "^you can do this", "i've added",
            "i have added", "to your list", "on your list", "to your plan", "^happy reading", "^happy running", "^happy shopping",
            "^happy travels", "^happy cooking", "^happy training",
        ],
        "fr": [
            "^bien sûr", "^d'accord", "^avec plaisir", "^voici", "^voilà", "j'espère que ça t'aide", "j'espère que cela t'aide",
            "j'espère que cela vous aide", "^bonne chance", "je t'ai préparé", "je vous ai préparé", "je t'ai fait", "profite bien",
        ],
        "de": [
            "^klar", "^natürlich", "^gerne", "^gern", "^hier ist", "^hier sind", "^hier deine", "^hier dein", "viel erfolg",
            "^viel glück", "ich habe dir", "ich hab dir", "hoffe, das hilft", "hoffe das hilft", "viel spaß",
        ],
        "es": [
            "^claro", "^por supuesto", "^aquí tienes", "^aquí está", "^aquí están", "^con gusto", "espero que te ayude",
            "espero que te sirva", "^mucha suerte", "^buena suerte", "te he preparado", "te preparé", "que lo disfrutes",
        ],
        "it": [
            "^certo", "^certamente", "^ecco", "spero ti sia utile", "spero che ti aiuti", "^buona fortuna", "ti ho preparato",
            "^in bocca al lupo",
        ],
        "pt": [
            "^claro", "^com certeza", "^aqui está", "^aqui estão", "^aqui vai", "espero que ajude", "^boa sorte",
            "preparei para você", "preparei pra você", "preparei para ti",
        ],
        "nl": ["^natuurlijk", "^hier is", "^hier zijn", "^succes", "ik heb je", "hoop dat dit helpt"],
        "ja": [
            "こちらが", "かしこまりました", "承知しました", "もちろんです", "お役に立てれば", "作成しました", "用意しました",
            "ご参考に", "頑張りましょう", "がんばりましょう", "応援しています",
        ],
    ])
}
