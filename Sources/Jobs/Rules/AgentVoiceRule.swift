import Privacy

/// `NeverRule.chipsAgentVoice`: a chip that speaks as the agent, not as the person replying
/// (spec §8: "It suggests what the person might say… It never writes an agent's reply").
///
/// A chip is sent as the person's own message, so a chip that recommends ("I recommend resting
/// today"), praises ("Great job!"), hands over ("Here's your plan"), checks in ("Let me know how
/// it goes") or advises ("You should stretch") puts the agent's words in the person's mouth. The
/// person's own replies ("I'm tired", "Yes, let's do it", "What about tomorrow?", "What do you
/// recommend?") never match.
///
/// Phrases per language (`phrases`, in `PhraseTable`'s notation), every language's at once: a
/// model asked for German may still coach in English. Kept to what only a coach says; praise
/// and imperatives only at a sentence's start and not questioned ("Great job!" is the coach;
/// "Did I do a good job?" and "Good job? Not really" are the person), an obligation or a
/// reminder not when it asks the agent for something ("You must tell me when", "Don't forget
/// to send me the plan"), and words a person also says to an agent ("Let me know when it's ready",
/// "Muito bem, obrigado", "教えてください") are left out: precision comes before recall.
public enum AgentVoiceRule {
    /// Whether `chip` speaks as the agent.
    public static func speaksAsAgent(_ chip: String) -> Bool {
        phrases.contains(PhraseTable.Folded(chip))
    }

    /// Whether any of `chips` speaks as the agent.
    public static func breaks(_ chips: [SealedText]) -> Bool {
        chips.contains { $0.withUnsealedText(speaksAsAgent) }
    }

    /// Words after a reminder that make it the person's ask of the agent, not the agent's advice:
    /// "Don't forget to send me the plan", "No olvides que trabajo mañana".
    enum ToAgent {
        static let en = "send|remind|tell|give|call|text|email|book|message|share|add|update|check|let me|me"
        static let fr = "me|m'|nous|que"
        static let de = "mir|mich|uns|dass"
        static let es = "que|lo|la|los|las|el|mi|mis|tu|tus|eso|esto|cuando|a|de|enviarme|mandarme|avisarme|recordarme|decirme|me"
        static let it = "mandarmi|inviarmi|ricordarmi|dirmi|avvisarmi|mi|che"
        static let pt = "me|mandar|enviar|avisar|lembrar|que"
    }

