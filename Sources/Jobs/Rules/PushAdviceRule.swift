import Privacy

/// `NeverRule.pushAdvice`: a push line that gives advice of its own (spec §4: "No greeting, no
/// 'Coach says', no advice of its own"; §8: "never gives advice").
///
/// A push line says what the reply holds. Advice is the line telling the reader what to do:
/// "Remember to stretch", "You should rest", "Try to sleep early", "Don't forget…", "Make
/// sure…", "Drink more water". A line that relays the agent's question is not advice: the spec's
/// own "Weight down 2.3 lb. Rest day or a light 3k tomorrow?" passes, and so does any phrase
/// below in a sentence that ends in a question mark. Nor is a summary in nouns ("Rest day
/// tomorrow", "New plan: three easy runs").
///
/// Phrases per language (`phrases`, in `PhraseTable`'s notation), every language's at once, as
/// `PushLineRule` checks greetings: a model asked for Danish may still advise in English.
/// Imperatives only at a sentence's start (anywhere in Japanese, Korean and Turkish, which put
/// the verb last), and only verbs that advise ("Drink more", "Rest up";
/// never a bare "Rest", which is also the noun of "Rest day"): precision comes before recall.
public enum PushAdviceRule {
    /// Whether `line` gives advice.
    public static func givesAdvice(_ line: String) -> Bool {
        let folded = PhraseTable.Folded(line)
        return phrases.matches(in: folded).contains { !isInQuestion($0, of: folded.bytes) }
    }

    /// Whether the sentence holding the match at `range` (bytes of a folded line) ends with a
    /// question mark: the line relays a question.
    static func isInQuestion(_ range: Range<Int>, of bytes: [UInt8]) -> Bool {
        var offset = range.upperBound
        while let scalar = PhraseTable.scalar(at: offset, of: bytes) {
            let next = offset + String(scalar).utf8.count
            switch scalar {
            case "?", "？": return true
            case "!", "…", "。", "！", "\n": return false
            case ".":   // a full stop, not the point of "2.3"
                if next == bytes.count || bytes[next] == 0x20 { return false }
            default: break
            }
            offset = next
        }
        return false
    }

