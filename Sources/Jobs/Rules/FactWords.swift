/// The words `FactReader` reads as facts, by language: numbers written as words, weekdays,
/// months, and "tomorrow" and "yesterday". Every word folded (`FactReader.fold`: lower case,
/// no accents), so "février" and "fevrier" are one.
///
/// A push line is read with its own language's words (`lineTable(for:)`), so that a word
/// another language reads otherwise is left alone: English "once" is not Spanish eleven, German
/// "hier" is not French "yesterday", "Sept" is not French seven. The replies are read with every
/// language's words at once (`every`): a fact the reply may hold makes a line's fact supported,
/// never unsupported, so reading too much there costs recall, not precision.
public struct FactWords: Sendable {
    /// Numbers written as words. In a push line, never the words for one ("one", "un", "ein",
    /// "uno") or a half: they are articles and set phrases ("a light one", "half marathon")
    /// more than numbers.
    var numbers: [String: Double] = [:]
    /// Weekdays, Monday 1 to Sunday 7.
    var weekdays: [String: Int] = [:]
    /// Months, January 1 to December 12.
    var months: [String: Int] = [:]
    /// Days named relative to today: 1 tomorrow, -1 yesterday. "Today" and "tonight" are not
    /// facts: a reply read now is about today unless it says otherwise.
    var relativeDays: [String: Int] = [:]
    /// Words before a relative day that make it another thing: German "heute Morgen" (this
    /// morning), Spanish "por la mañana" (in the morning), French "après-demain".
    var notRelativeAfter: [String: Set<String>] = [:]
    /// Whether weekdays and months count in a line only when capitalised, as English writes
    /// them ("march", "may" and "sun" are words too), and "May" only beside a number.
    var datesCapitalised = false

    /// What one word is in the tables above.
    struct Entry: Sendable {
        var number: Double?
        var weekday: Int?
        var month: Int?
        var relativeDay: Int?
    }

    /// Every word of the tables by its hash (`SourceFacts.hash`), looked up once per word read
    /// (`indexed()`).
    private(set) var entries: [Int: Entry] = [:]

    /// The tables with `entries` filled in.
    func indexed() -> FactWords {
        var table = self
        for (word, value) in numbers { table.entries[SourceFacts.hash(word), default: Entry()].number = value }
        for (word, value) in weekdays { table.entries[SourceFacts.hash(word), default: Entry()].weekday = value }
        for (word, value) in months { table.entries[SourceFacts.hash(word), default: Entry()].month = value }
        for (word, value) in relativeDays { table.entries[SourceFacts.hash(word), default: Entry()].relativeDay = value }
        return table
    }

    /// The words for one, read in replies only (as one, besides what else they are: Spanish
    /// "once" is eleven).
    static let ones: Set<String> = ["one", "un", "une", "ein", "eine", "einen", "einem", "einer", "eins", "uno", "una", "um",
                                    "uma", "een", "once"]

    /// `ones` by hash (`SourceFacts.hash`).
    static let oneKeys = Set(ones.map(SourceFacts.hash))

