// English content shared by en-US and en-GB; the two differ in their locale slots (currency, units, a few words).

extension Phrasebook {
    static let americanEnglish = Phrasebook(
        locale: "en-US",
        slots: [
            "cur": ["$"], "dist": ["mi"], "weight": ["lb"], "veg": ["spinach", "zucchini", "bell peppers", "carrots", "broccoli", "sweet potato", "green beans"],
            "day": weekdays, "bin": ["trash"], "vacation": ["vacation"],
        ],
        domains: englishDomains, weights: englishWeights,
        greetings: englishGreetings, handoffs: englishHandoffs, thanks: englishThanks,
        connectives: englishConnectives, questionMark: "?")

    static let britishEnglish = Phrasebook(
        locale: "en-GB",
        slots: [
            "cur": ["£"], "dist": ["km"], "weight": ["kg"], "veg": ["spinach", "courgette", "peppers", "carrots", "broccoli", "sweet potato", "leeks"],
            "day": weekdays, "bin": ["bin"], "vacation": ["holiday"],
        ],
        domains: englishDomains, weights: englishWeights,
        greetings: englishGreetings, handoffs: englishHandoffs, thanks: englishThanks,
        connectives: englishConnectives, questionMark: "?")

    private static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let englishWeights = [22, 18, 18, 16, 9, 7, 5, 5]

    private static let englishGreetings = [
        "Hi, I'm @AGENT. What would you like to start with?",
        "Hello! @AGENT here. What's on your mind this week?",
        "Good to meet you. Where shall we begin?",
        "Hi! Want to tell me a little about what you're aiming for?",
    ]
    private static let englishHandoffs = [
        "That's one for @NAME. Passing it over.",
        "@NAME knows this best, handing over now.",
        "Good question for @NAME. I've asked them to pick it up.",
        "Let me bring in @NAME for this one.",
    ]
    private static let englishThanks = [
        "Thanks!", "Great, thanks", "ok", "Got it", "Perfect", "Thank you so much", "Cool", "Will do",
        "Brilliant, cheers", "Thanks, that helps",
    ]
    private static let englishConnectives = [
        "None of this has to be perfect; the aim is a plan you can actually keep.",
        "If a week goes sideways, pick it up again the next day rather than starting over.",
        "Tell me what worked and what didn't, and I'll adjust the next part.",
        "Small changes that you repeat beat big changes that you abandon after a week.",
        "You can always ask me to shorten any of this if it feels like too much.",
        "Here is the longer version, with the reasoning behind each step.",
        "The details below are a starting point, so change anything that doesn't fit your days.",
        "It helps to look back at the end of each week and notice what made things easier.",
    ]

    static let englishDomains: [Domain] = [coach, sage, penny, chef, tutor, atlas, fern, juno]

