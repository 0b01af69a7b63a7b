/// What an offline message asks an expert about, for `NeverRule.draftExpertQuestion` (spec §5: "A
/// question about health, money or anything the agent knows and the phone doesn't gets no draft").
///
/// Decided at planning by keywords and phrases in the corpus's languages, as `DraftKeywords`
/// labels the kind a message asks for, and kept as the item's `labels["expert_topic"]`: the
/// category only, never a word. At check, a draft other than `none` for such a message breaks
/// the rule.
///
/// A message in a language with a table (`phrases`) is read with that table alone ("pain" is
/// bread in French), one with no language with every table, and one in a language without a
/// table not at all. A message that asks for a list, a timer or a note by name (`DraftKeywords`)
/// gets no topic: drafting what was asked for ("a list of questions for my doctor") is the job.
/// The phrases name the thing (pain, a doctor, a loan, a lawyer), not everyday words that only
/// sometimes are ("court" is a tennis court, "Gericht" a dish, "avocat" an avocado): precision
/// comes before recall.
public enum ExpertTopic: String, Sendable, CaseIterable {
    case health, money, legal

    /// The topic of `message`, in `language` (a subtag; nil: unknown), or nil when it asks no expert.
    public static func of(_ message: String, language: String?) -> ExpertTopic? {
        guard DraftKeywords.kind(of: message) == Draft.none.kind else { return nil }
        return named(in: message, language: language)
    }

    /// The topic `message` names by the phrases alone, whatever kind it asks for: `of(_:language:)`
    /// for a message already known to name no kind (the draft job labels the kind first).
    public static func named(in message: String, language: String?) -> ExpertTopic? {
        let folded = PhraseTable.Folded(message)
        let code = language?.lowercased()
        return allCases.first { $0.phrases.contains(folded, language: code) }
    }

    /// The topic's phrases by language.
    public var phrases: PhraseTable {
        switch self {
        case .health: Self.healthPhrases
        case .money: Self.moneyPhrases
        case .legal: Self.legalPhrases
        }
    }

