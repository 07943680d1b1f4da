"""Bank loading: every shipped bank is valid; every kind of broken bank is rejected
with its file, line and question id, and never takes the other banks down."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from bot.content import banks
from bot.content.banks import SHIPPED_BANKS, Catalog, load_catalog, parse_bank
from bot.ui.i18n import LOCALES

from .support.cli import run_quizbot
from .support.environment import FIXTURES

TINY = (FIXTURES / "tiny.yaml").read_text(encoding="utf-8")
SEEDS = ("mixed-precision", "offloading")  # grown from the quizzes in shared/seeds
CURRICULUM = (
    "activation-checkpointing",
    "collectives",
    "compilation",
    "cuda-fundamentals",
    "data-loading",
    "distributed-checkpointing",
    "flash-attention",
    "gpu-roofline",
    "inference-parallelism",
    "interconnects",
    "kv-cache-serving",
    "memory-planning",
    "mixture-of-experts",
    "numerical-stability",
    "parallelism",
    "peft",
    "profiling",
    "quantization",
    "rlhf-systems",
    "scaling-laws",
    "sequence-parallelism",
    "training-data",
    "zero-fsdp",
)


def test_shipped_banks_are_valid_and_complete() -> None:
    catalog = load_catalog([SHIPPED_BANKS])
    assert catalog.errors == ()
    assert [b.id for b in catalog.banks] == sorted((*SEEDS, *CURRICULUM))
    for bank in catalog.banks:
        # The curriculum's standard, the seeds' too: enough questions, mixed difficulties.
        assert len(bank.questions) >= 12
        levels = [q.difficulty for q in bank.questions]
        assert levels.count("easy") >= 3, bank.id
        assert levels.count("medium") >= 4, bank.id
        assert levels.count("hard") >= 3, bank.id
        assert set(bank.title) == set(bank.description) == set(LOCALES)
        estimates = [q for q in bank.questions if q.estimate is not None]
        assert len(estimates) >= 3, bank.id  # napkin math in every topic
        for question in bank.questions:
            assert len(question.choices) == (0 if question.estimate else 4)
            assert question.references
            for text in (question.prompt, question.explanation, *question.choices):
                assert set(text) == set(LOCALES)
    assert len(catalog.banks) == 25
    assert sum(len(b.questions) for b in catalog.banks) == 417
    assert sum(q.estimate is not None for b in catalog.banks for q in b.questions) == 80


def test_aliases_and_titles_find_banks() -> None:
    catalog = load_catalog([SHIPPED_BANKS])
    assert catalog.find("mixed_precision").id == "mixed-precision"  # type: ignore[union-attr]
    assert catalog.find("AMP").id == "mixed-precision"  # type: ignore[union-attr]
    assert catalog.find("Mixed precision training").id == "mixed-precision"  # type: ignore[union-attr]
    assert catalog.closest("ofloading").id == "offloading"  # type: ignore[union-attr]
    assert catalog.find("nonsense") is None


def broken(old: str, new: str) -> str:
    assert old in TINY, old
    return TINY.replace(old, new, 1)


def line_of(text: str, needle: str) -> int:
    """The last line holding the needle (for a duplicate, the repeat)."""
    return max(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize(
    ("old", "new", "needle", "question", "message"),
    [
        (
            'prompt: {en: "One plus one?", hi: "एक और एक?", bn: "এক আর এক?"}',
            'prompt: {en: "One plus one?", hi: "एक और एक?"}',
            "One plus one?",
            "tiny-one",
            "missing the translation(s): bn",
        ),
        ("    answer: 0", "    answer: 7", "answer: 7", "tiny-one", "answer 7 is out of range"),
        ('  - id: "tiny-two"', '  - id: "tiny-one"', '- id: "tiny-one"', "tiny-one", "duplicate"),
        (
            '- {en: "Three", hi: "तीन", bn: "তিন"}',
            '- {en: "two", hi: "तीन", bn: "তিন"}',
            '{en: "two"',
            "tiny-one",
            "choice 2 repeats another choice (en)",
        ),
        (
            '    difficulty: "easy"',
            '    difficulty: "easy"\n    hint: "think"',
            "hint:",
            "tiny-one",
            "unknown key 'hint'",
        ),
        (
            '- {en: "Five", hi: "पाँच", bn: "পাঁচ"}',
            '- {en: no, hi: "पाँच", bn: "পাঁচ"}',
            "en: no",
            "tiny-two",
            "which YAML reads as a boolean: quote it",
        ),
        (
            '    references: ["https://example.org/arithmetic"]\n  - id: "tiny-two"',
            '    references: []\n  - id: "tiny-two"',
            "references: []",
            "tiny-one",
            "at least one reference",
        ),
    ],
    ids=[
        "missing-translation",
        "answer-out-of-range",
        "duplicate-id",
        "duplicate-choice",
        "unknown-key",
        "boolean-trap",
        "no-reference",
    ],
)
def test_broken_bank_errors_name_file_line_and_question(
    old: str, new: str, needle: str, question: str, message: str
) -> None:
    text = broken(old, new)
    bank, errors = parse_bank(text, "banks/broken.yaml")
    assert bank is None
    assert len(errors) >= 1
    error = errors[0]
    assert message in error.message
    assert error.path == "banks/broken.yaml"
    assert error.bank_id == "tiny"
    assert error.question_id == question
    assert error.line == line_of(text, needle)
    assert str(error).startswith(f"banks/broken.yaml:{error.line}: bank tiny: question {question}:")


def test_yaml_syntax_error_names_the_line() -> None:
    text = broken("    answer: 1", "    answer: [1")
    bank, errors = parse_bank(text, "x.yaml")
    assert bank is None
    assert "YAML syntax error" in errors[0].message
    assert errors[0].line >= line_of(text, "answer: [1")


def test_all_errors_of_a_file_are_reported_at_once() -> None:
    text = broken("    answer: 0", "    answer: 9").replace("    answer: 1", "    answer: -1")
    _, errors = parse_bank(text, "x.yaml")
    assert [e.question_id for e in errors] == ["tiny-one", "tiny-two"]


def test_a_broken_bank_does_not_take_the_others_down(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(TINY, encoding="utf-8")
    other = TINY.replace("id: tiny", "id: other").replace('aliases: ["small-one"]', "")
    (tmp_path / "bad.yaml").write_text(other.replace("answer: 0", "answer: 5"), encoding="utf-8")
    (tmp_path / "clash.yaml").write_text(TINY, encoding="utf-8")  # same id as good.yaml
    catalog = load_catalog([tmp_path])
    assert [b.id for b in catalog.banks] == ["tiny"]
    messages = [str(e) for e in catalog.errors]
    assert any("bad.yaml" in m and "question tiny-one" in m for m in messages)
    assert any("clash.yaml" in m and "already used" in m for m in messages)


def test_banks_check_command(tmp_path: Path) -> None:
    ok = run_quizbot("banks", "check")
    assert ok.returncode == 0, ok.stderr
    assert "25 bank(s) valid, 417 questions; 0 error(s)" in ok.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text(broken("    answer: 1", "    answer: 4"), encoding="utf-8")
    failed = run_quizbot("banks", "check", str(bad))
    assert failed.returncode == 1
    line = line_of(bad.read_text(encoding="utf-8"), "answer: 4")
    assert f"{bad}:{line}: bank tiny: question tiny-two: answer 4 is out of range" in failed.stderr


def test_export_json_shape() -> None:
    result = run_quizbot("banks", "export", "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    catalog: Catalog = load_catalog([SHIPPED_BANKS])
    assert [b["id"] for b in data["banks"]] == [b.id for b in catalog.banks]
    for exported, bank in zip(data["banks"], catalog.banks, strict=True):
        assert set(exported) == {"id", "title", "questions"}
        assert len(exported["questions"]) == len(bank.questions)
        for q, question in zip(exported["questions"], bank.questions, strict=True):
            keys = {
                "id", "kind", "prompt", "choices", "answer", "explanation", "references",
                "verified",
            }  # fmt: skip
            assert ("version" in q) == bool(question.version)  # an API question's release
            if question.version:
                assert q["version"] == question.version and q["verified"] == question.verified
                keys = {*keys, "version"}
            if question.estimate is not None:
                estimate = question.estimate
                assert set(q) == {*keys, "estimate"} and q["kind"] == "estimate"
                assert q["answer"] == estimate.written and q["choices"] == []
                assert q["estimate"]["base_value"] == estimate.truth.value
                assert q["estimate"]["unit"] == estimate.unit
                assert q["estimate"]["within_factor"] == estimate.tolerance.factor
            else:
                assert set(q) == keys and q["kind"] == "choice"
                assert q["id"] == question.id and q["answer"] == question.answer
                assert q["choices"][q["answer"]] == dict(question.choices[question.answer])
            for text in (q["prompt"], q["explanation"], *q["choices"]):
                assert set(text) == set(LOCALES) and all(text.values())
    assert sum(len(b["questions"]) for b in data["banks"]) == 417
    assert sum(q["kind"] == "estimate" for b in data["banks"] for q in b["questions"]) == 80
    one = json.loads(run_quizbot("banks", "export", "amp").stdout)
    assert [b["id"] for b in one["banks"]] == ["mixed-precision"]


BROKEN_SOURCES = {
    "flow sequence": ("    answer: 1", "    answer: [1"),
    "tab indent": ("    answer: 1", "\tanswer: 1"),
    "bad escape": ('id: "tiny-one"', 'id: "tiny\\qone"'),
    "duplicate anchor alias": ("    answer: 1", "    answer: *nowhere"),
    "boolean trap": ('- {en: "Five", hi: "पाँच", bn: "পাঁচ"}', '- {en: no, hi: "पाँच", bn: "পাঁচ"}'),
}


@pytest.mark.parametrize("change", BROKEN_SOURCES.values(), ids=list(BROKEN_SOURCES))
def test_libyaml_reports_what_the_pure_loader_reports(
    change: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Banks are composed by libyaml for speed: a broken file must still get the pure
    loader's message and line, word for word."""
    text = broken(*change)
    fast = parse_bank(text, "x.yaml")
    monkeypatch.setattr(banks, "_FAST_LOADER", yaml.SafeLoader)
    assert fast == parse_bank(text, "x.yaml")


