"""Banks in fewer languages than quizbot speaks: ``locales: [en]`` validated, linted on
its own languages, and played by a Hindi player in English, told so once in Hindi; a
question imported without an explanation plays with "no explanation yet"."""

from __future__ import annotations

from pathlib import Path

from adapters.phrases import render
from bot.content.banks import SHIPPED_BANKS, Catalog, parse_bank
from bot.content.lint import lint, load_rules, rate_table
from bot.persistence import Store
from bot.services.engine import Engine
from bot.services.requests import Context, button
from bot.ui.messages import t
from bot.ui.views import ChannelFeedback, DailyPostView, DailyRevealView, Feedback, QuestionView

from .support.channel import ADMIN, CHANNEL, PLAYERS, FakeClock, moment, open_engine, run_until
from .support.cli import run_quizbot
from .support.quiz import ANA, TEAM

ENGLISH = """id: team
locales: [en]
title: {en: "Team systems"}
description: {en: "Our own stack."}
questions:
  - id: "zero-3"
    prompt: {en: "Which ZeRO stage also partitions the parameters?"}
    choices:
      - {en: "Stage 3"}
      - {en: "Stage 1"}
    answer: 0
    explanation: {en: "Stage 3 partitions the parameters too. Stage 1 only the optimizer states."}
    references: ["https://arxiv.org/abs/1910.02054"]
    verified: "2026-12"
  - id: "zero-1"
    prompt: {en: "Which ZeRO stage partitions only the optimizer states?"}
    choices:
      - {en: "Stage 1"}
      - {en: "Stage 2"}
    answer: 0
    missing: [explanation]
    references: ["https://arxiv.org/abs/1910.02054"]
    verified: "2026-12"
"""
NOTICE_HI = "ये प्रश्न केवल English भाषा में हैं: आपकी भाषा में इनका अनुवाद अभी नहीं हुआ है।"
NO_EXPLANATION_HI = "अभी इसकी कोई व्याख्या नहीं है।"


def bank_of(text: str) -> Catalog:
    bank, errors = parse_bank(text, "team.yaml")
    assert errors == [] and bank is not None
    return Catalog((bank,))


def errors_of(text: str) -> list[str]:
    bank, errors = parse_bank(text, "team.yaml")
    assert bank is None
    return [str(e) for e in errors]


def test_an_english_only_bank_is_valid_when_it_says_so() -> None:
    [bank] = bank_of(ENGLISH).banks
    assert bank.locales == ("en",)
    assert bank.questions[1].missing == ("explanation",)
    assert bank.questions[1].explanation == {}
    assert bank.text(bank.questions[0].prompt, "hi") == (
        "Which ZeRO stage also partitions the parameters?"
    )


def test_without_locales_every_text_asks_for_the_translations_and_nothing_else() -> None:
    text = ENGLISH.replace("locales: [en]\n", "").replace("    missing: [explanation]\n", "")
    hint = " (or declare the bank's languages, e.g. 'locales: [en]')"
    missing = f"is missing the translation(s): hi, bn{hint}"
    assert errors_of(text) == [
        f"team.yaml:2: bank team: title {missing}",
        f"team.yaml:3: bank team: description {missing}",
        f"team.yaml:6: bank team: question zero-3: prompt {missing}",
        f"team.yaml:8: bank team: question zero-3: choice 1 {missing}",
        # No "answer 0 is out of range (0 to -1)" after the broken choices.
        f"team.yaml:11: bank team: question zero-3: explanation {missing}",
        "team.yaml:14: bank team: question zero-1: the question is missing 'explanation'",
    ]


def test_declared_languages_must_be_known_once_each_and_complete() -> None:
    assert errors_of(ENGLISH.replace("locales: [en]", "locales: [en, fr]")) == [
        "team.yaml:2: bank team: locales: unknown fr (known: en, hi, bn)"
    ]
    assert errors_of(ENGLISH.replace("locales: [en]", "locales: [en, en]")) == [
        "team.yaml:2: bank team: locales names a language twice"
    ]
    assert errors_of(ENGLISH.replace("locales: [en]", "locales: []")) == [
        "team.yaml:2: bank team: locales must name at least one language"
    ]
    extra = ENGLISH.replace('{en: "Stage 2"}', '{en: "Stage 2", hi: "चरण 2"}')
    assert errors_of(extra) == [
        "team.yaml:19: bank team: question zero-1: choice 2 has text in hi, which the bank"
        " does not declare (locales: en)"
    ]
    both = ENGLISH.replace("locales: [en]", "locales: [en, hi]")
    assert errors_of(both)[0] == ("team.yaml:3: bank team: title is missing the translation(s): hi")