    /// What only the agent says, by language.
    public static let phrases = PhraseTable([
        "en": [
            "^i recommend", "^i'd recommend", "^i would recommend", "my recommendation", "i suggest you", "i'd suggest you",
            "i advise you", "my advice", "^great job !?", "^good job !?", "^nice job !?", "^awesome job !?", "^great work !?",
            "^good work !?", "^nice work !?", "^well done !?", "^keep it up", "^keep up the", "^way to go", "proud of you",
            "you've got this", "^you got this", "you did great", "you're doing great", "you are doing great",
            "you're doing amazing", "you're crushing it", "here's your", "here is your", "here are your",
            "let me know how it", "let me know how you", "let me know if you need", "let me know if you have",
            "let me know if anything", "keep me posted", "you should !see|know|have seen", "you shouldn't", "^you need to",
            "you might want to", "you may want to", "you'll want to", "^make sure to !\(ToAgent.en)", "^make sure you !\(ToAgent.en)",
            "^remember to !\(ToAgent.en)", "^don't forget to !\(ToAgent.en)", "^be sure to !\(ToAgent.en)", "how are you feeling", "how did your", "how was your workout",
            "how was your run", "how was your sleep", "feel free to", "don't hesitate to", "i'm here to help",
            "i'm here for you", "happy to help", "glad i could help", "how can i help", "can i help you with",
            "anything else i can help", "i've updated your", "i have updated your", "i'll update your", "i've adjusted your",
            "i'll adjust your", "i've added to your", "i've created your", "i've prepared your", "i'll remind you",
            "as your coach", "i'll check in with you",
        ],
        "fr": [
            "je te recommande", "je vous recommande", "je te conseille", "je vous conseille", "je te suggère",
            "je vous suggère", "mon conseil", "^bravo !?", "^bien joué !?", "^beau travail", "^bon travail", "^super travail",
            "^excellent travail", "^continue comme ça", "^continuez comme ça", "^continue ainsi", "fier de toi",
            "fière de toi", "fier de vous", "voici ton", "voici ta", "voici tes", "voici votre", "voici vos",
            "tiens-moi au courant", "tenez-moi au courant", "dis-moi comment ça", "dites-moi comment ça",
            "tu devrais", "vous devriez", "^tu dois !\(ToAgent.fr)", "^vous devez !\(ToAgent.fr)", "^n'oublie pas de !\(ToAgent.fr)", "^n'oubliez pas de !\(ToAgent.fr)",
            "^pense à bien", "^pensez à bien", "^assure-toi de", "^assurez-vous de", "comment te sens-tu",
            "comment vous sentez-vous", "comment tu te sens", "n'hésite pas à", "n'hésitez pas à",
            "je suis là pour t'aider", "je suis là pour vous aider", "^tu peux le faire", "en tant que ton coach",
            "j'ai mis à jour ton", "j'ai mis à jour votre", "j'ai ajusté ton", "j'ai adapté ton",
        ],
        "de": [
            "ich empfehle", "ich würde dir empfehlen", "ich würde ihnen empfehlen", "ich rate dir", "ich rate ihnen",
            "mein rat", "mein tipp", "^gut gemacht !?", "^super gemacht", "^toll gemacht", "^klasse gemacht",
            "^sehr gut gemacht", "^weiter so", "^mach weiter so", "^machen sie weiter so", "stolz auf dich",
            "stolz auf sie", "hier ist dein", "hier ist deine", "hier ist ihr", "hier sind deine", "hier sind ihre",
            "sag mir, wie es", "sag mir wie es", "sag bescheid, wie es", "sag bescheid wie es", "lass mich wissen, wie",
            "lass mich wissen wie", "halte mich auf dem laufenden", "du solltest", "sie sollten", "^du musst !\(ToAgent.de)",
            "^sie müssen !\(ToAgent.de)", "^vergiss nicht !\(ToAgent.de)", "^vergessen sie nicht !\(ToAgent.de)", "^denk daran !\(ToAgent.de)",
            "^denke daran !\(ToAgent.de)", "^denken sie daran !\(ToAgent.de)", "^achte darauf", "^achten sie darauf", "wie fühlst du dich", "wie fühlen sie sich",
            "^du schaffst das", "^sie schaffen das", "ich helfe dir gern", "ich bin für dich da",
            "melde dich gerne", "zögere nicht", "ich habe deinen plan", "ich habe deinen trainingsplan",
            "als dein coach",
        ],
        "es": [
            "te recomiendo", "le recomiendo", "les recomiendo", "te sugiero", "le sugiero", "te aconsejo",
            "le aconsejo", "mi consejo", "^buen trabajo !?", "^gran trabajo", "^excelente trabajo", "^bien hecho !?",
            "^muy bien hecho", "^sigue así", "^siga así", "orgulloso de ti", "orgullosa de ti", "aquí está tu",
            "aquí tienes tu", "aquí tienes el plan", "aquí están tus", "aquí tienes tus", "avísame cómo",
            "cuéntame cómo te", "cuéntame qué tal te", "deberías", "^debes !\(ToAgent.es)", "^tienes que !\(ToAgent.es)", "^no olvides !\(ToAgent.es)",
            "^recuerda !\(ToAgent.es)", "^asegúrate de", "^procura", "cómo te sientes", "¡tú puedes",
            "estoy aquí para ayudarte", "no dudes en", "he actualizado tu", "he ajustado tu", "como tu entrenador",
            "como tu coach",
        ],
        "it": [
            "ti consiglio", "le consiglio", "ti raccomando", "ti suggerisco", "le suggerisco", "il mio consiglio",
            "^ottimo lavoro !?", "^bel lavoro", "^gran lavoro", "^ben fatto !?", "^bravo !?", "^brava", "^bravissimo",
            "^bravissima", "^continua così", "^continua cosi", "fiero di te", "fiera di te", "ecco il tuo",
            "ecco la tua", "ecco i tuoi", "ecco le tue", "fammi sapere come", "tienimi aggiornato",
            "tienimi aggiornata", "dovresti", "^non dimenticare !\(ToAgent.it)", "^ricordati di !\(ToAgent.it)",
            "^ricorda di !\(ToAgent.it)",
            "^assicurati di", "come ti senti", "ce la puoi fare", "sono qui per aiutarti", "non esitare a",
            "ho aggiornato il tuo", "ho aggiornato la tua", "come tuo coach",
        ],
        "pt": [
            "eu recomendo que", "te recomendo", "recomendo que você", "sugiro que você", "te aconselho",
            "meu conselho", "^bom trabalho !?", "^ótimo trabalho", "^excelente trabalho", "^parabéns !?", "^continue assim",
            "^continua assim", "orgulhoso de você", "orgulhosa de você", "orgulho de você", "aqui está o seu",
            "aqui está a sua", "aqui está seu", "aqui está sua", "aqui estão os seus", "aqui estão suas",
            "aqui está o teu", "aqui está a tua", "me conta como foi", "me avise como", "me diga como foi",
            "você deveria", "^deverias", "^não se esqueça de !\(ToAgent.pt)", "^não esqueça de !\(ToAgent.pt)",
            "^não te esqueças de !\(ToAgent.pt)", "^lembre-se de !\(ToAgent.pt)", "^lembra-te de !\(ToAgent.pt)", "^certifique-se de", "como você está se sentindo",
            "como você se sente", "^você consegue", "estou aqui para te ajudar", "estou aqui para ajudar",
            "não hesite em", "atualizei o seu", "atualizei seu", "ajustei o seu", "como seu coach",
        ],
        "ja": [
            "おすすめします !か", "お勧めします !か", "オススメします !か", "勧めます !か", "よく頑張りました",
            "よくがんばりました", "頑張りましたね", "がんばりましたね", "よくできました", "その調子です",
            "こちらがあなたの", "こちらが今日の", "あなたのプランです", "どうだったか教えて", "様子を教えて",
            "方がいいですよ", "ほうがいいですよ", "べきです !か", "頑張ってください", "がんばってください",
            "頑張ってね", "がんばってね", "忘れないでください", "忘れないでね", "無理しないでください",
            "無理しないでね", "いつでも聞いてください", "お手伝いします !か", "サポートします !か", "応援しています",
            "気分はどうですか", "調子はどうですか", "コーチとして",
        ],
        "nl": [
            "ik raad je aan", "ik raad u aan", "ik adviseer", "mijn advies", "^goed gedaan", "^lekker bezig",
            "^ga zo door", "trots op je", "hier is je", "hier is jouw", "hier is uw", "laat me weten hoe",
            "je zou moeten", "^vergeet niet", "^denk eraan", "hoe voel je je",
        ],
        "sv": [
            "jag rekommenderar", "mitt råd", "^bra jobbat", "^snyggt jobbat", "^fortsätt så", "stolt över dig",
            "här är din", "här är ditt", "här är dina", "låt mig veta hur", "du borde", "du bör", "^glöm inte",
            "^kom ihåg att", "hur mår du idag",
        ],
        "da": [
            "jeg anbefaler", "mit råd", "^godt gået", "^flot klaret", "^godt arbejde", "^bliv ved sådan",
            "stolt af dig", "her er din", "her er dit", "her er dine", "lad mig vide hvordan", "du bør",
            "^du skal huske", "^glem ikke", "^husk at", "hvordan har du det i dag",
        ],
        "nb": [
            "jeg anbefaler", "mitt råd", "^godt jobbet", "^bra jobbet", "^fortsett sånn", "stolt av deg",
            "her er din", "her er ditt", "her er dine", "la meg vite hvordan", "du bør", "^ikke glem",
            "^husk å", "hvordan har du det i dag",
        ],
        "zh": [
            "我建议你", "我推荐你", "建议你", "你应该", "做得好", "干得好", "幹得好", "继续保持", "繼續保持",
            "为你骄傲", "這是你的", "这是你的", "告诉我进展",
        ],
        "ko": [
            "추천합니다", "추천드립니다", "권장합니다", "잘하셨어요", "잘했어요", "계속 이렇게",
            "자랑스러워요", "여기 당신의", "어떻게 됐는지 알려", "하셔야 합니다", "하는 게 좋아요", "잊지 마세요",
        ],
        "tr": [
            "tavsiye ederim", "öneririm", "^aferin", "^harika iş", "^böyle devam", "seninle gurur", "işte planın",
            "nasıl geçtiğini söyle", "yapmalısın", "kendini nasıl hissediyorsun",
        ],
        "vi": [
            "tôi khuyên bạn", "tôi đề nghị bạn", "^làm tốt lắm", "^giỏi lắm", "^cứ tiếp tục", "tự hào về bạn",
            "đây là kế hoạch của bạn", "bạn nên", "^hãy nhớ", "bạn cảm thấy thế nào",
        ],
    ])
}
