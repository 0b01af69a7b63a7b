import Foundation

/// What a short text (a chip: 40 characters at most) shows of its language, by a heuristic for
/// `ChipLanguageRule`: the script first, then, for Latin script, a small scoring of function words
/// and letters among the supported languages (`SupportedLanguages.appleIntelligence`).
///
/// Built to say "clearly this" or "can't tell", never to guess: a chip is a few words, often a
/// name, a number, an emoji or a word every language borrows ("OK", "Super", "Yoga"), so the
/// identifier answers only when the evidence is plain.
/// - Script: kana means Japanese; Hangul Korean; Han alone Chinese or Japanese (kanji); any
///   other non-Latin script (Cyrillic, Arabic, Thai…) none of the supported languages. A script
///   decides when at least two letters are in it and they are at least half the text's letters.
/// - Latin script: each language gets a point per distinct word of its list the text holds, and
///   at most one point for letters its alphabet has and few others do ("ß", "ñ", "ã", "ğ", "ø",
///   Vietnamese tone marks…). A word in several lists ("in", "no", "ja") is a point for each: it
///   supports all of them. Articles and particles that names are made of ("de", "la", "van",
///   "del": "Le Tour de France", "Café de Flore"), and the "i" that is English, Danish and
///   Italian, are worth one point together at most, and only beside a point of another kind:
///   never evidence alone, for or against a language. The text is clearly in one of the
///   languages with a point when the best has two or more; with fewer it can't be told.
///
/// Words of no list (nouns, names, loanwords) count for nothing, so "Yoga at 7" tells nothing;
/// the lists hold function words and the few words chips are made of ("yes", "thanks",
/// "tomorrow"), chosen to be rare as loans.
public struct ShortTextLanguage: Sendable, Equatable {
    /// A writing system, as far as the supported languages need to tell them apart.
    public enum Script: String, Sendable, CaseIterable {
        case latin, han, kana, hangul, other
    }

    /// Letters by script.
    public private(set) var letters: [Script: Int] = [:]
    /// Points per Latin-script language subtag: words of its list, and one for its letters.
    public private(set) var latinPoints: [String: Int] = [:]
    /// One point per Latin-script language whose particles the text holds ("de", "la", "i"):
    /// added to `latinPoints` to reach two, never evidence alone.
    public private(set) var particlePoints: [String: Int] = [:]

    /// Reads `text`.
    public init(_ text: String) {
        for character in text where character.isLetter {
            letters[Self.script(of: character), default: 0] += 1
        }
        guard letters[.latin, default: 0] > 0 else { return }
        let folded = text.lowercased()
        var words: Set<Substring> = []
        for word in Self.words(of: folded) where words.insert(word).inserted {
            let isParticle = Self.particles.contains(String(word))
            for language in Self.wordLanguages[String(word)] ?? [] {
                if isParticle {
                    particlePoints[language] = 1   // particles together are worth one point at most
                } else {
                    latinPoints[language, default: 0] += 1
                }
            }
        }
        var lettered: Set<String> = []
        for character in folded {
            for language in Self.letterLanguages[character] ?? [] { lettered.insert(language) }
        }
        if Self.vietnameseLetterCount(folded) >= 2 { lettered.insert("vi") }
        for language in lettered { latinPoints[language, default: 0] += 1 }
    }

    /// The languages the text is clearly in one of, or nil when it shows too little to tell.
    ///
    /// An empty set: clearly none of the supported languages (another script). Chinese and
    /// Japanese come together for Han alone; Latin-script languages are those with any point,
    /// once one of them has two.
    public var clearLanguages: Set<String>? {
        let total = letters.values.reduce(0, +)
        guard total > 0 else { return nil }
        func decides(_ count: Int) -> Bool { count >= 2 && 2 * count >= total }
        let kana = letters[.kana, default: 0], han = letters[.han, default: 0]
        if kana >= 1 && decides(kana + han) { return ["ja"] }
        if decides(letters[.hangul, default: 0]) { return ["ko"] }
        if kana == 0 && decides(han) { return ["zh", "ja"] }
        if decides(letters[.other, default: 0]) { return [] }
        guard decides(letters[.latin, default: 0]) else { return nil }
        let best = latinPoints.map { $0.value + particlePoints[$0.key, default: 0] }.max() ?? 0
        guard best >= 2 else { return nil }
        return Set(latinPoints.filter { $0.value > 0 }.keys)
    }