    static let healthPhrases = PhraseTable([
        "en": [
            "pain !au|aux|cave", "painful", "hurts", "hurting", "hurt my", "injur*", "sprain*", "fractur*", "swollen", "swelling",
            "bleeding", "blood pressure", "blood sugar", "blood test", "cholesterol", "diabet*", "insulin", "asthma",
            "inhaler", "symptom*", "doctor", "doctor's", "physician", "physio*", "medic*", "prescri*", "pill", "pills",
            "dose", "dosage", "ibuprofen", "paracetamol", "tylenol", "advil", "aspirin", "antibiotic*", "antidepressant*",
            "side effect*", "fever", "flu", "covid", "infection", "infected", "nause*", "vomit*", "throwing up", "dizzy",
            "dizziness", "fainted", "headache*", "migraine*", "palpitation*", "pregnan*", "allerg*", "rash", "sick !of",
            "feel ill", "feeling ill", "felt ill", "i'm ill", "insomnia", "depress*", "anxiety", "panic attack*",
            "suicid*", "self-harm", "eating disorder", "surgery", "hospital", "emergency room", "lump", "cancer",
            "tumor", "tumour", "thyroid", "cramp*", "sore", "cough*", "concussion",
        ],
        "fr": [
            "douleur*", "j'ai mal", "mal au", "mal à la", "mal aux", "fait mal", "blessure*", "blessé", "blessée",
            "entorse", "fracture", "médecin", "docteur", "médic*", "paracétamol", "ibuprofène", "doliprane", "aspirine", "ordonnance", "comprimé*", "pilule", "dose",
            "posologie", "fièvre", "grippe", "covid", "infection", "nausée*", "vomi*", "vertige*", "migraine*",
            "maux de tête", "enceinte", "grossesse", "allergi*", "symptôme*", "tension artérielle", "diabète",
            "insuline", "asthme", "malade", "hôpital", "urgences", "déprim*", "dépression", "anxiété", "crise d'angoisse",
            "insomnie", "courbatur*", "saign*", "cancer", "kiné*", "est-ce dangereux", "sans danger",
        ],
        "de": [
            "schmerz* !frei|los", "kopfschmerz* !frei", "rückenschmerz* !frei", "knieschmerz* !frei", "bauchschmerz*",
            "brustschmerz*", "halsschmerz*", "gelenkschmerz*", "tut weh", "wehtut", "weh tut", "verletz*", "zerrung", "verstaucht",
            "arzt", "ärztin", "doktor", "medikament*", "ibuprofen", "paracetamol", "aspirin", "tablette*", "pille", "dosis", "fieber", "grippe", "covid",
            "infektion", "entzündung", "übelkeit", "erbrech*", "schwindel*", "migräne", "schwanger*", "allergi*",
            "symptom*", "blutdruck", "blutzucker", "diabetes", "insulin", "asthma", "krank*", "depress*",
            "panikattacke*", "schlafstörung*", "muskelkater", "blutung*", "physio*", "krebs", "ist das gefährlich",
        ],
        "es": [
            "dolor*", "me duele*", "duele", "lesión", "lesionad*", "esguince", "fractura", "médico", "médica",
            "doctor*", "medicament*", "medicina", "ibuprofeno", "paracetamol", "aspirina", "pastilla*", "dosis", "fiebre", "gripe", "covid", "infección",
            "náusea*", "vómit*", "vomit*", "mareo*", "migraña", "embarazad*", "embarazo", "alergi*", "síntoma*",
            "presión arterial", "tensión alta", "diabetes", "insulina", "asma", "enferm*", "hospital", "urgencias",
            "depresi*", "ansiedad", "insomnio", "agujetas", "sangre", "sangrado", "sangrando", "cáncer", "fisio*", "es peligroso",
        ],
        "it": [
            "dolor*", "mi fa male", "fa male", "male al", "male alla", "male ai", "infortun*", "lesione", "distorsione",
            "frattura", "medico", "dottore", "farmac*", "ibuprofene", "paracetamolo", "tachipirina", "aspirina", "medicin*", "pastiglia", "pastiglie", "pillola", "dose",
            "febbre", "influenza", "covid", "infezione", "nausea", "vomit*", "vertigin*", "giramenti di testa",
            "emicrania", "mal di testa", "incinta", "gravidanza", "allergi*", "sintom*", "pressione alta",
            "pressione arteriosa", "diabete", "insulina", "asma", "malat*", "ospedale", "pronto soccorso", "depress*",
            "ansia", "insonnia", "sangue", "sanguin*", "cancro", "fisioterap*", "è pericoloso",
        ],
        "pt": [
            "dor", "dores", "dói", "doendo", "machuc*", "lesão", "lesionad*", "entorse", "fratura", "médico", "médica",
            "doutor*", "remédio*", "medicament*", "ibuprofeno", "paracetamol", "dipirona", "comprimido*", "pílula", "dose", "febre", "gripe", "covid",
            "infecção", "náusea*", "enjoo", "vômito*", "vomit*", "tontura", "enxaqueca", "dor de cabeça", "grávida",
            "gravidez", "alergi*", "sintoma*", "pressão alta", "pressão arterial", "diabetes", "insulina", "asma",
            "doente", "doença", "hospital", "pronto-socorro", "depress*", "ansiedade", "insônia", "sangue",
            "sangra*", "câncer", "fisioterap*", "é perigoso",
        ],
        "ja": [
            "痛い", "痛み", "痛む", "痛くて", "怪我", "けが", "ケガ", "捻挫", "骨折", "医者", "病院", "医師", "薬",
            "服用", "熱がある", "発熱", "熱っぽい", "風邪", "インフルエンザ", "コロナ", "感染", "吐き気", "めまい",
            "頭痛", "片頭痛", "偏頭痛", "妊娠", "アレルギー", "症状", "血圧", "糖尿病", "インスリン", "喘息",
            "病気", "うつ病", "鬱", "不眠", "出血", "癌", "筋肉痛", "危険ですか",
        ],
        "zh": [
            "疼", "痛", "受伤", "受傷", "医生", "醫生", "药", "藥", "发烧", "發燒", "头痛", "頭痛", "怀孕", "懷孕",
            "过敏", "過敏", "症状", "症狀", "血压", "血壓", "生病", "医院", "醫院",
        ],
    ])