    private static let coach = Domain(
        agent: "Coach", about: "Running, strength and rest days",
        groupAbouts: ["Running, strength and rest days", "training plans and runs", "my half marathon plan", "runs and gym stuff"],
        slots: [
            "run": ["long run", "tempo run", "easy 5k", "hill repeats", "interval session", "recovery jog", "parkrun", "track session"],
            "part": ["knee", "calf", "left ankle", "hamstring", "lower back", "hip", "right foot", "shin"],
            "lift": ["squats", "deadlifts", "lunges", "push-ups", "planks", "step-ups", "calf raises", "glute bridges"],
        ],
        asks: [
            "How did your {part} feel on the {run}?|Felt fine|Bit sore but fine|Quite sore tbh|Didn't notice it", "Do you want to swap {day}'s {run} for a rest day?|Yes, swap it|No, I'll run|Maybe a shorter one",
            "How many hours did you sleep before the {run}?|About 7 hours|Only 5|8, felt great", "Could you manage {3-5} sets of {lift} this week?|Yes, can do|Maybe 2 sets|Not this week",
            "What time of day suits you best for the {run}?|Morning works|Lunchtime|Evenings", "Was the pace comfortable, or did it feel like a push?|Comfortable|Bit of a push|Really hard",
            "Any twinges in your {part} since {day}?|No twinges|A little|Yes, it aches", "Shall we keep the same plan for next week?|Let's keep it|Make it easier|Bit harder please",
            "How are your legs today, on a scale of one to ten?|A solid 6|About 8|Heavy, a 3", "Did you get your stretches in after the {run}?|Yes, all done|Forgot, oops|Some of them",
            "Want me to add a second strength day?|Yes please|No, one is enough|Maybe next week", "How far do you want to be running by the end of the month?|10k|Half marathon|Just 5k comfortably",
        ],
        tells: [
            "Nice work on the {run}. That's {3-6} sessions this week.", "Let's keep {day} easy and save the effort for the weekend.",
            "Rest days are part of the plan, not a break from it.", "I've moved the {run} to {day} so you get two easy days first.",
            "Your pace has come down steadily over the last {2-5} weeks.", "Keep the {lift} light this week while your {part} settles.",
            "Great consistency. Small steady weeks add up.", "I'll check in after {day}'s session.",
            "That was your longest run so far, {8-16} {dist}.", "Tomorrow is a rest day, so enjoy it.",
        ],
        fillers: [
            "Start every run with five minutes of brisk walking or very easy jogging so your heart rate climbs slowly.",
            "The long run should feel conversational: if you can't say a full sentence, ease off until you can.",
            "Strength work twice a week protects your knees and hips more than any shoe ever will.",
            "After a hard session, give yourself at least one easy day before the next one.",
            "Hills build strength without the pounding of fast flat running, so treat them as speed work in disguise.",
            "Sleep and food do most of the repair work, so an early night counts as training too.",
            "If something hurts in a sharp or changing way, stop and walk home rather than pushing through.",
            "Cadence drills help: short quick steps under your hips rather than long reaching strides.",
            "Plan the week around your busiest days, not the other way round, and the plan will survive real life.",
            "A cut-back week every fourth week lets your body absorb the work you've already done.",
            "Keep {day}'s {run} relaxed for the first half and only pick up the pace if you feel good.",
            "Do {lift} slowly and with control; the lowering part of each rep does most of the work.",
        ],
        cards: ["This week's plan", "Your {run}", "Rest day checklist", "Form tip", "Warm-up routine", "Race week", "Strength day"],
        stats: [
            .init("Distance", "{2-21}.{0-9}", "{dist}"), .init("Pace", "{7-11}:{10-59}", "/{dist}"),
            .init("Weight", "-{0-3}.{1-9}", "{weight}"), .init("Runs this week", "{1-6}"),
            .init("Resting heart rate", "{48-72}", "bpm"), .init("Streak", "{2-40}", "days"), .init("Weight", "-{1-4}.{0-9} {weight}"),
        ],
        lists: [
            .init("Week {1-12} plan", ["Mon: rest", "Tue: easy {3-6} {dist}", "Wed: strength, {lift} and {lift}", "Thu: {run}",
                                       "Fri: rest or a gentle walk", "Sat: long run, {6-14} {dist}", "Sun: stretch and foam roll",
                                       "Week {1-16} {day}: {run}, {3-12} {dist}", "Week {1-16} {day}: {lift}, {3-4} sets of {8-15}"]),
            .init("Warm-up", ["Brisk walk, 5 minutes", "Leg swings, {10-15} each side", "Walking lunges", "High knees, 30 seconds",
                              "Butt kicks, 30 seconds", "Strides, {4-6} x 20 seconds", "Ankle circles"]),
            .init("Strength circuit", ["{10-20} {lift}", "{10-20} {lift}", "{30-60} second plank", "{8-12} single-leg deadlifts",
                                       "{12-20} calf raises", "Rest {1-2} minutes, then repeat", "{10-15} side lunges each way"]),
        ],
        choices: [
            .init("How do you feel today?", ["Fresh", "A bit tired", "Sore", "Wiped out"]),
            .init("Pick a day for the long run", ["Saturday", "Sunday"]),
            .init("What should we focus on?", ["Speed", "Distance", "Strength", "Rest"]),
            .init("How hard was it?", ["Easy", "Steady", "Hard", "All out"]),
        ],
        inputs: ["How far did you go?", "How hard did it feel?", "Minutes of running", "Log your run"],
        pictures: ["Route map of the {run}", "Heart rate chart for the week", "Stretch for the {part}", "Form check: foot strike"],
        personAsks: [
            "Can you make me a plan for a {5-21}k in {6-12} weeks?", "My {part} is a bit sore after the {run}, should I skip tomorrow?",
            "How fast should my easy runs be?", "I missed {day}'s session, what now?", "Is it okay to run two days in a row?",
            "What should I do on rest days?", "Can you add more {lift} to my week?",
            "I only have 30 minutes tomorrow, what's the best use of it?", "Done the {run}! Felt strong.",
            "How do I stop getting a stitch?", "Can we move the long run to {day}?", "What's a good warm-up before intervals?",
        ],
        personReplies: [
            "Felt good", "Bit sore but fine", "Yes please", "Let's keep it", "Maybe {day}?", "Not great tbh", "About 7 hours",
            "Morning works", "Swap it", "Legs feel heavy", "Yes, all done", "No twinges", "A solid 6", "Sounds good", "Bit of a push",
        ],
        offlineLists: ["make me a packing list for race day", "make a list of the stretches for after my run", "list what I need for the gym bag"],
        offlineTimers: ["set a {1-3} minute timer for plank rest", "set a 20 minute timer for the ice pack", "timer {10-30} minutes for my warm-up"],
        offlineNotes: ["note: ask about new shoes", "note: {part} felt tight on the {run}", "note: race number pickup on {day}"],
        expert: [
            "Is it normal for my {part} to click when I run?", "Should I take ibuprofen before the long run?",
            "What pace did you say for Saturday?", "Do I need to see a physio for my {part}?", "Is chest tightness on hills something to worry about?",
        ])

