/// The kinds of unit a number may carry, as a set: a written unit may be read as more than one
/// ("kilos" is a distance to a runner and a weight to everyone else; "m" is metres or minutes;
/// "pounds" a weight or money). Two readings agree when either has no unit or their sets meet.
///
/// Used by `FactReader` to tell "5 km" from "5 min": a push line that keeps the reply's number
/// but changes its unit invents a fact (`PushUnfaithfulRule`).
public struct FactUnits: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let km = FactUnits(rawValue: 1 << 0)
    public static let mile = FactUnits(rawValue: 1 << 1)
    public static let metre = FactUnits(rawValue: 1 << 2)
    public static let kg = FactUnits(rawValue: 1 << 3)
    public static let pound = FactUnits(rawValue: 1 << 4)
    public static let gram = FactUnits(rawValue: 1 << 5)
    public static let minute = FactUnits(rawValue: 1 << 6)
    public static let hour = FactUnits(rawValue: 1 << 7)
    public static let second = FactUnits(rawValue: 1 << 8)
    public static let percent = FactUnits(rawValue: 1 << 9)
    public static let calorie = FactUnits(rawValue: 1 << 10)
    public static let step = FactUnits(rawValue: 1 << 11)
    public static let bpm = FactUnits(rawValue: 1 << 12)
    public static let euro = FactUnits(rawValue: 1 << 13)
    public static let dollar = FactUnits(rawValue: 1 << 14)
    public static let sterling = FactUnits(rawValue: 1 << 15)
    public static let yen = FactUnits(rawValue: 1 << 16)
    public static let day = FactUnits(rawValue: 1 << 17)
    public static let week = FactUnits(rawValue: 1 << 18)
    public static let degree = FactUnits(rawValue: 1 << 19)
    public static let litre = FactUnits(rawValue: 1 << 20)
    public static let millilitre = FactUnits(rawValue: 1 << 21)

    /// Whether a number with these units may be the same fact as one with `other`'s.
    func agrees(with other: FactUnits) -> Bool {
        isEmpty || other.isEmpty || !isDisjoint(with: other)
    }

    /// Units written as words after a number, folded (`FactReader.fold`: lower case, no accents).
    /// Words only: "k" is read apart (a distance, or thousands).
    static let words: [String: FactUnits] = {
        var table: [String: FactUnits] = [:]
        func add(_ units: FactUnits, _ words: String) {
            for word in words.split(separator: " ") { table[String(word), default: []].formUnion(units) }
        }
        add(.km, "km kms kilometre kilometres kilometer kilometers kilometern kilometro kilometros kilometri quilometro quilometros")
        add([.km, .kg], "kilo kilos")
        add(.mile, "mi mile miles milla millas miglio miglia milha milhas meile meilen")
        add(.metre, "metre metres meter meters metern metro metros metri")
        add([.metre, .minute], "m")
        add(.kg, "kg kgs kilogram kilograms kilogramme kilogrammes kilogramm kilogramo kilogramos chilo chili quilo quilos")
        add(.pound, "lb lbs livre livres pfund libra libras libbra libbre")
        add([.pound, .sterling], "pound pounds")
        add(.gram, "g gram grams gramme grammes gramm gramo gramos grammo grammi grama gramas")
        add(.minute, "min mins minute minutes minuten minuto minutos minuti mn")
        add(.hour, "h hr hrs hour hours heure heures stunde stunden std hora horas ora ore")
        add(.second, "s sec secs second seconds seconde secondes sekunde sekunden segundo segundos secondo secondi")
        add(.percent, "percent pct prozent")
        add(.calorie, "kcal cal calorie calories kalorie kalorien caloria calorias")
        add(.step, "step steps pas schritt schritte paso pasos passo passi passos")
        add(.bpm, "bpm")
        add(.euro, "eur euro euros")
        add(.dollar, "usd dollar dollars dolar dolares dollari")
        add(.sterling, "gbp")
        add(.yen, "jpy yen")
        add(.day, "day days jour jours tag tage tagen dia dias giorno giorni")
        add(.week, "week weeks semaine semaines woche wochen semana semanas settimana settimane")
        add(.degree, "degree degrees degre degres grad grado grados gradi")
        add(.litre, "l litre litres liter liters litro litros litri")
        add(.millilitre, "ml millilitre millilitres milliliter milliliters mililitro mililitros")
        return table
    }()

    /// Two-word units after a number, folded: "per cent", "pour cent", "por ciento".
    static let pairs: [String: [String: FactUnits]] = [
        "per": ["cent": .percent, "cento": .percent],
        "pour": ["cent": .percent],
        "por": ["ciento": .percent, "cento": .percent],
    ]

    /// Signs before or after a number.
    static let signs: [Unicode.Scalar: FactUnits] = [
        "%": .percent, "€": .euro, "$": .dollar, "£": .sterling, "¥": .yen, "°": .degree, "円": .yen,
    ]

    /// Units and counters written without spaces right after a number (Japanese, Chinese),
    /// longest first: the unit is the beginning of what follows. Counters with no unit ("回",
    /// "本") are here so a kanji number before them reads as a number (`FactReader`).
    static let unspaced: [(String, FactUnits)] = [
        ("キロメートル", .km), ("キロカロリー", .calorie), ("キログラム", .kg), ("キロ", [.km, .kg]), ("マイル", .mile),
        ("メートル", .metre), ("ポンド", [.pound, .sterling]), ("リットル", .litre), ("ミリリットル", .millilitre), ("グラム", .gram), ("パーセント", .percent), ("ml", .millilitre),
        ("カロリー", .calorie), ("時間", .hour), ("分間", .minute), ("分钟", .minute), ("小时", .hour), ("公里", .km),
        ("公斤", .kg), ("分", .minute), ("秒", .second), ("歩", .step), ("步", .step), ("円", .yen), ("日間", .day),
        ("日", .day), ("週間", .week), ("週", .week), ("度", .degree), ("回", []), ("本", []), ("杯", []), ("個", []),
        ("人", []), ("つ", []), ("セット", []), ("周", []), ("年", []), ("倍", []), ("ヶ月", []), ("か月", []), ("カ月", []),
    ]

    /// What may follow a number written in kanji for it to be read as one in a push line: a
    /// unit or a counter, or the month and hour of a date or time ("三回", "五キロ", "七時").
    /// Kanji numerals stand in many words that are no number ("一緒", "一番").
    static func isCounter(_ following: Substring) -> Bool {
        following.unicodeScalars.first == "月" || following.unicodeScalars.first == "時" || unspacedUnit(following) != nil
    }

    /// The unit or counter `following` starts with (`unspaced`, longest first), found by its
    /// first character: a reply in Japanese holds many numbers.
    static func unspacedUnit(_ following: Substring) -> FactUnits? {
        guard let first = following.unicodeScalars.first, let candidates = unspacedByFirst[first] else { return nil }
        return candidates.first { following.unicodeScalars.starts(with: $0.0.unicodeScalars) }?.1
    }

    /// `unspaced` by first character, each list longest first.
    static let unspacedByFirst: [Unicode.Scalar: [(String, FactUnits)]] = Dictionary(grouping: unspaced) { $0.0.unicodeScalars.first! }
}
