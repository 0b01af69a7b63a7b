import Foundation
import Privacy

/// `NeverRule.draftAdvice`: a draft that gives advice of the model's own (spec §8: "never gives
/// advice"; §5: a draft is a list, a timer or a note, "things that don't need an expert").
///
/// A draft is written for the person: the list, timer or note they asked for while offline. Its
/// items are often imperatives ("Buy milk", "Pack gels", "Call mum") and those are the person's
/// own to-dos, not advice, whoever chose them. What counts is the draft *addressing* the person
/// with what they should do: a recommendation ("I recommend…", "It's best to…", "Tip: …"), an
/// obligation put on them ("You should…", "Tu devrais…", "Du solltest…"), a reminder to act
/// ("Remember to…", "Don't forget to…", "Make sure you…"), care ("Listen to your body", "Take
/// it easy"). A reminder of a thing ("Don't forget your passport") or a check of one ("Make sure
/// the deposit is returned") is a list's item; a bare imperative never counts, whatever it says
/// ("Stretch after", "Avoid caffeine"). Spaced dashes end clauses as full stops do (`clauses`).
///
/// Two exceptions keep the person's own words theirs. A phrase the person's message holds too
/// ("note: remember to call the bank" drafted as "Remember to call the bank") repeats the ask;
/// so does a phrase whose first two content words after it (or, in scripts written without
/// spaces, the characters around it: "母に電話するのを忘れずに") are the message's ("remind me to
/// stretch after runs" drafted as "Don't forget to stretch after your runs"). Both read the message's `SourceFacts`, kept at
/// planning. And, as for push lines, a phrase in a sentence that ends in a question mark is a
/// question, not advice.
///
/// Every title, body, item and timer label is judged on its own; every language's phrases at
/// once (`phrases`, in `PhraseTable`'s notation).
public enum DraftAdviceRule {
    /// Whether `field` (a title, body, item or label) gives advice the person's `message` does
    /// not already hold.
    public static func advises(_ field: String, message: SourceFacts?) -> Bool {
        let folded = PhraseTable.Folded(clauses(field))
        return phrases.matches(in: folded).contains { range in
            !PushAdviceRule.isInQuestion(range, of: folded.bytes) && !repeatsMessage(range, in: folded.bytes, message: message)
        }
    }

    /// A field with its spaced dashes read as the ends of sentences: titles and items join
    /// clauses with them ("Tea — try not to oversteep", "Race week - good luck!").
    static func clauses(_ field: String) -> String {
        guard field.contains(" —") || field.contains(" –") || field.contains(" - ") else { return field }
        return field.replacingOccurrences(of: " — ", with: ". ").replacingOccurrences(of: " – ", with: ". ")
            .replacingOccurrences(of: " - ", with: ". ")
    }

    /// Whether any of a draft's fields gives advice.
    public static func breaks(_ fields: [SealedText], message: SourceFacts?) -> Bool {
        fields.contains { $0.withUnsealedText { advises($0, message: message) } }
    }

    /// Whether the phrase at `range` of a folded field repeats the person's message: the message
    /// holds the phrase, or the first two content words after it in its sentence (a verb alone
    /// may be the ask's: "packing list" does not make "consider packing a rain jacket" the
    /// person's), or (written without spaces) the characters around it.
    static func repeatsMessage(_ range: Range<Int>, in bytes: [UInt8], message: SourceFacts?) -> Bool {
        guard let message else { return false }
        let phrase = String(decoding: bytes[range], as: UTF8.self)
        if message.mayContain(phrase: FactReader.fold(phrase)) { return true }
        let rest = FactReader.tokens(String(decoding: bytes[range.upperBound...], as: UTF8.self))
        // The first two content words of the sentence after the phrase (or the one there is).
        var content: [String] = []
        for token in rest.prefix(8) {
            if token.kind == .mark && PhraseTable.sentenceEnds.contains(token.text.unicodeScalars.first!) { break }
            guard token.kind == .word, token.folded.unicodeScalars.count >= 3, !functionWords.contains(token.folded) else { continue }
            content.append(token.folded)
            if content.count == 2 { break }
        }
        if !content.isEmpty && content.allSatisfy(message.holds(word:)) { return true }
        if let first = rest.first, first.kind == .unspaced, message.shares(pairsOf: String(first.text.unicodeScalars.prefix(4).map(Character.init))) {
            return true
        }
        guard let last = PhraseTable.scalar(before: range.upperBound, of: bytes), PhraseTable.isUnspaced(last) else { return false }
        let before = FactReader.tokens(String(decoding: bytes[..<range.lowerBound], as: UTF8.self))
        guard let run = before.last, run.kind == .unspaced else { return false }
        return message.shares(pairsOf: String(run.text.unicodeScalars.suffix(6).map(Character.init)))
    }

    /// Words passed over to find the content word after a phrase: articles, possessives,
    /// pronouns, light verbs, folded.
    static let functionWords: Set<String> = [
        "the", "your", "you", "some", "more", "any", "all", "get", "have", "take", "keep", "that", "this", "and", "not", "with", "for",
        "bien", "les", "ton", "tes", "votre", "vos", "une", "des", "pas", "faire", "prendre",
        "den", "die", "das", "dein", "deine", "deinen", "deinem", "ihre", "ihren", "einen", "eine", "ein", "dich", "dir", "sich",
        "nicht", "noch", "genug", "bitte", "daran", "darauf", "dass", "mehr", "immer",
        "los", "las", "tus", "sus", "una", "que", "bien", "mucho", "mas", "tomar", "hacer",
        "gli", "tuo", "tua", "tuoi", "tue", "che", "non", "bene", "fare", "prendere",
        "seu", "sua", "teu", "tua", "uma", "nao", "bem", "fazer", "tomar",
        "het", "een", "jouw", "meer", "att", "din", "ditt", "dina", "mer", "dit", "dine",
    ]