    private static let sage = Domain(
        agent: "Sage", about: "Sleep, wind-down and calm",
        groupAbouts: ["Sleep, wind-down and calm", "sleep and calm", "help me sleep better", "evenings and stress"],
        slots: [
            "time": ["10pm", "10:30pm", "11pm", "11:30pm"], "wake": ["6am", "6:30am", "7am", "7:30am"],
            "habit": ["screens in bed", "late coffee", "a big dinner", "doomscrolling", "a late workout", "checking email"],
            "practice": ["box breathing", "a body scan", "a short walk", "journaling", "a warm shower", "reading a paper book"],
            "bedtime": ["10:42pm", "11:15pm", "11:50pm", "10:05pm", "12:20am"],
        ],
        asks: [
            "What time did you get to bed last night?|Around 11|After midnight|10:30ish", "How many times did you wake up?|Twice, I think|Not once|Lost count", "Did you try {practice} before bed?|Yes, it helped|Not yet|Tried, didn't help",
            "What's keeping your mind busy at night?|Work stuff mostly|Money worries|Nothing really", "Would a {5-15} minute wind-down help this week?|Let's try it|Sounds doable|Maybe shorter",
            "How did you feel when you woke at {wake}?|Pretty groggy|Fine actually|Exhausted", "Could you keep {habit} out of the last hour before bed?|I'll try|Hard but ok|Probably not",
            "On a scale of one to five, how rested do you feel?|A 3 maybe|4|Barely a 2", "Shall we aim for lights out at {time}?|Yes, let's|Bit early for me|Sounds good",
            "What usually happens in the hour before you sleep?|Phone in bed|TV mostly|Reading",
        ],
        tells: [
            "Aim for lights out around {time} this week.", "Try {practice} for {3-10} minutes when you get into bed.",
            "A steady wake time matters more than a perfect bedtime.", "That's {2-5} nights in a row of seven hours or more. Well done.",
            "Let's drop {habit} after 8pm and see how the week goes.", "Bad nights happen. One doesn't undo the progress you've made.",
            "I've set your wind-down reminder for {time}.",
        ],
        fillers: [
            "Keep the bedroom cool, dark and quiet, and save the bed for sleep so your body learns what it's for.",
            "If you can't sleep after twenty minutes, get up, sit somewhere dim and come back when you feel drowsy.",
            "Caffeine stays in the body for hours, so an afternoon coffee can still be working at bedtime.",
            "Breathing out for longer than you breathe in tells your body it's safe to slow down.",
            "Morning light is one of the strongest signals for your body clock, even on a cloudy day.",
            "Write tomorrow's to-do list before bed so your mind doesn't try to hold it overnight.",
            "Naps are fine if they're short and early, ideally under twenty minutes and before 3pm.",
            "A wind-down routine works because it's repeated, not because any one step is magic.",
            "Try {practice} at the same time each evening so it becomes a cue that the day is over.",
        ],
        cards: ["Tonight's wind-down", "Box breathing", "Your sleep week", "Morning light", "A calmer evening"],
        stats: [
            .init("Sleep", "{5-8}.{0-9}", "h"), .init("Bedtime", "{bedtime}"), .init("Wake-ups", "{0-4}"),
            .init("Calm minutes", "{5-60}", "min"), .init("Nights over 7h", "{1-7}/7"),
        ],
        lists: [
            .init("Wind-down", ["Dim the lights at {time}", "Phone on the charger outside the bedroom", "Herbal tea, no caffeine",
                                "{practice} for 5 minutes", "Write down three things from today", "Lights out", "Stretch for {3-8} minutes"]),
            .init("Things to try this week", ["{practice}", "No {habit} after 9pm", "Same wake time, even at weekends",
                                              "Ten minutes of morning light", "A cooler bedroom", "Caffeine before noon only"]),
        ],
        choices: [
            .init("How did you sleep?", ["Great", "Okay", "Badly", "Barely"]),
            .init("Pick tonight's practice", ["Box breathing", "Body scan", "Reading", "Stretching"]),
        ],
        inputs: ["Hours slept", "How calm do you feel?", "What's on your mind?"],
        pictures: ["Breathing pattern: in 4, hold 4, out 4", "Your sleep this week", "A calm evening scene"],
        personAsks: [
            "I keep waking up at 3am, any ideas?", "How do I switch off after work?", "Is it bad to sleep in at weekends?",
            "Can you give me a wind-down routine?", "I feel wired at night, what helps?", "How long should a nap be?",
            "Slept badly again, {2-4} wake-ups.", "Can you help me feel calmer before meetings?", "Why am I so tired after 8 hours?",
        ],
        personReplies: [
            "Around 11", "Twice, I think", "Yes, it helped", "Not yet", "Work stuff mostly", "Let's try it", "Pretty groggy",
            "A 3 maybe", "I'll try", "Sounds doable", "Felt okay", "Lights out at {time}?",
        ],
        offlineLists: ["make me a wind-down list for tonight", "make a list of things keeping me awake"],
        offlineTimers: ["set a {5-15} minute timer for breathing", "set a 20 minute timer for my nap"],
        offlineNotes: ["note: no coffee after 2pm", "note: woke at 3am again"],
        expert: [
            "Should I take melatonin every night?", "Could my snoring be something serious?",
            "Is it safe to take sleeping pills with wine?", "What did you say my bedtime should be?",
        ])