    /// Advice, by language.
    public static let phrases = PhraseTable([
        "en": [
            "^remember to", "^don't forget", "^do not forget", "^make sure", "^be sure to", "you should", "you shouldn't",
            "^you need to", "you'd better", "you had better", "you might want to", "you may want to", "^try to",
            "^try not to", "^consider", "i recommend", "i suggest", "i'd suggest", "we recommend", "we suggest",
            "it's best to", "it is best to", "it's a good idea to", "it's important to", "^stay hydrated", "^hydrate",
            "^drink plenty", "^drink more", "^drink some", "^drink water", "^get some rest", "^get plenty of",
            "^get more sleep", "^get some sleep", "^get enough", "^take it easy", "^take a break", "^take a rest day",
            "^take time to", "^listen to your body", "^keep it up", "^keep up the", "^go easy", "^don't overdo",
            "^avoid", "^rest up", "^be careful", "^prioritize", "^prioritise", "^focus on", "^aim for",
            "^remember:", "^tip:", "^pro tip",
        ],
        "fr": [
            "^n'oublie pas", "^n'oubliez pas", "^pense à", "^pensez à", "tu devrais", "vous devriez", "^tu dois",
            "^vous devez", "^essaie de", "^essayez de", "^assure-toi", "^assurez-vous", "^veille à", "^veillez à",
            "je te conseille", "je vous conseille", "je recommande", "je te recommande", "je vous recommande",
            "il est conseillé", "il est important de", "^bois", "^buvez", "^hydrate-toi", "^hydratez-vous",
            "^repose-toi", "^reposez-vous", "^prends soin", "^prenez soin", "^écoute ton corps", "^écoutez votre corps",
            "^évite", "^évitez", "^continue comme ça", "^vas-y doucement", "^allez-y doucement", "^ménage-toi",
            "^n'en fais pas trop", "^astuce :", "^conseil :",
        ],
        "de": [
            "^denk daran", "^denke daran", "^denken sie daran", "^vergiss nicht", "^vergessen sie nicht", "du solltest",
            "^sie sollten", "^du musst", "^achte auf", "^achte darauf", "^achten sie", "^versuch", "^versuche",
            "^versuchen sie", "ich empfehle", "ich rate", "es ist wichtig", "^trink", "^trinke", "^trinken sie",
            "^gönn dir", "^gönnen sie sich", "^ruh dich aus", "^ruhen sie sich aus", "^hör auf deinen körper",
            "^nimm dir", "^mach eine pause", "^mach langsam", "^übertreib es nicht", "^vermeide", "^schlaf genug",
            "^pass auf dich auf", "^tipp:",
        ],
        "es": [
            "^recuerda", "^recuerde", "^no olvides", "^no olvide", "^asegúrate", "^asegúrese", "deberías", "^debería",
            "^debes", "^tienes que", "^intenta", "^trata de", "^procura", "te recomiendo", "le recomiendo",
            "te aconsejo", "le aconsejo", "^bebe", "^toma agua", "^hidrátate", "^descansa", "^escucha a tu cuerpo",
            "^cuídate", "^evita", "^no te exijas", "^tómatelo con calma", "^es mejor", "^lo mejor es", "^consejo:",
        ],
        "it": [
            "^ricorda", "^ricordati", "^non dimenticare", "^assicurati", "dovresti", "^devi", "^prova a", "^cerca di",
            "ti consiglio", "ti raccomando", "le consiglio", "^bevi", "^riposati", "^riposa", "^ascolta il tuo corpo",
            "^prenditi cura", "^fai attenzione", "^evita", "^non esagerare", "^vacci piano", "^è meglio",
            "^consiglio:",
        ],
        "pt": [
            "^lembre-se", "^lembra-te", "^lembre de", "^não se esqueça", "^não esqueça", "^não te esqueças",
            "^certifique-se", "^você deve", "você deveria", "^você precisa", "^tente", "^procure", "^experimente",
            "recomendo", "^beba", "^descanse", "^hidrate-se", "^cuide-se", "^escute seu corpo", "^ouça seu corpo",
            "^ouve o teu corpo", "^evite", "^não exagere", "^vá com calma", "^é melhor", "^dica:",
        ],
        "ja": [
            "忘れずに", "忘れないで", "ましょう !か", "方がいいです !か", "ほうがいいです !か", "方が良いです !か",
            "べきです !か", "べきだ", "おすすめします", "お勧めします", "心がけて", "気をつけて", "無理しないで",
            "無理せず", "休んでください", "水分補給を", "水分をとって", "水分を取って", "してみてください",
        ],
        "nl": [
            "^vergeet niet", "^denk eraan", "^zorg ervoor", "^zorg dat", "je moet", "je zou moeten", "^probeer",
            "ik raad", "^drink", "^rust goed", "^neem rust",
        ],
        "da": [
            "^husk at", "^glem ikke", "du bør", "^du skal", "^prøv at", "^sørg for", "jeg anbefaler", "^drik",
        ],
        "sv": [
            "^kom ihåg", "^glöm inte", "du bör", "du borde", "^se till", "^försök att", "jag rekommenderar", "^drick",
        ],
        "nb": [
            "^husk å", "^ikke glem", "du bør", "^du må", "^prøv å", "^sørg for", "jeg anbefaler", "^drikk",
        ],
        "zh": [
            "记得", "記得", "别忘了", "別忘了", "不要忘记", "建议你", "建議你", "你应该", "你應該", "多喝水", "注意休息",
        ],
        "ko": [
            "잊지 마세요", "하는 것이 좋습니다", "하는 게 좋아요", "권장합니다", "추천합니다", "쉬세요",
        ],
        "tr": [
            "unutma", "unutmayın", "tavsiye ederim", "öneririm", "yapmalısın", "dinlenmelisin", "bol su iç",
        ],
        "vi": [
            "^hãy", "^đừng quên", "bạn nên", "nhớ uống", "^nhớ",
        ],
    ])
}