    /// Advice, by language: what addresses the person with what to do.
    public static let phrases = PhraseTable([
        "en": [
            "^remember to", "^remember:", "^don't forget to", "^do not forget to", "^make sure you", "^make sure to",
            "^make sure that you", "^be sure to", "you should !see|know|have seen",
            "you shouldn't", "you should not", "^you need to", "^you must", "you'd better", "you had better", "you might want to",
            "you may want to", "you'll want to", "^try to", "^try not to", "^consider", "i recommend", "i'd recommend",
            "i would recommend", "i suggest", "i'd suggest", "we recommend", "we suggest", "i advise", "my advice", "my recommendation",
            "it's best to", "it is best to", "best to", "it's a good idea to", "it is a good idea to", "a good idea to",
            "it's important to", "it is important to", "^listen to your body", "^take it easy", "^go easy", "^don't overdo",
            "^do not overdo", "^be careful", "^tip:", "^pro tip", "^top tip", "^advice:", "^note: try",
        ],
        "fr": [
            "^n'oublie pas de", "^n'oubliez pas de", "^pense à", "^pensez à", "tu devrais", "vous devriez", "^tu dois", "^vous devez",
            "^il faut que tu", "^essaie de", "^essayez de", "^assure-toi", "^assurez-vous", "^veille à", "^veillez à",
            "je te conseille", "je vous conseille", "je recommande", "je te recommande", "je vous recommande", "je te suggère",
            "je vous suggère", "mon conseil", "il est conseillé", "il est important de", "il vaut mieux", "mieux vaut",
            "^écoute ton corps", "^écoutez votre corps", "^vas-y doucement", "^allez-y doucement", "^ménage-toi", "^n'en fais pas trop",
            "^fais attention", "^faites attention", "^astuce :", "^astuce:", "^conseil :", "^conseil:",
        ],
        "de": [
            "^denk daran", "^denke daran", "^denken sie daran", "^vergiss nicht", "^vergessen sie nicht", "du solltest",
            "sie sollten", "^du musst", "^sie müssen", "^achte darauf", "^achten sie darauf", "^versuch", "^versuche",
            "^versuchen sie", "ich empfehle", "ich würde dir empfehlen", "ich rate", "mein rat", "mein tipp", "es ist wichtig",
            "es ist besser", "am besten", "^hör auf deinen körper", "^mach langsam", "^übertreib es nicht", "^pass auf dich auf",
            "^sei vorsichtig", "^tipp:", "^tipp :",
        ],
        "es": [
            "^recuerda", "^recuerde", "^no olvides", "^no olvide", "^asegúrate", "^asegúrese", "deberías", "debería", "^debes",
            "^tienes que", "^intenta", "^trata de", "^procura", "te recomiendo", "le recomiendo", "te aconsejo", "le aconsejo",
            "te sugiero", "mi consejo", "es importante", "es mejor", "^lo mejor es", "^escucha a tu cuerpo", "^cuídate",
            "^no te exijas", "^tómatelo con calma", "^ten cuidado", "^consejo:", "^consejo :",
        ],
        "it": [
            "^ricorda", "^ricordati", "^non dimenticare di", "^assicurati", "dovresti", "^devi", "^prova a", "^cerca di",
            "ti consiglio", "ti raccomando", "ti suggerisco", "le consiglio", "il mio consiglio", "è importante", "è meglio",
            "^ascolta il tuo corpo", "^non esagerare", "^vacci piano", "^fai attenzione", "^consiglio:",
        ],
        "pt": [
            "^lembre-se", "^lembra-te", "^lembre de", "^não se esqueça de", "^não esqueça de", "^não te esqueças de",
            "^certifique-se", "^você deve", "você deveria", "^deverias", "^você precisa", "^tente", "^procure", "recomendo",
            "te aconselho", "meu conselho", "é importante", "é melhor", "^escute seu corpo", "^ouça seu corpo", "^ouve o teu corpo",
            "^não exagere", "^vá com calma", "^tenha cuidado", "^dica:",
        ],
        "nl": [
            "^vergeet niet te", "^denk eraan", "^zorg ervoor", "^zorg dat", "je moet", "je zou moeten", "^probeer", "ik raad",
            "^luister naar je lichaam", "^tip:",
        ],
        "sv": ["^kom ihåg att", "^glöm inte att", "du bör", "du borde", "^se till", "^försök att", "jag rekommenderar", "^tips:"],
        "da": ["^husk at", "^glem ikke at", "du bør", "^sørg for", "^prøv at", "jeg anbefaler", "^tip:"],
        "nb": ["^husk å", "^ikke glem å", "du bør", "^sørg for", "^prøv å", "jeg anbefaler", "^tips:"],
        "ja": [
            "忘れずに", "忘れないで", "ましょう !か", "方がいいです !か", "ほうがいいです !か", "方が良いです !か", "方がいいよ",
            "べきです !か", "べきだ", "おすすめします", "お勧めします", "オススメします", "心がけて", "気をつけて", "無理しないで",
            "無理せず", "してみてください", "ようにしてください", "ようにしましょう", "大切です", "重要です", "ポイント：",
        ],
        "zh": ["记得", "記得", "别忘了", "別忘了", "建议你", "建議你", "你应该", "你應該", "最好"],
        "ko": ["잊지 마세요", "하는 것이 좋습니다", "하는 게 좋아요", "하셔야 합니다", "권장합니다", "추천합니다"],
        "tr": ["unutma", "unutmayın", "tavsiye ederim", "öneririm", "yapmalısın"],
        "vi": ["^hãy nhớ", "^đừng quên", "bạn nên"],
    ])
}