    private static let penny = Domain(
        agent: "Penny", about: "Money, budgets and saving",
        groupAbouts: ["Money, budgets and saving", "money and budgets", "help me save for a trip", "bills and spending"],
        slots: [
            "thing": ["groceries", "eating out", "subscriptions", "transport", "coffee", "clothes", "gym classes", "takeaways"],
            "goal": ["the Lisbon trip", "the new laptop", "the emergency fund", "the house deposit", "the holidays", "the new bike"],
        ],
        asks: [
            "Do you want to set a limit for {thing} this month?|Yes please|Not this month|Maybe {cur}100?", "How much would you like to put aside each week?|{cur}50 a week|{cur}25|As much as I can",
            "Shall I move {cur}{20-150} into {goal} savings?|Yes, move it|Not yet|Half of it", "Which of these subscriptions do you still use?|Only the music one|All of them|None really",
            "When does your pay usually arrive?|Friday usually|End of the month|The 15th", "Was the {cur}{30-200} on {thing} planned?|Yes, planned|Not really|Oops, no",
            "Would a weekly check-in on Sunday work for you?|Sunday works|Monday is better|Yes please", "How close do you want to be to {goal} by the summer?|Halfway|All the way|By June ideally",
            "Do you want to round up purchases into savings?|Round to 5|Yes, to 1|No thanks",
        ],
        tells: [
            "You spent {cur}{40-300} on {thing} this month, a little under last month.", "You're {10-90}% of the way to {goal}.",
            "Paying yourself first works: move the savings on payday, then spend the rest.",
            "I've grouped your {thing} spending so it's easier to see.", "Small regular amounts beat big one-offs for most people.",
            "Nice, you stayed under your {thing} limit.", "{cur}{10-60} moved to {goal}.",
        ],
        fillers: [
            "A budget is a plan for your money, not a punishment, so leave room for things you enjoy.",
            "Start with the fixed costs like rent and bills, then decide what's left for everything else.",
            "An emergency fund of a few months of costs turns a surprise bill into an inconvenience.",
            "Subscriptions are easy to forget, so look through them every few months and cancel the quiet ones.",
            "Round numbers are easier to stick to, so set limits like {cur}200 rather than {cur}187.",
            "Separate pots for separate goals make it obvious when one is on track and another isn't.",
            "Check your spending once a week for five minutes rather than once a month for an hour.",
            "Big purchases feel easier when you wait a couple of days before buying.",
            "Spending on {thing} tends to creep up at weekends, so that's the place to watch.",
        ],
        cards: ["Your month so far", "Saving for {goal}", "Subscriptions", "Payday plan", "Weekly check-in"],
        stats: [
            .init("Spent this week", "{cur}{40-400}.{10-99}"), .init("Saved", "{cur}{100-2400}"), .init("Left for {thing}", "{cur}{5-120}"),
            .init("Goal progress", "{5-95}", "%"), .init("Subscriptions", "{3-11}"),
        ],
        lists: [
            .init("Subscriptions", ["Streaming {cur}{8-16}.99", "Music {cur}{9-11}.99", "Cloud storage {cur}{2-3}.99", "Gym {cur}{25-45}",
                                    "News app {cur}{5-9}.99", "Meal kit {cur}{40-60}", "Phone plan {cur}{15-40}"]),
            .init("This month's plan", ["Rent and bills first", "{cur}{50-200} to {goal}", "Groceries: {cur}{200-450}",
                                        "Eating out: {cur}{40-120}", "Transport: {cur}{40-150}", "Fun money: {cur}{30-100}",
                                        "Week {1-4}: check {thing} spending"]),
        ],
        choices: [
            .init("Pick a savings goal", ["Trip", "Laptop", "Emergency fund", "Something else"]),
            .init("How should I round up?", ["To the nearest 1", "To the nearest 5", "Don't round"]),
        ],
        inputs: ["Monthly limit", "How much to save each week?", "Add an expense"],
        pictures: ["Spending by category this month", "Savings progress bar", "Receipt"],
        personAsks: [
            "How much did I spend on {thing} last month?", "Can you help me save for {goal}?", "Am I on track this month?",
            "I want to cut back on {thing}, where do I start?", "Can we set up a budget for the {vacation}?",
            "Which subscriptions should I cancel?", "Got paid today!", "How do I stop impulse buying?",
            "Can you split the rent and bills with my flatmate?",
        ],
        personReplies: [
            "Yes, {cur}50 a week", "Let's do it", "Friday usually", "Only the music one", "Not really", "Sunday works",
            "Yes please", "Maybe {cur}25", "Skip it this month", "By June ideally", "Round to 5",
        ],
        offlineLists: ["make a list of bills due this week", "make me a shopping list under {cur}{30-60}"],
        offlineTimers: ["set a 10 minute timer for the weekly check-in"],
        offlineNotes: ["note: cancel the free trial on the {1-28}th", "note: ask Penny about {goal} savings"],
        expert: [
            "Should I move my savings into index funds?", "Is it better to pay off my credit card or save?",
            "Should I take the fixed rate mortgage?", "How much tax will I owe on my side job?", "Which pot did you put my bonus in?",
        ])