    /// Each language's words.
    static let byLanguage: [String: FactWords] = {
        var tables: [String: FactWords] = [:]
        func numbers(_ words: String, from first: Double) -> [String: Double] {
            var table: [String: Double] = [:]
            for (offset, word) in words.split(separator: " ").enumerated() where word != "_" { table[String(word)] = first + Double(offset) }
            return table
        }
        func tens(_ words: String) -> [String: Double] {
            var table: [String: Double] = [:]
            for (offset, word) in words.split(separator: " ").enumerated() where word != "_" { table[String(word)] = Double(20 + 10 * offset) }
            return table
        }
        func ordered(_ words: String) -> [String: Int] {
            var table: [String: Int] = [:]
            for (offset, group) in words.split(separator: " ").enumerated() {
                for word in group.split(separator: "/") { table[String(word)] = offset + 1 }
            }
            return table
        }
        var en = FactWords()
        en.numbers = numbers("two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen", from: 2)
            .merging(tens("twenty thirty forty fifty sixty seventy eighty ninety")) { a, _ in a }
            .merging(["hundred": 100, "thousand": 1000, "dozen": 12, "twice": 2]) { a, _ in a }
        en.weekdays = ordered("monday/mon tuesday/tue/tues wednesday/wed thursday/thu/thur/thurs friday/fri saturday/sat sunday/sun")
        en.months = ordered("january/jan february/feb march/mar april/apr may june/jun july/jul august/aug september/sep/sept october/oct november/nov december/dec")
        en.relativeDays = ["tomorrow": 1, "tmrw": 1, "yesterday": -1]
        en.datesCapitalised = true
        tables["en"] = en

        var fr = FactWords()
        fr.numbers = numbers("deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize", from: 2)
            .merging(["vingt": 20, "vingts": 20, "trente": 30, "quarante": 40, "cinquante": 50, "soixante": 60, "cent": 100, "cents": 100,
                      "mille": 1000]) { a, _ in a }
        fr.weekdays = ordered("lundi mardi mercredi jeudi vendredi samedi dimanche")
        fr.months = ordered("janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre")
        fr.relativeDays = ["demain": 1, "hier": -1]
        fr.notRelativeAfter = ["demain": ["apres"], "hier": ["avant"]]
        tables["fr"] = fr

        var de = FactWords()
        de.numbers = numbers("zwei drei vier funf sechs sieben acht neun zehn elf zwolf dreizehn vierzehn funfzehn sechzehn siebzehn achtzehn neunzehn", from: 2)
            .merging(["zwanzig": 20, "dreissig": 30, "dreißig": 30, "vierzig": 40, "funfzig": 50, "sechzig": 60, "siebzig": 70, "achtzig": 80,
                      "neunzig": 90, "hundert": 100, "tausend": 1000, "zweimal": 2, "dreimal": 3, "viermal": 4, "funfmal": 5]) { a, _ in a }
        de.weekdays = ordered("montag/montags dienstag/dienstags mittwoch/mittwochs donnerstag/donnerstags freitag/freitags samstag/samstags/sonnabend sonntag/sonntags")
        de.months = ordered("januar/janner februar marz april mai juni juli august september oktober november dezember")
        de.relativeDays = ["morgen": 1, "gestern": -1]
        de.notRelativeAfter = ["morgen": ["heute", "gestern", "am", "jeden", "guten", "den", "diesen", "dem", "einen", "vom", "bis", "morgen"]]
        tables["de"] = de

        var es = FactWords()
        es.numbers = numbers("dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciseis diecisiete dieciocho diecinueve", from: 2)
            .merging(tens("veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa"))  { a, _ in a }
            .merging(["cien": 100, "ciento": 100, "mil": 1000]) { a, _ in a }
        es.weekdays = ordered("lunes martes miercoles jueves viernes sabado domingo")
        es.months = ordered("enero febrero marzo abril mayo junio julio agosto septiembre/setiembre octubre noviembre diciembre")
        es.relativeDays = ["manana": 1, "ayer": -1]
        es.notRelativeAfter = ["manana": ["la", "esta", "por", "de", "cada", "una", "toda", "pasado", "las", "media"]]
        tables["es"] = es

        var it = FactWords()
        it.numbers = numbers("due tre quattro cinque sei sette otto nove dieci undici dodici tredici quattordici quindici", from: 2)
            .merging(tens("venti trenta quaranta cinquanta sessanta settanta ottanta novanta")) { a, _ in a }
            .merging(["cento": 100, "mille": 1000]) { a, _ in a }
        it.weekdays = ordered("lunedi martedi mercoledi giovedi venerdi sabato domenica")
        it.months = ordered("gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre")
        it.relativeDays = ["domani": 1, "ieri": -1]
        tables["it"] = it

        var pt = FactWords()
        pt.numbers = numbers("dois tres quatro cinco seis sete oito nove dez onze doze treze catorze quinze", from: 2)
            .merging(tens("vinte trinta quarenta cinquenta sessenta setenta oitenta noventa")) { a, _ in a }
            .merging(["duas": 2, "cem": 100, "cento": 100, "mil": 1000]) { a, _ in a }
        pt.weekdays = ordered("segunda-feira terca-feira quarta-feira quinta-feira sexta-feira sabado domingo")
        pt.months = ordered("janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro")
        pt.relativeDays = ["amanha": 1, "ontem": -1]
        tables["pt"] = pt

        var nl = FactWords()
        nl.numbers = numbers("twee drie vier vijf zes zeven acht negen tien elf twaalf", from: 2)
        nl.weekdays = ordered("maandag dinsdag woensdag donderdag vrijdag zaterdag zondag")
        nl.months = ordered("januari februari maart april mei juni juli augustus september oktober november december")
        nl.relativeDays = ["morgen": 1, "gisteren": -1]
        nl.notRelativeAfter = ["morgen": ["'s", "deze", "elke", "goede", "morgen"]]
        tables["nl"] = nl
        return tables.mapValues { $0.indexed() }
    }()