    /// The script of a letter, by its first scalar.
    static func script(of character: Character) -> Script {
        guard let value = character.unicodeScalars.first?.value else { return .other }
        switch value {
        case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xBA, 0xC0...0x24F, 0x1E00...0x1EFF: return .latin
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return .kana
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7AF: return .hangul
        case 0x3005, 0x3007, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: return .han
        default: return .other
        }
    }

    /// The words of a lowercased text: runs of letters, with an apostrophe inside a word kept
    /// ("i'm", "c'est"), so contractions and elisions are words of their own.
    static func words(of folded: String) -> [Substring] {
        var result: [Substring] = []
        var start: String.Index? = nil
        var index = folded.startIndex
        while index < folded.endIndex {
            let character = folded[index]
            let next = folded.index(after: index)
            let apostrophe = character == "'" || character == "’"
            let inWord = character.isLetter
                || (apostrophe && start != nil && next < folded.endIndex && folded[next].isLetter)
            if inWord {
                if start == nil { start = index }
            } else if let begun = start {
                result.append(folded[begun..<index])
                start = nil
            }
            index = next
        }
        if let begun = start { result.append(folded[begun...]) }
        return result.map { word in
            word.contains("’") ? Substring(word.replacingOccurrences(of: "’", with: "'")) : word
        }
    }

    /// Letters of the Vietnamese alphabet no other supported language writes: đ, ơ, ư, ă and the
    /// vowels with tone marks of Latin Extended Additional.
    static func vietnameseLetterCount(_ folded: String) -> Int {
        folded.unicodeScalars.filter { scalar in
            (0x1EA0...0x1EF9).contains(scalar.value) || ["đ", "ơ", "ư", "ă"].contains(scalar)
        }.count
    }

    /// Letters that few supported languages write, and which.
    static let letterLanguages: [Character: [String]] = [
        "ß": ["de"], "ñ": ["es"], "ã": ["pt"], "õ": ["pt"], "ç": ["fr", "pt", "tr"],
        "ø": ["da", "nb"], "æ": ["da", "nb"], "å": ["da", "nb", "sv"],
        "ä": ["de", "sv"], "ö": ["de", "sv", "tr"], "ü": ["de", "tr"],
        "ğ": ["tr"], "ş": ["tr"], "ı": ["tr"],
        "è": ["fr", "it"], "ù": ["fr", "it"], "ì": ["it"], "ò": ["it"],
        "î": ["fr"], "û": ["fr"], "ï": ["fr", "nl"], "ë": ["fr", "nl"], "œ": ["fr"],
        "¿": ["es"], "¡": ["es"],
    ]

    /// Articles and particles that names and borrowed phrases are made of: together worth one point.
    static let particles: Set<String> = [
        "de", "la", "le", "el", "los", "las", "les", "di", "da", "du", "des", "del", "della", "van", "von", "der",
        "den", "dem", "die", "das", "y", "e", "a", "o", "i", "en", "et", "al", "au", "aux", "il", "lo",
    ]

    /// Each listed word's languages: every list below, inverted.
    static let wordLanguages: [String: [String]] = {
        var table: [String: [String]] = [:]
        for (language, list) in wordLists.sorted(by: { $0.key < $1.key }) {
            for word in Set(list.split(separator: " ")) { table[String(word), default: []].append(language) }
        }
        return table
    }()