def test_the_flow_sequence_message_is_the_pure_loaders() -> None:
    _, errors = parse_bank(broken("    answer: 1", "    answer: [1"), "x.yaml")
    assert [str(e) for e in errors] == [
        "x.yaml:23: YAML syntax error: expected ',' or ']', but got ':'"
    ]


def test_libyaml_and_the_pure_loader_read_every_shipped_bank_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert banks._FAST_LOADER is yaml.CSafeLoader  # libyaml is there: the fast path is used
    files = sorted(SHIPPED_BANKS.glob("*.yaml"))
    fast = [parse_bank(path.read_text(encoding="utf-8"), str(path)) for path in files]
    monkeypatch.setattr(banks, "_FAST_LOADER", yaml.SafeLoader)
    pure = [parse_bank(path.read_text(encoding="utf-8"), str(path)) for path in files]
    assert fast == pure
    assert len(files) == 25


@pytest.mark.parametrize("answer", ["0x1", "0b1", "1:0", "+1"])
def test_an_answer_yaml_reads_as_another_kind_of_integer_is_an_error_at_its_line(
    answer: str,
) -> None:
    text = broken("    answer: 0", f"    answer: {answer}")
    bank, errors = parse_bank(text, "x.yaml")
    assert bank is None
    assert [str(e) for e in errors] == [
        f"x.yaml:{line_of(text, f'answer: {answer}')}: bank tiny: question tiny-one:"
        " answer must be the 0-based index of the right choice"
    ]


