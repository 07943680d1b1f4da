"""``quizbot banks lint``: each rule on a small bank made to break it, and the shipped
banks clean."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from bot.content.banks import SHIPPED_BANKS, Bank, parse_bank
from bot.content.lint import Message, Report, lint, lint_catalogues, load_rules, sentences, stale

from .support.cli import run_quizbot

RULES = load_rules(SHIPPED_BANKS / "lint")
EXPLANATION = {
    "en": "It is so. The other one is not.",
    "hi": "ऐसा ही है। दूसरा वैसा नहीं है।",
    "bn": "এটাই ঠিক। অন্যটি নয়।",
}


def _text(en: str, hi: str | None = None, bn: str | None = None) -> str:
    return f'{{en: "{en}", hi: "{hi or en + " हि"}", bn: "{bn or en + " বা"}"}}'


def _question(
    qid: str,
    prompt: str,
    choices: list[str] | list[tuple[str, str, str]],
    answer: int = 0,
    explanation: dict[str, str] | None = None,
    reference: str = "https://arxiv.org/abs/1910.02054",
    verified: str | None = "2026-12",
) -> str:
    e = explanation or EXPLANATION
    lines = [
        f'  - id: "{qid}"',
        *([f'    verified: "{verified}"'] if verified else []),
        f"    prompt: {_text(prompt)}",
        "    choices:",
        *(f"      - {_text(*c) if isinstance(c, tuple) else _text(c)}" for c in choices),
        f"    answer: {answer}",
        f"    explanation: {_text(e['en'], e['hi'], e['bn'])}",
        f'    references: ["{reference}"]',
    ]
    return "\n".join(lines)


def _bank(*questions: str, bank_id: str = "sample") -> Bank:
    text = "\n".join(
        [
            f"id: {bank_id}",
            f"title: {_text('Sample')}",
            f"description: {_text('A sample bank.')}",
            "questions:",
            *questions,
        ]
    )
    bank, errors = parse_bank(text, f"{bank_id}.yaml")
    assert bank is not None, errors
    return bank


def _messages(report: Report) -> list[str]:
    return [
        f"{f.question_id}: {f.message}" if f.question_id else f.message for f in report.findings
    ]


def test_a_clean_bank_has_no_findings() -> None:
    question = (
        _question(
            "q-one",
            "Which stage partitions the gradients?",
            [(f"Stage {n}", f"स्टेज {n}", f"স্টেজ {n}") for n in (2, 1, 0)],
        )
        .replace('"Which stage partitions the gradients? हि"', '"कौन-सा स्टेज ग्रेडिएंट्स को बाँटता है?"')
        .replace('"Which stage partitions the gradients? বা"', '"কোন স্টেজ গ্রেডিয়েন্ট ভাগ করে?"')
    )
    report = lint([_bank(question)], RULES)
    assert _messages(report) == []
    assert report.rates["sample"].longest_right == {"en": 0.0, "hi": 0.0, "bn": 0.0}


def test_numbers_must_match_across_languages() -> None:
    explanation = {**EXPLANATION, "hi": "ऐसा 12 है। दूसरा वैसा नहीं है।"}
    bank = _bank(_question("q-num", "How many?", ["Two", "Nine"], explanation=explanation))
    assert _messages(lint([bank], RULES)) == [
        "q-num: explanation: the numbers in hi ['12'] differ from English []"
    ]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("One. Two.", 2),
        ("Chen et al. show it. FP16 has 2.5 bits here? No.", 3),
        ("एक। दो। तीन।", 3),
        ("It is 12. Then 16.", 2),
        ("Only one sentence, e.g. this one.", 1),
    ],
)
def test_sentences_are_counted_as_a_reader_counts_them(text: str, count: int) -> None:
    assert sentences(text) == count


def test_explanations_have_two_to_four_sentences() -> None:
    explanation = {"en": "Too short.", "hi": "बहुत छोटा।", "bn": "খুব ছোট।"}
    bank = _bank(_question("q-short", "Why?", ["Because", "Never"], explanation=explanation))
    assert [m for m in _messages(lint([bank], RULES)) if "sentences" in m] == [
        "q-short: explanation (en) has 1 sentences, not 2 to 4",
        "q-short: explanation (hi) has 1 sentences, not 2 to 4",
        "q-short: explanation (bn) has 1 sentences, not 2 to 4",
    ]


def test_glossary_terms_and_forbidden_renderings() -> None:
    prompt = "What does loss scaling fix?"
    text = (
        f'    prompt: {{en: "{prompt}", hi: "लॉस स्केलिंग क्या ठीक करती है?",'
        ' bn: "ক্ষতি স্কেলিং কী ঠিক করে?"}'
    )
    question = _question("q-term", prompt, ["Underflow", "Overfitting is what it fixes"])
    question = "\n".join(
        text if line.startswith("    prompt:") else line for line in question.splitlines()
    )
    messages = _messages(lint([_bank(question)], RULES))
    assert "q-term: prompt: glossary: 'ক্ষতি স্কেলিং' in bn; 'loss scaling' is 'লস স্কেলিং'" in (
        messages
    )
    assert "q-term: prompt: glossary: 'loss scaling' is 'লস স্কেলিং' in bn" in messages
    assert not any("in hi" in m and "prompt" in m for m in messages)  # Hindi is right


def test_one_rendering_per_term_so_the_english_word_left_in_latin_script_is_a_finding() -> None:
    prompt = "How many ranks take part?"
    question = (
        _question("q-rank", prompt, ["All 8", "Only 1"])
        .replace(f'hi: "{prompt} हि"', 'hi: "कितने ranks हिस्सा लेते हैं?"')
        .replace(f'bn: "{prompt} বা"', 'bn: "কতগুলো র‍্যাঙ্ক অংশ নেয়?"')
    )
    messages = [m for m in _messages(lint([_bank(question)], RULES)) if "prompt" in m]
    assert messages == ["q-rank: prompt: glossary: 'rank' left in Latin script in hi; write 'रैंक'"]


def test_code_and_placeholders_are_not_terms_to_translate() -> None:
    prompt = "What does cudaMemcpyAsync(d, h, n, stream) do with `rank`?"
    question = (
        _question("q-code", prompt, ["All 8", "Only 1"])
        .replace(
            f'hi: "{prompt} हि"', 'hi: "cudaMemcpyAsync(d, h, n, stream) `rank` के साथ क्या करता है?"'
        )
        .replace(f'bn: "{prompt} বা"', 'bn: "cudaMemcpyAsync(d, h, n, stream) `rank` দিয়ে কী করে?"')
    )
    assert [m for m in _messages(lint([_bank(question)], RULES)) if "prompt" in m] == []


def test_every_question_says_when_its_facts_were_verified() -> None:
    question = _question("q-old", "Why?", ["Because", "Never"], verified=None)
    assert [m for m in _messages(lint([_bank(question)], RULES)) if "verified" in m] == [
        "q-old: verified is missing: the month its facts were last checked against its"
        " sources (verified: 2026-12; an API question adds its release, version: PyTorch 2.5)"
    ]


def test_stale_lists_the_questions_verified_longer_ago_than_asked_oldest_first() -> None:
    bank = _bank(
        _question("q-new", "Why?", ["Because", "Never"], verified="2026-06"),
        _question("q-old", "How?", ["So", "Not"], verified="2025-01").replace(
            '    verified: "2025-01"', '    verified: "2025-01"\n    version: "PyTorch 2.5"'
        ),
        _question("q-older", "When?", ["Now", "Then"], verified="2024-12"),
    )
    found = stale([bank], 12, date(2026, 12, 2))
    assert [(e.question_id, e.message) for e in found] == [
        ("q-older", "verified 2024-12 (24 months ago)"),
        ("q-old", "verified 2025-01 (23 months ago), for PyTorch 2.5"),
    ]
    assert stale([bank], 23, date(2026, 12, 2))[0].question_id == "q-older"


def test_the_interface_catalogues_use_the_glossary_and_ascii_digits() -> None:
    messages = [
        Message("slack.po", "reject_button", {"en": "Reject", "hi": "अस्वीकार करें", "bn": "বাতিল"}),
        Message("slack.po", "cancel", {"en": "Cancel", "hi": "रद्द करें", "bn": "বাতিল"}),
        Message(
            "quizbot.po", "count", {"en": "{rank} of 8", "hi": "8 में {rank}", "bn": "৮-এর {rank}"}
        ),
    ]
    assert [f"{f.path}: {f.message}" for f in lint_catalogues(messages, RULES)] == [
        "slack.po: reject_button: glossary: 'বাতিল' in bn; 'reject' is 'প্রত্যাখ্যান'",
        "slack.po: reject_button: glossary: 'reject' is 'প্রত্যাখ্যান' in bn",
        "quizbot.po: count: bn has native digits; write ASCII",
    ]


def test_references_must_be_primary_and_pinned() -> None:
    bank = _bank(
        _question("q-blog", "A?", ["B", "C"], reference="https://medium.com/some-post"),
        _question("q-pdf", "D?", ["E", "F"], reference="https://arxiv.org/pdf/1910.02054v3"),
        _question("q-unpinned", "G?", ["H", "I"], reference="https://arxiv.org/abs/9999.00001"),
    )
    assert _messages(lint([bank], RULES)) == [
        "q-blog: reference https://medium.com/some-post: not a primary source we allow",
        "q-pdf: reference https://arxiv.org/pdf/1910.02054v3: cite arXiv as "
        "https://arxiv.org/abs/NNNN.NNNNN",
        "q-unpinned: reference https://arxiv.org/abs/9999.00001: arXiv 9999.00001 is not "
        "pinned to its title in banks/lint/sources.yaml",
    ]


def test_an_explanation_that_gives_away_another_answer() -> None:
    leaky = {
        "en": "Adam keeps 12 of the 16 bytes per parameter. So it is large.",
        "hi": "Adam प्रति पैरामीटर 16 में से 12 बाइट रखता है। इसलिए यह बड़ा है।",
        "bn": "Adam প্রতি প্যারামিটারে 16-এর মধ্যে 12 বাইট রাখে। তাই এটি বড়।",
    }
    bank = _bank(
        _question("q-goal", "Why offload?", ["To free GPU memory", "To train faster"], 0, leaky),
        _question("q-bytes", "How many bytes for Adam's state?", ["Twelve", "Four", "Two"]),
    )
    assert [m for m in _messages(lint([bank], RULES)) if "gives away" in m] == [
        "q-goal: explanation gives away q-bytes (it says 12)"
    ]


def test_cues_and_the_longest_choice_player() -> None:
    bank = _bank(
        *(
            _question(
                f"q-{i}",
                f"Question number {i} about pipelines?",
                [f"The long and carefully qualified right answer {i}", "It always fails", "No"],
            )
            for i in range(4)
        )
    )
    report = lint([bank], RULES)
    rates = report.rates["sample"]
    assert (rates.longest_right["en"], rates.longest_player, rates.cue) == (1.0, 1.0, 1.0)
    assert "q-0: cue: 'always' appears only in wrong choices" in _messages(report)
    assert "the right choice is the longest in 100% of questions (en); at most 50%" in _messages(
        report
    )
    assert "new banks overall: the right choice is the longest in 100% (en); at most 35%" in (
        _messages(report)
    )


def test_seed_banks_are_reported_apart() -> None:
    question = _question("q-seed", "Which?", ["The right and longest choice", "It never works"])
    rules = replace(RULES, seed_banks=frozenset({"offloading"}))
    report = lint([_bank(question, bank_id="offloading")], rules)
    assert _messages(report) == []  # the seeds' own choices do not fail the lint
    assert [n.message for n in report.notes] == ["cue: 'never' appears only in wrong choices"]


def test_near_duplicate_prompts_across_banks() -> None:
    one = _bank(_question("q-a", "What does ZeRO stage 2 partition?", ["B", "C"]), bank_id="one")
    two = _bank(_question("q-b", "What does ZeRO stage 2 partition ?", ["D", "E"]), bank_id="two")
    assert "q-a: prompt nearly repeats two/q-b" in _messages(lint([one, two], RULES))


def test_the_shipped_banks_pass_the_lint(tmp_path: Path) -> None:
    done = run_quizbot("banks", "lint")
    assert done.returncode == 0, done.stdout[-3000:]
    assert done.stdout.rstrip().endswith("0 finding(s)")
    overall = next(line for line in done.stdout.splitlines() if line.startswith("new banks"))
    assert overall.split()[3] == "337"  # choice questions in the 25 banks


def test_the_right_choice_is_not_mostly_in_one_place() -> None:
    questions = [
        _question(f"q{n}", f"Which answer is number {n} of {n + 100}?", ["Alpha", "Beta", "Gamma"],
                  answer=0 if n < 6 else n % 3)
        for n in range(9)
    ]  # fmt: skip
    messages = _messages(lint([_bank(*questions)], RULES))
    assert "the right choice is A in 78% of questions; at most 40% (reorder the choices)" in (
        messages
    )
    # Over a shelf of a hundred such questions, a letter at 78 % (and one at 0 %) shows.
    shelf = _messages(lint([_bank(*questions, bank_id=f"b{n}") for n in range(12)], RULES))
    assert "all banks: the right choice is A in 78%; 20% to 30% each" in shelf
    assert "all banks: the right choice is D in 0%; 20% to 30% each" in shelf