    /// Function words and chip words per language, lowercased, space-separated. A word valid in
    /// several languages is listed in each, so it supports all of them.
    static let wordLists: [String: String] = [
        "en": """
            i i'm im i've i'll i'd me my you your you're we we're let's it it's is are was were be been am do does did \
            don't dont doesn't didn't can can't cant could would should will won't the a an and or but not no yes yeah \
            yep nope sure please thanks thank of to for with on at in from about this that what what's when where why \
            how which who today tomorrow tonight yesterday maybe later now just too also very really good great fine \
            sounds feel feeling tired sore ready done busy more some any all have has had got need want going much \
            still again there here then than so up out if bit little her even
            """,
        "de": """
            ich bin du bist wir mir mich dich es ist sind war das der die den dem und oder aber nicht kein keine ja \
            nein danke bitte gerne gern heute morgen später vielleicht noch schon mit für auf zu zum zur von bei wie \
            was wann warum wo gut müde klar alles passt geht mache machen lass uns mal doch einen eine ein etwas \
            bisschen lieber auch so also will am an im in er sie hat habe haben kann muss soll wäre würde nach da
            """,
        "fr": """
            je j'ai suis tu il elle on nous vous c'est ce ça est et ou mais pas ne n'est le la les un une des du de au \
            aux pour avec sur dans en oui non merci d'accord bien très demain aujourd'hui soir peut être plus moins \
            encore déjà fatigué fatiguée bonne bon idée allons quoi quand comment pourquoi qui que qu'il mon ma mes \
            ton ta moi toi y vais veux peux fait faire trop peu ai as va vas là beaucoup me a si te avec plaisir
            """,
        "es": """
            sí si no gracias vale claro vamos mañana hoy tarde noche luego después ahora bien muy más menos estoy \
            estás está es soy eres tengo tienes yo tú mi me te lo la el los las un una unos y o pero con sin para por \
            de del al en que qué cómo cuándo dónde porque quiero puedo hacer hago cansado cansada bueno buena mejor \
            todo nada algo también ya hasta eso esto este esta aquí poco uno va a tu
            """,
        "it": """
            sì si no grazie va bene benissimo certo domani oggi stasera dopo adesso ora poi sono sei è ho hai io tu \
            mi ti ci il lo la i gli le un una uno e o ma con senza per di del della al alla in che come quando dove \
            perché voglio posso fare faccio stanco stanca buono buona meglio tutto niente qualcosa anche già ancora \
            po' non andiamo facciamo perfetto magari forse allora questo questa da qui ne là so me a te
            """,
        "pt": """
            sim não obrigado obrigada valeu claro vamos amanhã hoje logo depois agora bem muito mais menos estou \
            está é sou tenho eu você vc me te o a os as um uma e ou mas com sem para pra por de do da dos das no na \
            em que como quando onde porque quero posso fazer cansado cansada bom boa melhor tudo nada algo também \
            já ainda isso isto este esta aqui beleza ótimo tá né tô pouco certo ora sei vale tu do
            """,
        "nl": """
            ik je jij u we wij het de een en of maar niet geen wel ja nee dank bedankt graag morgen vandaag vanavond \
            misschien goed prima is ben bent zijn heb hebt heeft was dat dit wat wanneer waarom hoe met voor van op \
            aan in naar om ook nog al even moe lekker klopt zeker doen gaan nu kan te
            """,
        "da": """
            jeg du vi det den en et og eller men ikke ja nej tak gerne i dag morgen måske godt fint har er var kan \
            skal vil med til for på af om hvad hvornår hvorfor hvordan træt lidt også lige nu så mig dig her de
            """,
        "nb": """
            jeg du vi det den en et og eller men ikke ja nei takk gjerne i dag morgen kanskje godt fint har er var \
            kan skal vil med til for på av om hva når hvorfor hvordan trøtt sliten litt også nå så meg deg her de bra
            """,
        "sv": """
            jag du vi det den en ett och eller men inte ja nej tack gärna i dag idag imorgon kanske bra fint har är \
            var kan ska vill med till för på av om vad när varför hur trött lite också bara nu så mig dig de
            """,
        "tr": """
            ve bir bu ben sen biz evet hayır tamam çok iyi değil için ile da de mi ne yarın bugün olur var yok \
            güzel teşekkürler teşekkür sağol şimdi sonra belki yorgun
            """,
        "vi": """
            tôi bạn không được vâng có và của với này rồi nhé ạ hôm làm đi muốn cảm ơn
            """,
    ]
}