def test_missing_is_only_for_what_is_really_missing() -> None:
    given = ENGLISH.replace(
        "    missing: [explanation]\n", '    missing: [explanation]\n    explanation: {en: "Hm."}\n'
    )
    assert errors_of(given) == [
        "team.yaml:22: bank team: question zero-1: explanation is given but 'missing' says it"
        " is missing"
    ]
    assert errors_of(ENGLISH.replace("missing: [explanation]", "missing: [prompt]")) == [
        "team.yaml:21: bank team: question zero-1: missing lists what a question lacks, once"
        " each, of: explanation, references"
    ]


def test_lint_checks_only_the_declared_language_and_fails_on_missing_fields() -> None:
    rules = load_rules(SHIPPED_BANKS / "lint")
    catalog = bank_of(ENGLISH)
    report = lint(catalog.banks, rules)
    assert [str(f) for f in report.findings] == [
        "team.yaml:15: bank team: question zero-1: explanation is missing: write it, then drop"
        " it from 'missing'"
    ]
    assert rate_table(report, rules.seed_banks)[1].split() == [
        "team",
        "2",
        "0%/–/–",
        "50%",
        "50%",
        "50%",
        "0%",
    ]


async def test_a_hindi_player_plays_an_english_bank_told_once(tmp_path: Path) -> None:
    catalog = bank_of(ENGLISH)
    engine = Engine(catalog, await Store.open(tmp_path / "q.db"))
    try:
        first = await engine.start_quiz(ANA, TEAM, "team", "hi")
        assert isinstance(first, QuestionView)
        assert first.locale == "hi" and first.text_language == "en"
        assert first.topic_title == "Team systems"
        shown = render(first)
        assert NOTICE_HI in shown and "एक उत्तर चुनें:" in shown
        assert first.prompt in shown and first.prompt.startswith("Which ZeRO stage")
        feedback = await engine.click(ANA, button(first.choices[0].action_id), where=CHANNEL)
        assert isinstance(feedback, Feedback) and feedback.next_action
        second = await engine.click(ANA, button(feedback.next_action), where=CHANNEL)
        assert isinstance(second, QuestionView) and second.text_language is None
        assert NOTICE_HI not in render(second)
        last = await engine.click(ANA, button(second.choices[0].action_id), where=CHANNEL)
        assert isinstance(last, Feedback) and last.explanation == ""
        assert NO_EXPLANATION_HI in render(last)
        english = await engine.start_quiz(ANA, TEAM, "team", "en", resume=False)
        assert isinstance(english, QuestionView) and english.text_language is None
    finally:
        await engine.store.close()


async def test_channel_posts_fall_back_to_the_banks_language(tmp_path: Path) -> None:
    clock = FakeClock(moment("2026-11-02T08:00"))
    engine, publisher = await open_engine(tmp_path / "q.db", bank_of(ENGLISH), clock)
    try:
        await engine.daily.on(
            Context(ADMIN, CHANNEL, is_admin=True, locale="hi"), "team", "09:00", "UTC", None
        )
        await run_until(engine, clock, moment("2026-11-02T09:10"))
        [posted] = publisher.of(DailyPostView)
        post = posted.view
        assert isinstance(post, DailyPostView) and post.locale == "hi"
        assert post.prompt.startswith("Which ZeRO stage") and post.topic_title == "Team systems"
        assert t("hi", "daily_heading", topic="Team systems", day="2026-11-02") in posted.text
        assert all(c.text.startswith("Stage") for c in post.choices)
        [bank] = engine.catalog.banks
        question = next(q for q in bank.questions if q.prompt["en"] == post.prompt)
        clicked = await engine.click(
            PLAYERS[0], button(post.choices[0].action_id), "hi", where=CHANNEL
        )
        assert isinstance(clicked, ChannelFeedback) and clicked.locale == "hi"
        assert clicked.explanation == question.explanation.get("en", "")
        await run_until(engine, clock, moment("2026-11-02T18:00"))
        [revealed] = publisher.of(DailyRevealView)
        assert revealed.view.prompt == post.prompt  # type: ignore[union-attr]
    finally:
        await engine.store.close()


def test_the_terminal_plays_an_english_file_for_a_hindi_player(tmp_path: Path) -> None:
    bank = tmp_path / "team.yaml"
    bank.write_text(ENGLISH, encoding="utf-8")
    db = tmp_path / "never.db"
    result = run_quizbot("play", str(bank), "--lang", "hi", "--db", str(db), stdin="A\nA\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count(NOTICE_HI) == 1
    assert "प्रश्न 1 / 2 · Team systems" in out and "प्रश्न 2 / 2 · Team systems" in out
    assert "Which ZeRO stage also partitions the parameters?" in out
    assert NO_EXPLANATION_HI in out
    assert "क्विज़ पूरा · Team systems" in out
    assert not db.exists()  # trying a file never touches the player's database
