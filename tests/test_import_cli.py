"""The README's "Bring your own questions", run as a user runs it: ``quizbot banks
import`` on each example file in docs/examples, ``banks check`` on the result,
``quizbot play`` on it, and ``banks export`` in each format back through the import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.content.banks import parse_bank

from .support.cli import run_quizbot
from .support.environment import FIXTURES, REPO

EXAMPLES = REPO / "docs" / "examples"


@pytest.mark.parametrize(
    ("example", "extra", "bank", "count"),
    [
        ("team.gift", (), "team", 3),
        ("team-aiken.txt", ("--format", "aiken"), "team-aiken", 3),
        ("team.xml", (), "team", 3),
        ("team.csv", (), "team", 3),
        ("trivia.json", (), "trivia", 2),
    ],
)
def test_each_example_imports_checks_and_plays(
    tmp_path: Path, example: str, extra: tuple[str, ...], bank: str, count: int
) -> None:
    out = tmp_path / "team.yaml"
    imported = run_quizbot("banks", "import", str(EXAMPLES / example), *extra, "-o", str(out))
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout == f"{out}: bank {bank}, {count} question(s) in en\n"
    checked = run_quizbot("banks", "check", str(out))
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout == f"1 bank(s) valid, {count} questions; 0 error(s)\n"
    played = run_quizbot("play", str(out), "--lang", "en", stdin="A\n" * count)
    assert played.returncode == 0, played.stderr
    assert played.stdout.count("Right answer:") == count
    assert "Quiz complete" in played.stdout


def test_the_same_questions_in_every_example_format(tmp_path: Path) -> None:
    def questions(example: str, *extra: str) -> list[tuple[object, ...]]:
        result = run_quizbot("banks", "import", str(EXAMPLES / example), *extra)
        assert result.returncode == 0, result.stderr
        bank, errors = parse_bank(result.stdout, example)
        assert errors == [] and bank is not None
        return [(q.prompt, q.choices, q.answer, q.explanation) for q in bank.questions]

    gift = questions("team.gift")
    assert questions("team-aiken.txt", "--format", "aiken") == gift
    assert questions("team.xml") == gift
    assert questions("team.csv") == gift


def test_play_a_gift_file_directly() -> None:
    played = run_quizbot("play", str(EXAMPLES / "team.gift"), "--lang", "en", stdin="A\nq\n")
    assert played.returncode == 0, played.stderr
    assert "Question 1 of 3 · Team ML systems" in played.stdout
    assert "progress is saved" in played.stdout


def test_failed_imports_write_nothing(tmp_path: Path) -> None:
    raw = tmp_path / "raw.json"  # the example as Open Trivia DB serves it: no extensions
    data = json.loads((EXAMPLES / "trivia.json").read_text(encoding="utf-8"))
    for question in data["results"]:
        del question["explanation"], question["references"]
    raw.write_text(json.dumps(data, indent=2), encoding="utf-8")
    out = tmp_path / "trivia.yaml"
    failed = run_quizbot("banks", "import", str(raw), "-o", str(out))
    assert failed.returncode == 1 and failed.stdout == ""
    lines = failed.stderr.splitlines()
    assert lines[0] == (
        f"{raw}:4: question which-company-created-the-cuda-platform: no"
        ' explanation (an "explanation" key, a quizbot extension) and no references (a'
        ' "references" list, a quizbot extension): write them, or import with --allow-missing'
        " to mark it missing"
    )
    assert lines[-1] == "2 problem(s): nothing written"
    assert not out.exists() and list(tmp_path.iterdir()) == [raw]
    unknown = tmp_path / "questions.md"
    unknown.write_text("What is 1 + 1?\n", encoding="utf-8")
    refused = run_quizbot("banks", "import", str(unknown))
    assert refused.returncode == 2
    assert refused.stderr == (
        f"quizbot: {unknown}: cannot tell the format from the extension '.md' (known: .gift"
        " (gift), .txt (aiken), .xml (moodle-xml), .json (opentdb), .csv (csv)): name it with"
        " --format gift|aiken|moodle-xml|opentdb|csv\n"
    )
    folder = run_quizbot("banks", "import", str(tmp_path))
    assert (folder.returncode, folder.stdout) == (1, "")
    assert folder.stderr.splitlines() == [
        f"{tmp_path}:1: a directory: name one file of questions",
        "1 problem(s): nothing written",
    ]


def test_a_txt_file_is_aiken_on_the_command_line_as_in_chat() -> None:
    imported = run_quizbot("banks", "import", str(EXAMPLES / "team-aiken.txt"))
    assert imported.returncode == 0, imported.stderr
    assert "id: team-aiken" in imported.stdout
    played = run_quizbot("play", str(EXAMPLES / "team-aiken.txt"), "--lang", "en", stdin="q\n")
    assert played.returncode == 0, played.stderr
    assert "Question 1 of " in played.stdout and "Traceback" not in played.stderr


@pytest.mark.parametrize("form", ["gift", "aiken", "moodle-xml", "opentdb", "csv"])
def test_export_then_import_gives_the_bank_back(tmp_path: Path, form: str) -> None:
    env = {"QUIZBOT_BANKS": str(FIXTURES)}
    exported = run_quizbot("banks", "export", "--format", form, "--lang", "hi", "tiny", env=env)
    assert exported.returncode == 0, exported.stderr
    path = tmp_path / f"tiny.{form}"
    path.write_text(exported.stdout, encoding="utf-8")
    back = run_quizbot(
        "banks", "import", str(path), "--format", form, "--lang", "hi", "--id", "tiny"
    )
    assert back.returncode == 0, back.stderr
    bank, errors = parse_bank(back.stdout, str(path))
    assert errors == [] and bank is not None
    assert bank.locales == ("hi",)
    right = [q.choices[q.answer] for q in bank.questions]
    assert [q.prompt for q in bank.questions] == [{"hi": "एक और एक?"}, {"hi": "दो गुणा तीन?"}]
    assert right == [{"hi": "दो"}, {"hi": "छह"}]
    assert bank.questions[1].explanation == {"hi": "दो बार तीन छह होता है।"}


def test_export_refusals() -> None:
    several = run_quizbot("banks", "export", "--format", "gift")
    assert several.returncode == 2
    assert several.stderr == (
        "--format gift writes one bank: name it (quizbot banks export --format gift ID)\n"
    )