    private static let chef = Domain(
        agent: "Chef", about: "Meals, recipes and groceries",
        groupAbouts: ["Meals, recipes and groceries", "meals and groceries", "dinner ideas for the week", "cooking on a budget"],
        slots: [
            "dish": ["lentil soup", "chicken traybake", "mushroom risotto", "veggie chilli", "salmon with greens", "pasta bake",
                     "egg fried rice", "shakshuka", "chickpea curry"],
            "pantry": ["rice", "lentils", "tinned tomatoes", "pasta", "chickpeas", "oats", "coconut milk"],
            "meal": ["breakfast", "lunch", "dinner"],
        ],
        asks: [
            "Do you fancy {dish} tonight, or something quicker?|Something quicker|Sounds great|Not tonight", "How many people are you cooking for this week?|Just two of us|Just me|Four of us",
            "Have you got any {veg} left in the fridge?|Yes, half a bag|None left|A little", "Any ingredients you want me to avoid?|No mushrooms please|Nothing|No nuts",
            "Shall I add {pantry} to the shopping list?|Yes add it|Already have some|No thanks", "How long do you have for {meal} on weekdays?|About 30 minutes|15 minutes max|An hour",
            "Did the {dish} turn out okay?|It was great|Bit bland tbh|Burnt it, oops", "Would you like leftovers for {meal} tomorrow?|Leftovers please|No thanks|Yes, for two", "How spicy do you like it?|Mild please|Medium|Hot!",
        ],
        tells: [
            "Here's a {20-45} minute {dish} that uses up the {veg}.", "I've added {pantry} and {veg} to your list.",
            "Batch-cook the {dish} on Sunday and you're set until Wednesday.", "That's {3-6} meals planned for the week.",
            "Swap the cream for yoghurt if you want it lighter.", "Keep the {pantry} in, it's the base for half of these.",
        ],
        fillers: [
            "Chop everything before the pan goes on, because most quick dinners go wrong in the first five minutes.",
            "Season in layers: a little salt at each stage tastes better than a lot at the end.",
            "Cook a double batch of grains and keep half in the fridge for quick lunches.",
            "Frozen vegetables are picked and frozen fast, so they're often as good as fresh.",
            "A squeeze of lemon or a splash of vinegar at the end wakes up almost any dish.",
            "Plan meals that share ingredients so nothing sits in the fridge until it wilts.",
            "Let meat rest for a few minutes after cooking so the juices stay in.",
            "Write the shopping list by aisle and the trip takes half the time.",
            "The {dish} keeps for three days in the fridge and freezes well in single portions.",
        ],
        cards: ["Tonight: {dish}", "Shopping list", "Meal plan", "Leftovers idea", "Quick tip"],
        stats: [
            .init("Prep time", "{10-40}", "min"), .init("Serves", "{2-6}"), .init("Cook time", "{15-60}", "min"),
            .init("Per portion", "{cur}{1-4}.{10-99}"),
        ],
        lists: [
            .init("Shopping list", ["{veg}", "{pantry}", "Eggs", "Greek yoghurt", "Garlic", "Onions", "Lemons", "Parmesan",
                                    "Fresh basil", "Chicken thighs", "Salmon fillets", "Feta", "Bread", "Milk", "Butter", "Olive oil",
                                    "Frozen peas", "{2-6} bananas", "Extra {pantry}"]),
            .init("Method", ["Heat the oil in a wide pan", "Soften the onion for {5-8} minutes", "Add the garlic and spices",
                             "Stir in the {veg}", "Simmer for {10-25} minutes", "Season and serve", "Add the {pantry} and stir",
                             "Rest for {2-5} minutes before serving"]),
            .init("Meal plan", ["Mon: {dish}", "Tue: leftovers", "Wed: {dish}", "Thu: {dish}", "Fri: homemade pizza",
                                "Sat: out", "Sun: {dish}", "{day} {meal}: {dish}"]),
        ],
        choices: [
            .init("What sounds good tonight?", ["Something quick", "Something warming", "Something light"]),
            .init("How spicy?", ["Mild", "Medium", "Hot"]),
        ],
        inputs: ["Servings", "Ingredients you have", "Minutes you have"],
        pictures: ["Finished {dish}", "Ingredients laid out", "Step {1-5} of the {dish}"],
        personAsks: [
            "What can I make with {veg} and {pantry}?", "Can you plan my dinners for the week?", "I need a quick {meal} idea",
            "How do I make {dish}?", "Can I freeze the {dish}?", "What should I buy for the week?",
            "Made the {dish}, it was great!", "How long does cooked rice keep?",
        ],
        personReplies: [
            "Something quicker", "Just two of us", "Yes, half a bag", "No mushrooms please", "Yes add it", "About 30 minutes",
            "It was great", "Leftovers please", "Mild please", "Sounds tasty", "Bit bland tbh",
        ],
        offlineLists: ["make me a shopping list for {dish}", "make a list of what's in the freezer"],
        offlineTimers: ["set a {8-25} minute timer for the oven", "set a 12 minute timer for the pasta", "timer for {3-6} minutes, eggs"],
        offlineNotes: ["note: buy more {pantry}", "note: the {dish} needed more salt"],
        expert: [
            "Is it safe to eat chicken that's been out overnight?", "Can I eat soft cheese while pregnant?",
            "What was the sauce you suggested last week?", "How many calories should I eat to lose weight?",
        ])

