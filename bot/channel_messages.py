"""User-interface strings for channel play (daily question, race, competitions), in
every supported locale. Merged into ``bot.messages.CATALOG``."""

from __future__ import annotations

from collections.abc import Mapping

CHANNEL_CATALOG: Mapping[str, Mapping[str, str]] = {
    "admin_only": {
        "en": "Only an admin can do that.",
        "hi": "यह केवल एडमिन कर सकते हैं।",
        "bn": "এটি কেবল অ্যাডমিন করতে পারেন।",
    },
    "race_closes": {
        "en": "Closes {when}.",
        "hi": "{when} बंद होगा।",
        "bn": "{when} বন্ধ হবে।",
    },
    "period_competition": {"en": "competition", "hi": "प्रतियोगिता", "bn": "প্রতিযোগিতা"},
    # Discord: channel-play commands and their options (descriptions at most 100 characters).
    "discord_dm_no_channel_play": {
        "en": "Daily questions, races and competitions happen in a server channel: use this command there.",
        "hi": "दैनिक प्रश्न, रेस और प्रतियोगिताएँ सर्वर के चैनल में होती हैं: यह कमांड वहीं चलाएँ।",
        "bn": "দৈনিক প্রশ্ন, রেস ও প্রতিযোগিতা সার্ভারের চ্যানেলে হয়: এই কমান্ডটি সেখানে চালান।",
    },
    "discord_cannot_post": {
        "en": "I can't post in this channel: give me View Channel, Send Messages and Embed Links here, then try again.",
        "hi": "मैं इस चैनल में पोस्ट नहीं कर सकता: यहाँ मुझे View Channel, Send Messages और Embed Links दें, फिर दोबारा कोशिश करें।",
        "bn": "আমি এই চ্যানেলে পোস্ট করতে পারছি না: এখানে আমাকে View Channel, Send Messages ও Embed Links দিন, তারপর আবার চেষ্টা করুন।",
    },
    "cmd_daily": {
        "en": "The daily question in this channel: on, off (admins) or status",
        "hi": "इस चैनल का दैनिक प्रश्न: चालू, बंद (एडमिन) या स्थिति",
        "bn": "এই চ্যানেলের দৈনিক প্রশ্ন: চালু, বন্ধ (অ্যাডমিন) বা অবস্থা",
    },
    "cmd_race": {
        "en": "Start a live race in this channel: everyone answers the same questions",
        "hi": "इस चैनल में लाइव रेस शुरू करें: सब एक ही प्रश्नों के उत्तर देते हैं",
        "bn": "এই চ্যানেলে লাইভ রেস শুরু করুন: সবাই একই প্রশ্নের উত্তর দেয়",
    },
    "cmd_race_stop": {
        "en": "Stop the race in this channel (whoever started it, or an admin)",
        "hi": "इस चैनल की रेस रोकें (शुरू करने वाला या एडमिन)",
        "bn": "এই চ্যানেলের রেস থামান (যিনি শুরু করেছেন বা অ্যাডমিন)",
    },
    "cmd_competition": {
        "en": "Competitions: start or end one (admins), or show the standings",
        "hi": "प्रतियोगिताएँ: शुरू या समाप्त करें (एडमिन), या स्थिति देखें",
        "bn": "প্রতিযোগিতা: শুরু বা শেষ করুন (অ্যাডমিন), অথবা অবস্থান দেখুন",
    },
    "opt_daily_action": {
        "en": "on, off or status",
        "hi": "चालू, बंद या स्थिति",
        "bn": "চালু, বন্ধ বা অবস্থা",
    },
    "opt_topics": {
        "en": "Topics separated by commas, e.g. offloading,mixed-precision",
        "hi": "अल्पविराम से अलग विषय, जैसे offloading,mixed-precision",
        "bn": "কমা দিয়ে আলাদা বিষয়, যেমন offloading,mixed-precision",
    },
    "opt_time": {
        "en": "Time of day, HH:MM, e.g. 09:30",
        "hi": "दिन का समय, HH:MM, जैसे 09:30",
        "bn": "দিনের সময়, HH:MM, যেমন 09:30",
    },
    "opt_timezone": {
        "en": "Timezone, e.g. Europe/Berlin or Asia/Kolkata",
        "hi": "टाइमज़ोन, जैसे Asia/Kolkata या Europe/Berlin",
        "bn": "টাইমজোন, যেমন Asia/Dhaka বা Europe/Berlin",
    },
    "opt_reveal_hours": {
        "en": "Hours from the question to its results, e.g. 8",
        "hi": "प्रश्न से परिणाम तक कितने घंटे, जैसे 8",
        "bn": "প্রশ্ন থেকে ফলাফল পর্যন্ত কত ঘণ্টা, যেমন 8",
    },
    "opt_race_questions": {
        "en": "How many questions",
        "hi": "कितने प्रश्न",
        "bn": "কতটি প্রশ্ন",
    },
    "opt_race_seconds": {
        "en": "Seconds to answer each question",
        "hi": "हर प्रश्न के उत्तर के लिए सेकंड",
        "bn": "প্রতিটি প্রশ্নের উত্তরের জন্য সেকেন্ড",
    },
    "opt_competition_action": {
        "en": "start, end or standings",
        "hi": "शुरू, समाप्त या स्थिति",
        "bn": "শুরু, শেষ বা অবস্থান",
    },
    "opt_competition_name": {
        "en": "The competition's name (to start one)",
        "hi": "प्रतियोगिता का नाम (शुरू करने के लिए)",
        "bn": "প্রতিযোগিতার নাম (শুরু করতে)",
    },
    "opt_until": {
        "en": "Its last day, YYYY-MM-DD, UTC (to start one)",
        "hi": "अंतिम दिन, YYYY-MM-DD, UTC (शुरू करने के लिए)",
        "bn": "শেষ দিন, YYYY-MM-DD, UTC (শুরু করতে)",
    },
    "opt_competition_topics": {
        "en": "Only these topics, separated by commas (default: all)",
        "hi": "केवल ये विषय, अल्पविराम से अलग (डिफ़ॉल्ट: सभी)",
        "bn": "শুধু এই বিষয়গুলো, কমা দিয়ে আলাদা (ডিফল্ট: সব)",
    },
    "action_on": {"en": "on", "hi": "चालू", "bn": "চালু"},
    "action_off": {"en": "off", "hi": "बंद", "bn": "বন্ধ"},
    "action_status": {"en": "status", "hi": "स्थिति", "bn": "অবস্থা"},
    "action_start": {"en": "start", "hi": "शुरू", "bn": "শুরু"},
    "action_end": {"en": "end", "hi": "समाप्त", "bn": "শেষ"},
    "action_standings": {"en": "standings", "hi": "स्थिति", "bn": "অবস্থান"},
    "daily_heading": {
        "en": "☀️ Daily question · {topic} · {day}",
        "hi": "☀️ आज का प्रश्न · {topic} · {day}",
        "bn": "☀️ আজকের প্রশ্ন · {topic} · {day}",
    },
    "daily_count": {
        "en": "{count} answered so far. Answers are private; results at {reveal}.",
        "hi": "अब तक {count} ने उत्तर दिया। उत्तर निजी हैं; परिणाम {reveal} पर।",
        "bn": "এখন পর্যন্ত {count} জন উত্তর দিয়েছেন। উত্তর গোপন; ফলাফল {reveal}-এ।",
    },
    "daily_reveal_heading": {
        "en": "📊 Daily question results · {topic} · {day}",
        "hi": "📊 आज के प्रश्न का परिणाम · {topic} · {day}",
        "bn": "📊 আজকের প্রশ্নের ফলাফল · {topic} · {day}",
    },
    "answered_total": {
        "en": "{count} answered.",
        "hi": "{count} ने उत्तर दिया।",
        "bn": "{count} জন উত্তর দিয়েছেন।",
    },
    "winners": {
        "en": "Got it right: {names}",
        "hi": "सही उत्तर देने वाले: {names}",
        "bn": "সঠিক উত্তর দিয়েছেন: {names}",
    },
    "no_winners": {
        "en": "Nobody got it right this time.",
        "hi": "इस बार किसी ने सही उत्तर नहीं दिया।",
        "bn": "এবার কেউ সঠিক উত্তর দেননি।",
    },
    "daily_streak": {
        "en": "Daily streak: {streak} day(s).",
        "hi": "लगातार दिन: {streak}।",
        "bn": "টানা দিন: {streak}।",
    },
    "daily_already": {
        "en": "You already answered today's question (your answer: {letter}). Results come later.",
        "hi": "आप आज के प्रश्न का उत्तर दे चुके हैं (आपका उत्तर: {letter})। परिणाम बाद में आएँगे।",
        "bn": "আপনি আজকের প্রশ্নের উত্তর দিয়েছেন (আপনার উত্তর: {letter})। ফলাফল পরে আসবে।",
    },
    "daily_closed": {
        "en": "This daily question is closed: the results are in the channel.",
        "hi": "यह प्रश्न बंद हो चुका है: परिणाम चैनल में हैं।",
        "bn": "এই প্রশ্নটি বন্ধ হয়ে গেছে: ফলাফল চ্যানেলে আছে।",
    },
    "daily_on": {
        "en": "Daily question on: {topics}, every day at {time} ({timezone}); results {delay} later.",
        "hi": "दैनिक प्रश्न चालू: {topics}, हर दिन {time} ({timezone}) पर; परिणाम {delay} बाद।",
        "bn": "দৈনিক প্রশ্ন চালু: {topics}, প্রতিদিন {time} ({timezone})-এ; ফলাফল {delay} পরে।",
    },
    "daily_next": {
        "en": "Next question: {when}.",
        "hi": "अगला प्रश्न: {when}।",
        "bn": "পরের প্রশ্ন: {when}।",
    },
    "daily_off": {
        "en": "Daily question turned off in this channel.",
        "hi": "इस चैनल में दैनिक प्रश्न बंद कर दिया गया।",
        "bn": "এই চ্যানেলে দৈনিক প্রশ্ন বন্ধ করা হয়েছে।",
    },
    "daily_none": {
        "en": "There is no daily question in this channel.",
        "hi": "इस चैनल में कोई दैनिक प्रश्न नहीं है।",
        "bn": "এই চ্যানেলে কোনো দৈনিক প্রশ্ন নেই।",
    },
    "daily_usage": {
        "en": "Usage: /quiz daily on <topic,topic> <HH:MM> <timezone, e.g. Europe/Berlin> [reveal-hours] | off | status",
        "hi": "उपयोग: /quiz daily on <विषय,विषय> <HH:MM> <टाइमज़ोन, जैसे Asia/Kolkata> [reveal-hours] | off | status",
        "bn": "ব্যবহার: /quiz daily on <বিষয়,বিষয়> <HH:MM> <টাইমজোন, যেমন Asia/Dhaka> [reveal-hours] | off | status",
    },
    "discord_daily_usage": {
        "en": "Usage: /quiz-daily action:on topics:<topic,topic> time:<HH:MM> timezone:<e.g. Europe/Berlin> [reveal_hours], or action:off / action:status",
        "hi": "उपयोग: /quiz-daily action:on topics:<विषय,विषय> time:<HH:MM> timezone:<जैसे Asia/Kolkata> [reveal_hours], या action:off / action:status",
        "bn": "ব্যবহার: /quiz-daily action:on topics:<বিষয়,বিষয়> time:<HH:MM> timezone:<যেমন Asia/Dhaka> [reveal_hours], অথবা action:off / action:status",
    },
    "discord_race_usage": {
        "en": "Usage: /quiz-race topic:<topic> [questions] [seconds]; /quiz-race-stop",
        "hi": "उपयोग: /quiz-race topic:<विषय> [questions] [seconds]; /quiz-race-stop",
        "bn": "ব্যবহার: /quiz-race topic:<বিষয়> [questions] [seconds]; /quiz-race-stop",
    },
    "discord_competition_usage": {
        "en": "Usage: /quiz-competition action:start name:<name> until:<YYYY-MM-DD> [topics:a,b], or action:end / action:standings",
        "hi": "उपयोग: /quiz-competition action:start name:<नाम> until:<YYYY-MM-DD> [topics:a,b], या action:end / action:standings",
        "bn": "ব্যবহার: /quiz-competition action:start name:<নাম> until:<YYYY-MM-DD> [topics:a,b], অথবা action:end / action:standings",
    },
    "bad_time": {
        "en": "“{value}” is not a time of day like 09:30.",
        "hi": "“{value}” 09:30 जैसा समय नहीं है।",
        "bn": "“{value}” 09:30-এর মতো সময় নয়।",
    },
    "bad_timezone": {
        "en": "“{value}” is not a timezone like Europe/Berlin or Asia/Kolkata.",
        "hi": "“{value}” Europe/Berlin या Asia/Kolkata जैसा टाइमज़ोन नहीं है।",
        "bn": "“{value}” Europe/Berlin বা Asia/Dhaka-র মতো টাইমজোন নয়।",
    },
    "bad_topics": {
        "en": "Unknown topic(s): {topics}.",
        "hi": "अज्ञात विषय: {topics}।",
        "bn": "অজানা বিষয়: {topics}।",
    },
    "race_heading": {
        "en": "🏁 Race · {topic} · question {number} of {total} · {seconds} s",
        "hi": "🏁 रेस · {topic} · प्रश्न {number} / {total} · {seconds} सेकंड",
        "bn": "🏁 রেস · {topic} · প্রশ্ন {number} / {total} · {seconds} সেকেন্ড",
    },
    "race_hint": {
        "en": "Answers are locked in privately and revealed when the time is up. Faster right answers score more.",
        "hi": "उत्तर निजी रूप से लॉक होते हैं और समय पूरा होने पर दिखाए जाते हैं। जल्दी दिए सही उत्तर को अधिक अंक मिलते हैं।",
        "bn": "উত্তর গোপনে লক হয় এবং সময় শেষ হলে দেখানো হয়। দ্রুত সঠিক উত্তরে বেশি পয়েন্ট।",
    },
    "race_locked": {
        "en": "Locked in: {letter}. {text}. The answer is revealed when the time is up.",
        "hi": "लॉक किया गया: {letter}. {text}। समय पूरा होने पर उत्तर दिखाया जाएगा।",
        "bn": "লক করা হয়েছে: {letter}. {text}। সময় শেষ হলে উত্তর দেখানো হবে।",
    },
    "race_already": {
        "en": "Your answer is already locked in: {letter}.",
        "hi": "आपका उत्तर पहले ही लॉक है: {letter}।",
        "bn": "আপনার উত্তর আগেই লক করা আছে: {letter}।",
    },
    "race_late": {
        "en": "Too late: this question is closed.",
        "hi": "देर हो गई: यह प्रश्न बंद हो चुका है।",
        "bn": "দেরি হয়ে গেছে: এই প্রশ্নটি বন্ধ।",
    },
    "race_reveal_heading": {
        "en": "⏱️ Time's up · question {number} of {total} · {topic}",
        "hi": "⏱️ समय पूरा · प्रश्न {number} / {total} · {topic}",
        "bn": "⏱️ সময় শেষ · প্রশ্ন {number} / {total} · {topic}",
    },
    "standings": {"en": "Standings", "hi": "स्थिति", "bn": "অবস্থান"},
    "race_podium": {
        "en": "🏆 Race over · {topic}",
        "hi": "🏆 रेस समाप्त · {topic}",
        "bn": "🏆 রেস শেষ · {topic}",
    },
    "race_stopped_heading": {
        "en": "🛑 Race stopped · {topic}",
        "hi": "🛑 रेस रोकी गई · {topic}",
        "bn": "🛑 রেস থামানো হয়েছে · {topic}",
    },
    "cannot_post": {
        "en": "I cannot post in this channel: invite me to it (or let me send messages) and try again.",
        "hi": "मैं इस चैनल में पोस्ट नहीं कर सकता: मुझे चैनल में जोड़ें (या संदेश भेजने दें) और फिर कोशिश करें।",
        "bn": "আমি এই চ্যানেলে পোস্ট করতে পারছি না: আমাকে চ্যানেলে যোগ করুন (বা বার্তা পাঠাতে দিন) এবং আবার চেষ্টা করুন।",
    },
    "race_running": {
        "en": "A race is already running in this channel.",
        "hi": "इस चैनल में पहले से एक रेस चल रही है।",
        "bn": "এই চ্যানেলে ইতিমধ্যে একটি রেস চলছে।",
    },
    "race_started": {
        "en": "Race on! Questions: {total}, {seconds} seconds each.",
        "hi": "रेस शुरू! प्रश्न: {total}, हर एक {seconds} सेकंड।",
        "bn": "রেস শুরু! প্রশ্ন: {total}টি, প্রতিটি {seconds} সেকেন্ড।",
    },
    "race_none": {
        "en": "No race is running in this channel.",
        "hi": "इस चैनल में कोई रेस नहीं चल रही है।",
        "bn": "এই চ্যানেলে কোনো রেস চলছে না।",
    },
    "race_stopped": {"en": "Race stopped.", "hi": "रेस रोक दी गई।", "bn": "রেস থামানো হয়েছে।"},
    "race_not_starter": {
        "en": "Only whoever started the race, or an admin, can stop it.",
        "hi": "रेस केवल उसे शुरू करने वाला या एडमिन ही रोक सकता है।",
        "bn": "রেস কেবল যিনি শুরু করেছেন তিনি বা অ্যাডমিন থামাতে পারেন।",
    },
    "race_usage": {
        "en": "Usage: /quiz race <topic> [questions] [seconds] | stop",
        "hi": "उपयोग: /quiz race <विषय> [प्रश्न] [सेकंड] | stop",
        "bn": "ব্যবহার: /quiz race <বিষয়> [প্রশ্ন] [সেকেন্ড] | stop",
    },
    "competition_started": {
        "en": "Competition “{name}” is on until {until} (UTC). Topics: {topics}.",
        "hi": "प्रतियोगिता “{name}” {until} (UTC) तक चालू है। विषय: {topics}।",
        "bn": "প্রতিযোগিতা “{name}” {until} (UTC) পর্যন্ত চলবে। বিষয়: {topics}।",
    },
    "all_topics": {"en": "all", "hi": "सभी", "bn": "সব"},
    "competition_running": {
        "en": "“{name}” is already running here: end it first.",
        "hi": "“{name}” पहले से चल रही है: पहले उसे समाप्त करें।",
        "bn": "“{name}” ইতিমধ্যে চলছে: আগে সেটি শেষ করুন।",
    },
    "competition_none": {
        "en": "No competition is running.",
        "hi": "कोई प्रतियोगिता नहीं चल रही है।",
        "bn": "কোনো প্রতিযোগিতা চলছে না।",
    },
    "competition_ended": {
        "en": "Competition “{name}” ended: the final standings are in the channel.",
        "hi": "प्रतियोगिता “{name}” समाप्त: अंतिम स्थिति चैनल में है।",
        "bn": "প্রতিযোগিতা “{name}” শেষ: চূড়ান্ত অবস্থান চ্যানেলে আছে।",
    },
    "competition_usage": {
        "en": 'Usage: /quiz competition start "<name>" until YYYY-MM-DD [topics a,b] | end | standings',
        "hi": 'उपयोग: /quiz competition start "<नाम>" until YYYY-MM-DD [topics a,b] | end | standings',
        "bn": 'ব্যবহার: /quiz competition start "<নাম>" until YYYY-MM-DD [topics a,b] | end | standings',
    },
    "competition_bad_date": {
        "en": "“{value}” is not a future date like 2026-12-31.",
        "hi": "“{value}” 2026-12-31 जैसी भविष्य की तारीख नहीं है।",
        "bn": "“{value}” 2026-12-31-এর মতো ভবিষ্যতের তারিখ নয়।",
    },
    "competition_title": {
        "en": "🏆 {name} · standings",
        "hi": "🏆 {name} · स्थिति",
        "bn": "🏆 {name} · অবস্থান",
    },
    "competition_final": {
        "en": "🏆 {name} · final standings",
        "hi": "🏆 {name} · अंतिम स्थिति",
        "bn": "🏆 {name} · চূড়ান্ত অবস্থান",
    },
}
