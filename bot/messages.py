"""User-interface strings in every supported locale; adapters never hard-code text."""

from __future__ import annotations

from collections.abc import Mapping

from .channel_messages import CHANNEL_CATALOG
from .i18n import DEFAULT_LOCALE

CATALOG: Mapping[str, Mapping[str, str]] = {
    "question_heading": {
        "en": "Question {number} of {total} · {topic}",
        "hi": "प्रश्न {number} / {total} · {topic}",
        "bn": "প্রশ্ন {number} / {total} · {topic}",
    },
    "choose": {
        "en": "Pick an answer:",
        "hi": "एक उत्तर चुनें:",
        "bn": "একটি উত্তর বেছে নিন:",
    },
    "right": {"en": "✅ Right!", "hi": "✅ सही!", "bn": "✅ ঠিক!"},
    "wrong": {"en": "❌ Not quite.", "hi": "❌ सही नहीं।", "bn": "❌ ঠিক হয়নি।"},
    "your_answer": {
        "en": "Your answer: {letter}. {text}",
        "hi": "आपका उत्तर: {letter}. {text}",
        "bn": "আপনার উত্তর: {letter}. {text}",
    },
    "right_answer": {
        "en": "Right answer: {letter}. {text}",
        "hi": "सही उत्तर: {letter}. {text}",
        "bn": "সঠিক উত্তর: {letter}. {text}",
    },
    "points": {"en": "+{points} points", "hi": "+{points} अंक", "bn": "+{points} পয়েন্ট"},
    "practice": {
        "en": "Practice round: you have answered this question before, so it scores no points.",
        "hi": "अभ्यास: आप इस प्रश्न का उत्तर पहले दे चुके हैं, इसलिए इसके अंक नहीं मिलेंगे।",
        "bn": "অনুশীলন: আপনি এই প্রশ্নের উত্তর আগেই দিয়েছেন, তাই এতে পয়েন্ট নেই।",
    },
    "progress": {
        "en": "{done} of {total} answered · {points} points so far",
        "hi": "{total} में से {done} उत्तर दिए · अब तक {points} अंक",
        "bn": "{total}টির মধ্যে {done}টির উত্তর · এখন পর্যন্ত {points} পয়েন্ট",
    },
    "reference": {"en": "Read more", "hi": "और पढ़ें", "bn": "আরও পড়ুন"},
    "next_button": {"en": "Next question", "hi": "अगला प्रश्न", "bn": "পরের প্রশ্ন"},
    "summary_title": {
        "en": "Quiz complete · {topic}",
        "hi": "क्विज़ पूरा · {topic}",
        "bn": "কুইজ সম্পূর্ণ · {topic}",
    },
    "summary_score": {
        "en": "You got {correct} of {total} right and earned {points} of {max_points} points.",
        "hi": "आपने {total} में से {correct} सही किए और {max_points} में से {points} अंक पाए।",
        "bn": "আপনি {total}টির মধ্যে {correct}টি ঠিক করেছেন এবং {max_points}-এর মধ্যে {points} পয়েন্ট পেয়েছেন।",
    },
    "summary_rank": {
        "en": "You are #{rank} of {players} on the {topic} leaderboard.",
        "hi": "{topic} लीडरबोर्ड पर {players} में से आपका स्थान #{rank} है।",
        "bn": "{topic} লিডারবোর্ডে {players} জনের মধ্যে আপনার স্থান #{rank}।",
    },
    "summary_unranked": {
        "en": "No points on the {topic} leaderboard yet: try another topic!",
        "hi": "{topic} लीडरबोर्ड पर अभी कोई अंक नहीं: कोई और विषय आज़माएँ!",
        "bn": "{topic} লিডারবোর্ডে এখনও কোনো পয়েন্ট নেই: অন্য বিষয় চেষ্টা করুন!",
    },
    "not_yours": {
        "en": "This quiz belongs to someone else. Start your own with /quiz {topic}.",
        "hi": "यह क्विज़ किसी और का है। अपना क्विज़ /quiz {topic} से शुरू करें।",
        "bn": "এই কুইজটি অন্য কারও। নিজের কুইজ শুরু করুন /quiz {topic} দিয়ে।",
    },
    "already_answered": {
        "en": "You already answered this question; your first answer counts.",
        "hi": "आप इस प्रश्न का उत्तर दे चुके हैं; आपका पहला उत्तर ही गिना जाता है।",
        "bn": "আপনি এই প্রশ্নের উত্তর আগেই দিয়েছেন; প্রথম উত্তরটিই গণ্য হয়।",
    },
    "finished": {
        "en": "This quiz is already finished. Start a new one with /quiz {topic}.",
        "hi": "यह क्विज़ पूरा हो चुका है। नया क्विज़ /quiz {topic} से शुरू करें।",
        "bn": "এই কুইজটি শেষ হয়ে গেছে। নতুন কুইজ শুরু করুন /quiz {topic} দিয়ে।",
    },
    "invalid": {
        "en": "That button is no longer valid. Start a quiz with /quiz.",
        "hi": "यह बटन अब मान्य नहीं है। /quiz से क्विज़ शुरू करें।",
        "bn": "এই বোতামটি আর বৈধ নয়। /quiz দিয়ে কুইজ শুরু করুন।",
    },
    "unknown_topic": {
        "en": "I don't know the topic “{topic}”.",
        "hi": "मुझे “{topic}” विषय नहीं मिला।",
        "bn": "“{topic}” বিষয়টি আমি চিনি না।",
    },
    "did_you_mean": {
        "en": "Did you mean {title} (`{id}`)?",
        "hi": "क्या आपका मतलब {title} (`{id}`) था?",
        "bn": "আপনি কি {title} (`{id}`) বোঝাতে চেয়েছেন?",
    },
    "topics_title": {"en": "Quiz topics", "hi": "क्विज़ विषय", "bn": "কুইজের বিষয়"},
    "topic_line": {
        "en": "{questions} questions",
        "hi": "{questions} प्रश्न",
        "bn": "{questions}টি প্রশ্ন",
    },
    "usage": {
        "en": "Start a quiz with /quiz <topic>. Also: /quiz leaderboard [week|month|all] [topic], "
        "/quiz stats, /quiz lang en|hi|bn, /quiz topics.",
        "hi": "क्विज़ शुरू करें: /quiz <विषय>। और भी: /quiz leaderboard [week|month|all] [विषय], "
        "/quiz stats, /quiz lang en|hi|bn, /quiz topics।",
        "bn": "কুইজ শুরু করুন: /quiz <বিষয়>। আরও: /quiz leaderboard [week|month|all] [বিষয়], "
        "/quiz stats, /quiz lang en|hi|bn, /quiz topics।",
    },
    "terminal_usage": {
        "en": "Play with: quizbot play <topic> [--lang en|hi|bn] [--questions N]. Also: quizbot leaderboard [--bank <topic>].",
        "hi": "खेलें: quizbot play <विषय> [--lang en|hi|bn] [--questions N]। और भी: quizbot leaderboard [--bank <विषय>]।",
        "bn": "খেলুন: quizbot play <বিষয়> [--lang en|hi|bn] [--questions N]। আরও: quizbot leaderboard [--bank <বিষয়>]।",
    },
    "leaderboard_title": {
        "en": "Leaderboard · {period}",
        "hi": "लीडरबोर्ड · {period}",
        "bn": "লিডারবোর্ড · {period}",
    },
    "period_all": {"en": "all time", "hi": "सर्वकालिक", "bn": "সর্বকালের"},
    "period_week": {"en": "this week", "hi": "इस सप्ताह", "bn": "এই সপ্তাহ"},
    "period_month": {"en": "this month", "hi": "इस महीने", "bn": "এই মাস"},
    "leaderboard_row": {
        "en": "{points} pts · {correct}/{answered} right",
        "hi": "{points} अंक · {answered} में {correct} सही",
        "bn": "{points} পয়েন্ট · {answered}টির মধ্যে {correct}টি ঠিক",
    },
    "leaderboard_you": {
        "en": "You: #{rank} · {points} points",
        "hi": "आप: #{rank} · {points} अंक",
        "bn": "আপনি: #{rank} · {points} পয়েন্ট",
    },
    "leaderboard_you_none": {
        "en": "You have no points here yet.",
        "hi": "यहाँ अभी आपके कोई अंक नहीं हैं।",
        "bn": "এখানে এখনও আপনার কোনো পয়েন্ট নেই।",
    },
    "leaderboard_empty": {
        "en": "No points yet: be the first with /quiz <topic>!",
        "hi": "अभी कोई अंक नहीं: /quiz <विषय> से पहले बनें!",
        "bn": "এখনও কোনো পয়েন্ট নেই: /quiz <বিষয়> দিয়ে প্রথম হোন!",
    },
    "stats_title": {
        "en": "Your quiz stats",
        "hi": "आपके क्विज़ आँकड़े",
        "bn": "আপনার কুইজের পরিসংখ্যান",
    },
    "stats_row": {
        "en": "{correct}/{answered} right ({accuracy}%) · {points} points",
        "hi": "{answered} में {correct} सही ({accuracy}%) · {points} अंक",
        "bn": "{answered}টির মধ্যে {correct}টি ঠিক ({accuracy}%) · {points} পয়েন্ট",
    },
    "stats_empty": {
        "en": "No answers yet. Start with /quiz <topic>.",
        "hi": "अभी कोई उत्तर नहीं। /quiz <विषय> से शुरू करें।",
        "bn": "এখনও কোনো উত্তর নেই। /quiz <বিষয়> দিয়ে শুরু করুন।",
    },
    "lang_set": {
        "en": "Language set to English.",
        "hi": "भाषा हिन्दी पर सेट की गई।",
        "bn": "ভাষা বাংলা করা হয়েছে।",
    },
    "lang_unknown": {
        "en": "Unknown language “{tag}”. Choose one of: {choices}.",
        "hi": "अज्ञात भाषा “{tag}”। इनमें से चुनें: {choices}।",
        "bn": "অজানা ভাষা “{tag}”। এগুলোর মধ্যে বেছে নিন: {choices}।",
    },
    "try_again": {
        "en": "Sorry, something went wrong on our side. Please try again in a moment.",
        "hi": "क्षमा करें, हमारी ओर से कुछ गड़बड़ हुई। कृपया थोड़ी देर में फिर कोशिश करें।",
        "bn": "দুঃখিত, আমাদের দিক থেকে কিছু ভুল হয়েছে। একটু পরে আবার চেষ্টা করুন।",
    },
    # Discord: the help line and the slash commands' descriptions (at most 100 characters;
    # Discord shows them translated to Hindi clients, and has no Bengali client locale).
    "discord_usage": {
        "en": "Start a quiz with /quiz <topic>. Also: /quiz-leaderboard, /quiz-stats, /quiz-lang, /quiz-topics; in a channel: /quiz-daily, /quiz-race, /quiz-race-stop, /quiz-competition.",
        "hi": "क्विज़ शुरू करें: /quiz <विषय>। और भी: /quiz-leaderboard, /quiz-stats, /quiz-lang, /quiz-topics; चैनल में: /quiz-daily, /quiz-race, /quiz-race-stop, /quiz-competition।",
        "bn": "কুইজ শুরু করুন: /quiz <বিষয়>। আরও: /quiz-leaderboard, /quiz-stats, /quiz-lang, /quiz-topics; চ্যানেলে: /quiz-daily, /quiz-race, /quiz-race-stop, /quiz-competition।",
    },
    "cmd_quiz": {
        "en": "Start a quiz on a topic (only you see it)",
        "hi": "किसी विषय पर क्विज़ शुरू करें (केवल आपको दिखेगा)",
        "bn": "কোনো বিষয়ে কুইজ শুরু করুন (শুধু আপনি দেখবেন)",
    },
    "cmd_leaderboard": {
        "en": "Show this server's quiz leaderboard",
        "hi": "इस सर्वर का क्विज़ लीडरबोर्ड दिखाएँ",
        "bn": "এই সার্ভারের কুইজ লিডারবোর্ড দেখান",
    },
    "cmd_stats": {
        "en": "Your quiz stats on this server",
        "hi": "इस सर्वर पर आपके क्विज़ आँकड़े",
        "bn": "এই সার্ভারে আপনার কুইজের পরিসংখ্যান",
    },
    "cmd_lang": {
        "en": "Choose the language of your quizzes",
        "hi": "अपने क्विज़ की भाषा चुनें",
        "bn": "আপনার কুইজের ভাষা বেছে নিন",
    },
    "cmd_topics": {
        "en": "List the quiz topics",
        "hi": "क्विज़ विषयों की सूची देखें",
        "bn": "কুইজের বিষয়গুলোর তালিকা দেখুন",
    },
    "opt_topic": {
        "en": "Topic: an id, alias or title, e.g. offloading",
        "hi": "विषय: आईडी, उपनाम या शीर्षक, जैसे offloading",
        "bn": "বিষয়: আইডি, উপনাম বা শিরোনাম, যেমন offloading",
    },
    "opt_board_topic": {
        "en": "Only this topic (default: all topics)",
        "hi": "केवल यह विषय (डिफ़ॉल्ट: सभी विषय)",
        "bn": "শুধু এই বিষয় (ডিফল্ট: সব বিষয়)",
    },
    "opt_period": {
        "en": "Time period (default: all time)",
        "hi": "समय अवधि (डिफ़ॉल्ट: सर्वकालिक)",
        "bn": "সময়কাল (ডিফল্ট: সর্বকালের)",
    },
    "opt_language": {"en": "Language", "hi": "भाषा", "bn": "ভাষা"},
}


def t(locale: str, key: str, **values: object) -> str:
    """The UI string for a key in a locale (English when missing), filled with values."""
    entry = CATALOG.get(key) or CHANNEL_CATALOG[key]
    return (entry.get(locale) or entry[DEFAULT_LOCALE]).format(**values)