    private static let tutor = Domain(
        agent: "Tutor", about: "Languages, vocabulary and practice",
        groupAbouts: ["Languages, vocabulary and practice", "my Spanish practice", "languages"],
        slots: [
            "lang": ["Spanish", "French", "Italian", "German", "Japanese", "Portuguese"],
            "topic": ["ordering food", "the past tense", "travel phrases", "numbers", "small talk", "directions", "the subjunctive"],
        ],
        asks: [
            "Ready for {5-10} new words on {topic}?|Ready!|Yes, go on|Review first", "How would you say \"I'd like a coffee\" in {lang}?|Quiero un café|Not sure|Un café, por favor",
            "Shall we review yesterday's words first?|Review first|Straight to new ones|Yes please", "Which felt harder today, listening or speaking?|Listening|Speaking, for sure|Both tbh",
            "Do you want to practise {topic} again tomorrow?|Yes tomorrow|Something else|Maybe", "How many minutes can you give {lang} each day?|About 10 minutes|20 minutes|5 on busy days",
            "Can you use \"quiero\" in a sentence?|Quiero un café|Quiero dormir|Not sure", "What would you like to be able to say by the end of the month?|Order food|Small talk|Ask directions",
        ],
        tells: [
            "That's a {3-30} day streak. Keep it going.", "Good, just watch the word order at the end.",
            "Today's set is all about {topic}.", "You got {6-10} out of 10. Nice improvement.",
            "Let's slow down and repeat the tricky ones.", "Little and often works best for new vocabulary.",
        ],
        fillers: [
            "Say new words out loud, because hearing your own voice helps them stick.",
            "Learn phrases, not just single words, so you can use them straight away in conversation.",
            "Review words just before you'd forget them: after a day, then three days, then a week.",
            "Mistakes are part of the process, and speaking early beats waiting until you feel ready.",
            "Label things around your home in the new language for a week and see how many you remember.",
            "Listening to short podcasts at normal speed trains your ear faster than slowed-down audio.",
            "When you practise {topic}, build one sentence about your own day with each new word.",
        ],
        cards: ["Today's words", "Grammar note: {topic}", "Your progress", "Phrase of the day"],
        stats: [.init("Streak", "{2-60}", "days"), .init("Words learned", "{20-600}"), .init("Score", "{5-10}/10"), .init("Practice today", "{5-30}", "min")],
        lists: [
            .init("Today's words", ["la cuenta: the bill", "el desayuno: breakfast", "la estación: the station", "a la derecha: on the right",
                                    "¿cuánto cuesta?: how much is it?", "el billete: the ticket", "la mesa: the table", "mañana: tomorrow",
                                    "el mercado: the market", "la llave: the key", "le petit-déjeuner: breakfast", "der Bahnhof: the station",
                                    "die Rechnung: the bill", "obrigado: thank you", "駅 (eki): station"]),
            .init("Practice plan", ["{5-10} minutes review", "{8-12} new words", "Read one short dialogue", "Record yourself speaking",
                                    "Week {1-8}: {topic}"]),
        ],
        choices: [
            .init("Which one means \"the bill\"?", ["la cuenta", "la cena", "la calle"]),
            .init("Pick today's topic", ["Food", "Travel", "Work", "Small talk"]),
        ],
        inputs: ["Type the translation", "Your sentence", "Minutes practised"],
        pictures: ["Flashcard: {topic}", "Verb table", "Street sign in {lang}"],
        personAsks: [
            "Can you quiz me on {topic}?", "How do I say \"where is the station\" in {lang}?", "I keep mixing up ser and estar",
            "Give me 10 words for {topic}", "Did 15 minutes of {lang} today", "What's the difference between por and para?",
            "Can we practise small talk?",
        ],
        personReplies: ["Yes, go on", "Quiero un café", "Listening", "Speaking, for sure", "Yes tomorrow", "About 10 minutes", "Review first", "Ready!", "Not sure"],
        offlineLists: ["make me a list of travel phrases", "list the verbs I keep forgetting"],
        offlineTimers: ["set a 15 minute timer for practice"],
        offlineNotes: ["note: look up the word for receipt"],
        expert: ["Which words did we do on Tuesday?", "What was my score last week?", "What did you say the past tense rule was?"])