@pytest.mark.parametrize("nesting", ["[" * 1200 + "]" * 1200, "{a: " * 1500 + "1" + "}" * 1500])
def test_a_file_nested_thousands_deep_is_an_error_not_a_crash(nesting: str) -> None:
    bank, errors = parse_bank(broken("    answer: 0", f"    answer: {nesting}"), "x.yaml")
    assert bank is None
    assert [str(e) for e in errors] == ["x.yaml:1: lists or mappings nest too deeply"]


def test_control_characters_in_bank_text_are_refused_at_their_line() -> None:
    # "\e]0;owned\a": YAML's escapes make a terminal title (and "\e[2J" clears a screen).
    text = broken("One plus one?", "One plus one?\\e]0;owned\\a")
    bank, errors = parse_bank(text, "x.yaml")
    assert bank is None
    assert [str(e) for e in errors] == [
        f"x.yaml:{line_of(text, 'One plus one?')}: bank tiny: question tiny-one: prompt (en)"
        " holds the control character U+001B: remove it"
    ]


def test_texts_and_questions_beyond_the_limits_are_errors_at_their_lines() -> None:
    long_prompt = broken("One plus one?", "x" * 1001)
    _, errors = parse_bank(long_prompt, "x.yaml")
    assert [str(e) for e in errors] == [
        f"x.yaml:{line_of(long_prompt, 'x' * 1001)}: bank tiny: question tiny-one: prompt (en)"
        " is 1,001 characters: at most 1,000"
    ]


def test_one_bad_file_among_the_banks_is_reported_and_the_others_load(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(TINY, encoding="utf-8")
    (tmp_path / "nested.yaml").write_text("a: " + "[" * 5000, encoding="utf-8")
    (tmp_path / "huge.yaml").write_bytes(b"#" * 2_000_001)
    catalog = load_catalog([tmp_path])
    assert [b.id for b in catalog.banks] == ["tiny"]
    assert [str(e) for e in catalog.errors] == [
        f"{tmp_path / 'huge.yaml'}:1: the file is 2,000,001 bytes: a bank file holds at most"
        " 2,000,000",
        f"{tmp_path / 'nested.yaml'}:1: lists or mappings nest too deeply",
    ]