    /// The words a reply is read with: every language's, and the words for one, ordinals and
    /// weekdays' short forms that a line is never read with.
    static let every: FactWords = {
        var all = FactWords()
        for (_, table) in byLanguage.sorted(by: { $0.key < $1.key }) {
            all.numbers.merge(table.numbers) { a, _ in a }
            all.weekdays.merge(table.weekdays) { a, _ in a }
            all.months.merge(table.months) { a, _ in a }
            all.relativeDays.merge(table.relativeDays) { a, _ in a }
        }
        all.numbers.merge(["first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
                           "ninth": 9, "tenth": 10, "premier": 1, "premiere": 1, "deuxieme": 2, "troisieme": 3, "quatrieme": 4,
                           "erste": 1, "zweite": 2, "dritte": 3, "vierte": 4, "primero": 1, "primera": 1, "tercero": 3, "tercera": 3,
                           "cuarto": 4, "half": 0.5, "demi": 0.5, "demie": 0.5, "halb": 0.5, "halbe": 0.5, "medio": 0.5, "media": 0.5,
                           "mezzo": 0.5, "mezza": 0.5, "meio": 0.5, "meia": 0.5, "couple": 2, "pair": 2]) { a, _ in a }
        all.weekdays.merge(["segunda": 1, "terca": 2, "quarta": 3, "quinta": 4, "sexta": 5]) { a, _ in a }
        return all.indexed()
    }()

    /// The words a push line in `language` (a subtag) is read with: its own language's, else
    /// English's.
    static func lineTable(for language: String?) -> FactWords {
        language.flatMap { byLanguage[$0.lowercased() == "no" ? "nb" : $0.lowercased()] } ?? byLanguage["en"]!
    }

    /// Words that join number words into one number: "twenty-five", "trente et un", "treinta y cinco".
    static let numberJoiners: Set<String> = ["and", "et", "und", "y", "e"]

    /// Weekdays, months and relative days in scripts written without spaces, found anywhere in a run.
    static let unspacedWeekdays: [(String, Int)] = [("月曜", 1), ("火曜", 2), ("水曜", 3), ("木曜", 4), ("金曜", 5), ("土曜", 6), ("日曜", 7),
                                                    ("星期一", 1), ("星期二", 2), ("星期三", 3), ("星期四", 4), ("星期五", 5), ("星期六", 6),
                                                    ("星期日", 7), ("星期天", 7)]
    static let unspacedRelativeDays: [(String, Int)] = [("明日", 1), ("あした", 1), ("明天", 1), ("昨日", -1), ("きのう", -1), ("昨天", -1)]
}