    private static let atlas = Domain(
        agent: "Atlas", about: "Trips, packing and plans",
        groupAbouts: ["Trips, packing and plans", "travel planning", "our summer trip"],
        slots: [
            "city": ["Lisbon", "Kyoto", "Edinburgh", "Montreal", "Seville", "Oslo", "Porto", "Vienna"],
            "trip": ["weekend away", "work trip", "camping trip", "beach {vacation}", "city break"],
        ],
        asks: [
            "When are you heading to {city}?|Next Friday|In two weeks|Not booked yet", "Are you taking carry-on only?|Carry-on only|Checked bag|Not sure yet", "Do you want a day-by-day plan for {city}?|Yes please|Just the highlights|No thanks",
            "How early do you like to get to the airport?|Two hours early|Last minute|90 minutes", "Would you rather trains or a hire car?|Trains|Hire car|Whatever's cheaper",
            "Any must-sees in {city} already?|Not yet|The old town|Food markets", "Is this the {trip} or the family one?|The work one|Family one|Neither",
        ],
        tells: [
            "Here's a {2-5} day plan for {city}.", "I've added adapters and chargers to your packing list.",
            "Trains from the airport run every {10-20} minutes.", "Check-in opens {24-48} hours before the flight.",
            "Pack one outfit fewer than you think you need.",
        ],
        fillers: [
            "Roll clothes rather than folding them and you'll fit more in a small bag.",
            "Keep documents, chargers and medicine in your hand luggage in case a bag goes astray.",
            "Plan one fixed thing per day and leave the rest open for wandering.",
            "Book the first night's stay even if you improvise the rest.",
            "Download offline maps before you leave so you're not hunting for signal.",
            "Local markets are a cheap lunch and a good way to see a neighbourhood.",
            "In {city}, the old town is best early in the morning before the tour groups arrive.",
        ],
        cards: ["{city} in {2-4} days", "Packing list", "Getting there", "Before you go"],
        stats: [.init("Days to go", "{2-60}"), .init("Flight", "{6-21}:{10-55}"), .init("Bag weight", "{6-14}", "{weight}"), .init("Budget left", "{cur}{100-900}")],
        lists: [
            .init("Packing list", ["Passport", "Phone charger", "Adapter", "{2-5} T-shirts", "Rain jacket", "Walking shoes", "Toothbrush",
                                   "Sunglasses", "Swimsuit", "Book for the flight", "Earplugs", "Reusable water bottle", "Snacks"]),
            .init("Day {1-4}", ["Breakfast near the hotel", "Walk the old town", "Lunch at the market", "Museum in the afternoon",
                                "Sunset viewpoint", "Dinner somewhere local", "Day {1-5}: explore {city}"]),
        ],
        choices: [.init("Where to next?", ["Somewhere warm", "A city break", "The mountains"]), .init("Bag?", ["Carry-on", "Checked bag"])],
        inputs: ["Travel dates", "Budget", "Who's coming?"],
        pictures: ["Map of {city}", "Hotel street view", "Old town at sunset"],
        personAsks: [
            "Can you plan a weekend in {city}?", "What should I pack for a {trip}?", "How do I get from the airport to the centre?",
            "Is {city} nice in October?", "What's a good day trip from {city}?",
        ],
        personReplies: ["Next Friday", "Carry-on only", "Yes please", "Two hours early", "Trains", "Not yet", "The work one", "Sounds perfect"],
        offlineLists: ["make me a packing list for {city}", "make a list of things to do in {city}"],
        offlineTimers: ["set a 30 minute timer for check-in"],
        offlineNotes: ["note: passport expires in March"],
        expert: ["Do I need any vaccinations for the trip?", "Is my travel insurance enough?", "Which hotel did you recommend last time?"])