    static let moneyPhrases = PhraseTable([
        "en": [
            "money", "invest*", "stocks", "stock market", "etf", "etfs", "crypto*", "bitcoin", "loan", "loans", "mortgage*",
            "debt", "debts", "credit card*", "credit score", "interest rate*", "savings", "save money", "retirement",
            "pension*", "401k", "401(k)", "roth ira", "tax", "taxes", "taxed", "irs", "salary", "paycheck",
            "insurance", "bank account*", "bankrupt*", "financ*", "dividend*", "portfolio", "inheritance",
        ],
        "fr": [
            "l'argent", "mon argent", "ton argent", "son argent", "notre argent", "investi*", "placement*", "bourse", "crypto*", "bitcoin", "prêt immobilier", "emprunt*", "crédit",
            "dette*", "hypothèque", "épargne", "ma retraite", "la retraite", "à la retraite", "impôt*", "salaire", "assurance*", "banque",
            "compte bancaire", "financ*", "héritage",
        ],
        "de": [
            "geld", "investier*", "aktie*", "krypto*", "bitcoin", "kredit*", "darlehen", "schulden", "hypothek*", "zinsen",
            "ersparnis*", "rente", "altersvorsorge", "steuer", "steuern", "steuererklärung", "gehalt",
            "versicherung*", "bankkonto", "girokonto", "finanz*", "erbschaft",
        ],
        "es": [
            "dinero", "invertir", "inversi*", "cripto*", "bitcoin", "préstamo*", "crédito", "deuda*", "hipoteca*",
            "ahorro*", "ahorrar", "jubilación", "pensión", "impuesto*", "salario", "sueldo", "seguro médico",
            "seguro de vida", "cuenta bancaria", "financ*", "herencia", "tarjeta de crédito",
        ],
        "it": [
            "soldi", "denaro", "investi*", "cripto*", "bitcoin", "prestito", "mutuo", "debito", "debiti", "risparmi*",
            "la mia pensione", "in pensione", "pensione integrativa", "tasse", "imposte", "stipendio", "assicurazion*", "banca", "conto corrente", "finanz*",
            "eredità", "carta di credito",
        ],
        "pt": [
            "dinheiro", "investi*", "cripto*", "bitcoin", "empréstimo*", "financiamento", "dívida*", "hipoteca",
            "poupança", "economizar", "aposentadoria", "previdência", "imposto*", "salário", "seguro de vida",
            "plano de saúde", "conta bancária", "financ*", "herança", "cartão de crédito",
        ],
        "ja": [
            "お金", "投資", "株式投資", "株価", "株を", "仮想通貨", "ビットコイン", "ローン", "借金", "貯金", "貯蓄", "年金", "税金",
            "確定申告", "給料", "保険", "銀行", "口座", "資産",
        ],
        "zh": [
            "钱", "錢", "投资", "投資", "股票", "贷款", "貸款", "债务", "債務", "存款", "养老金", "税", "稅", "保险", "保險",
        ],
    ])

    static let legalPhrases = PhraseTable([
        "en": [
            "lawyer*", "attorney*", "legal", "legally", "illegal*", "lawsuit*", "sue", "suing", "sued", "contract",
            "contracts", "in court", "to court", "court date", "court case", "court order", "custody", "divorc*",
            "visa", "immigration", "landlord", "tenant", "evict*", "copyright*", "liabil*", "liable", "police",
            "arrested", "my rights", "discriminat*", "harass*", "notary", "prenup", "trademark*",
        ],
        "fr": [
            "juriste", "légal", "légale", "légalement", "illégal*", "procès", "tribunal", "porter plainte", "plainte",
            "contrat", "divorce", "garde des enfants", "visa", "titre de séjour", "expulsion", "licenciement",
            "mes droits", "police", "amende", "notaire", "harcèlement",
        ],
        "de": [
            "anwalt", "anwältin", "rechtsanwalt", "rechtlich*", "legal", "illegal", "klage", "verklagen", "vor gericht",
            "vertrag*", "scheidung", "sorgerecht", "visum", "aufenthaltserlaubnis", "aufenthaltstitel", "vermieter",
            "kündigung", "polizei", "bußgeld", "meine rechte", "notar", "belästigung",
        ],
        "es": [
            "abogad*", "legal", "legalmente", "ilegal*", "demandar", "demanda", "tribunal", "contrato*",
            "divorcio", "custodia", "visado", "desahucio", "despido", "policía", "multa", "mis derechos", "notario",
            "acoso",
        ],
        "it": [
            "avvocat*", "legale", "legalmente", "illegale", "denuncia*", "tribunale", "contratto", "divorzio",
            "affidamento", "permesso di soggiorno", "sfratto", "licenziament*", "polizia", "multa", "i miei diritti",
            "notaio", "molestie",
        ],
        "pt": [
            "advogad*", "ilegal", "processar", "processo judicial", "tribunal", "contrato", "divórcio",
            "guarda dos filhos", "despejo", "demissão", "polícia", "multa", "meus direitos", "cartório", "assédio",
        ],
        "ja": [
            "弁護士", "法律", "違法", "合法", "訴え", "訴訟", "裁判", "契約", "離婚", "親権", "ビザ", "在留", "退去",
            "解雇", "警察", "罰金", "権利",
        ],
        "zh": [
            "律师", "律師", "法律", "违法", "違法", "起诉", "起訴", "法院", "合同", "离婚", "離婚", "签证", "簽證", "警察",
        ],
    ])
}