    private static let fern = Domain(
        agent: "Fern", about: "Houseplants and the garden",
        groupAbouts: ["Houseplants and the garden", "plants", "keeping my plants alive"],
        slots: ["plant": ["monstera", "fiddle-leaf fig", "basil", "snake plant", "tomato plant", "pothos", "peace lily", "rosemary"]],
        asks: [
            "How often are you watering the {plant}?|Every few days|Once a week|When I remember", "Is the {plant} near a window?|Yes, south facing|No, it's dark|Sort of", "Are the leaves yellow at the tips or all over?|Just the tips|All over|A couple of leaves",
            "Do you want a watering reminder for the {plant}?|Yes please|No thanks|Weekly", "Has the {plant} had any new growth?|A couple of leaves|Not really|Loads!",
            "Is the soil dry a couple of centimetres down?|Bone dry|Still damp|Not sure",
        ],
        tells: [
            "The {plant} likes bright light but not direct sun.", "Water the {plant} when the top of the soil is dry.",
            "It's a good week to repot: roots are growing fast.", "Yellow leaves often mean too much water, not too little.",
            "Your {plant} should perk up in a few days.",
        ],
        fillers: [
            "Most houseplants die from too much water, so check the soil with a finger before you reach for the can.",
            "Turn pots a quarter turn each week so plants grow evenly toward the light.",
            "Use a pot with a drainage hole, or the roots will sit in water and rot.",
            "Feed plants in spring and summer when they're growing and let them rest in winter.",
            "Dust on leaves blocks light, so wipe big leaves with a damp cloth now and then.",
            "Group plants together and they'll keep the air around them a little more humid.",
        ],
        cards: ["Caring for your {plant}", "Watering plan", "Repotting", "Pests"],
        stats: [.init("Last watered", "{2-9} days ago"), .init("Light", "bright, indirect"), .init("Plants", "{3-25}")],
        lists: [.init("This week", ["Water the {plant}", "Wipe the {plant}'s leaves", "Check the {plant} for pests", "Feed the tomatoes",
                                    "Turn the pots", "Repot the {plant}", "Mist the {plant}"])],
        choices: [.init("Where is it?", ["Sunny window", "Shady corner", "Bathroom", "Outside"])],
        inputs: ["Plant name", "Days since watering"],
        pictures: ["Your {plant}", "Leaf close-up", "Repotting step by step"],
        personAsks: [
            "Why are my {plant}'s leaves going yellow?", "How often should I water the {plant}?", "Can I put the {plant} outside?",
            "What's an easy plant for a dark room?", "There are little flies in my {plant} pot",
        ],
        personReplies: ["Every few days", "Yes, south facing", "Just the tips", "Yes please", "A couple of leaves", "Bone dry", "Not really"],
        offlineLists: ["make a watering list for the week"],
        offlineTimers: ["set a 10 minute timer for soaking the {plant}"],
        offlineNotes: ["note: buy compost"],
        expert: ["Is the {plant} poisonous to cats?", "Which feed did you say for the tomatoes?"])

    private static let juno = Domain(
        agent: "Juno", about: "Home, chores and routines",
        groupAbouts: ["Home, chores and routines", "chores", "keeping the flat tidy"],
        slots: [
            "chore": ["laundry", "the bathroom", "the kitchen floor", "taking out the {bin}", "vacuuming", "the fridge", "changing the sheets"],
            "room": ["kitchen", "bathroom", "hallway", "bedroom", "living room"],
        ],
        asks: [
            "Shall I split the chores across the week?|Sounds good|Yes please|Keep it weekly", "What day is {bin} collection?|Thursday|Monday|No idea", "Do you want {chore} on Saturday or Sunday?|Saturday|Sunday|Either",
            "How long can you give the {room} tonight?|20 minutes|An hour|Not tonight", "Who else is helping this week?|Just me|My flatmate|Everyone", "Is the {room} still the messiest?|Yes, still|Better now|Okay",
        ],
        tells: [
            "I've put {chore} on {day}.", "Ten minutes a day keeps the {room} under control.", "That's {3-8} jobs done this week.",
            "It's {bin} night tonight.", "Let's do the {room} in three short bursts.",
        ],
        fillers: [
            "Do the worst job first while you still have energy, then the rest feels easy.",
            "A basket in each room catches clutter so it doesn't spread.",
            "Set a short timer and stop when it rings, because starting is the hard part.",
            "Clean top to bottom so dust falls onto surfaces you haven't done yet.",
            "Shared chores work better with a written list everyone can see.",
        ],
        cards: ["This week's chores", "{room} reset", "Routine"],
        stats: [.init("Jobs done", "{1-12}"), .init("Time today", "{5-60}", "min"), .init("Next {bin} day", "{day}")],
        lists: [.init("Chores", ["{chore}", "Wipe the {room} counters", "Empty the dishwasher", "{chore}", "Put the {bin} out",
                                 "Hoover the {room}", "{day}: {chore}"])],
        choices: [.init("What first?", ["The worst job", "The quickest job", "Skip today"])],
        inputs: ["Minutes free", "Who's helping?"],
        pictures: ["Tidy {room}", "Chore chart"],
        personAsks: [
            "Can you make me a cleaning routine?", "I'm overwhelmed by the {room}, where do I start?",
            "Remind me which day is {bin} day", "Can we split chores with my flatmate?",
        ],
        personReplies: ["Thursday", "Saturday", "20 minutes", "Just me", "Yes, still", "Sounds good", "Okay"],
        offlineLists: ["make a cleaning list for the {room}"],
        offlineTimers: ["set a 15 minute timer for tidying"],
        offlineNotes: ["note: call the plumber about the {room} tap"],
        expert: ["Is it safe to mix bleach and vinegar?", "How much should I charge my flatmate for bills?"])
}
