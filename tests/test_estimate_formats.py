"""Estimates in the import formats: GIFT numerical ({#512:64}, {#500..600}, several
answers with partial credit), Moodle XML ``numerical`` with its tolerance and unit, CSV's
value/unit/tolerance columns; each written back and read again as the same estimate, and
Aiken and Open Trivia DB saying they cannot hold one."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.content.banks import load_catalog
from bot.content.formats import FORMATS
from bot.content.formats.importer import Options, bank_from_upload

from .support.cli import run_quizbot
from .support.environment import FIXTURES

NAPKIN = load_catalog([FIXTURES / "estimates"]).get("napkin")
GIFT = """\
::kv-bytes:: How much KV cache does one Llama-2-7B token take in FP16, in KiB? {
  #512:64
  ####2 × 32 layers × 32 heads × 128 × 2 bytes = 524288 bytes. Reference: https://arxiv.org/abs/2302.13971
}

::chinchilla:: How many training tokens per parameter is compute-optimal? {#10..40}

::share:: What share of the run was lost, in %? {# =20:0 #Right =%50%20:5 #Close}
"""
MOODLE = """\
<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="numerical">
    <name><text>link-time</text></name>
    <questiontext format="html">
      <text><![CDATA[<p>How long do 140 GB take over 400 Gb/s?</p>]]></text>
    </questiontext>
    <generalfeedback format="html"><text>140 GB / 50 GB/s.</text></generalfeedback>
    <answer fraction="100"><text>2.8</text><tolerance>0.28</tolerance></answer>
    <answer fraction="50"><text>2.8</text><tolerance>1</tolerance></answer>
    <units>
      <unit><multiplier>1</multiplier><unit_name>s</unit_name></unit>
      <unit><multiplier>1000</multiplier><unit_name>ms</unit_name></unit>
    </units>
  </question>
</quiz>
"""
CSV = """\
id,prompt,value,unit,tolerance,explanation,references
hbm,"HBM3 bandwidth of one H100 SXM, in TB/s?",3.35,TB/s,10%,From the datasheet.,https://www.nvidia.com/h100
"""


def estimates(name: str, text: str) -> dict[str, tuple[float, str, float]]:
    imported, errors = bank_from_upload(name, text.encode(), Options(allow_missing=True))
    assert imported is not None, errors
    found = {}
    for question in imported.bank.questions:
        assert question.estimate is not None and question.choices == ()
        estimate = question.estimate
        found[question.id] = (estimate.truth.value, estimate.written, estimate.tolerance.factor)
    return found


def test_gift_numerical_questions_are_estimates() -> None:
    assert estimates("team.gift", GIFT) == {
        "kv-bytes": (524288.0, "512 KiB", 1.125),  # ±64 at 512: 12.5 %
        "chinchilla": (20.0, "20", 2.0),  # the geometric middle of 10..40, and 2× to each end
        "share": (20.0, "20 %", 1.01),  # the full-credit answer; exact becomes 1 %
    }


def test_moodle_numerical_questions_are_estimates_in_their_unit() -> None:
    assert estimates("team.xml", MOODLE) == {"link-time": (2.8, "2.8 s", 1.1)}


def test_csv_rows_with_a_value_are_estimates() -> None:
    assert estimates("team.csv", CSV) == {"hbm": (3.35e12, "3.35 TB/s", 1.1)}


@pytest.mark.parametrize("name", ["gift", "moodle-xml", "csv"])
def test_an_exported_estimate_reads_back_the_same(name: str) -> None:
    assert NAPKIN is not None
    form = FORMATS[name]
    again, errors = bank_from_upload(
        f"napkin{form.extension}", form.write(NAPKIN, "en").encode(), Options(format=name)
    )
    assert again is not None, errors
    before = NAPKIN.question("kv-bytes")
    after = again.bank.question("kv-bytes")
    assert before is not None and after is not None and after.estimate is not None
    assert after.estimate == before.estimate  # value, unit and tolerance
    assert after.estimate.written == "512 KiB"


@pytest.mark.parametrize("name", ["aiken", "opentdb"])
def test_aiken_and_open_trivia_db_say_they_cannot_hold_an_estimate(
    name: str, tmp_path: Path
) -> None:
    env = {"QUIZBOT_BANKS": str(FIXTURES / "estimates")}
    out = run_quizbot("banks", "export", "--format", name, "napkin", env=env)
    assert out.returncode == 0
    assert out.stderr == (
        f"{name} cannot hold an estimate (a value with a unit): left out 1 (kv-bytes);"
        " gift, moodle-xml, csv and json keep them\n"
    )
    assert "One plus one?" in out.stdout and "KV cache" not in out.stdout


def test_an_imported_gift_estimate_plays_in_the_terminal(tmp_path: Path) -> None:
    source = tmp_path / "napkin.gift"
    source.write_text(GIFT, encoding="utf-8")
    bank = tmp_path / "napkin.yaml"
    imported = run_quizbot(
        "banks", "import", str(source), "--allow-missing", "-o", str(bank), env={}
    )
    assert imported.returncode == 0, imported.stderr
    played = run_quizbot(
        "play", str(bank), "--db", str(tmp_path / "q.db"),
        stdin="0.5 MiB\n25\n20 %\n", env={"LANG": "C"},
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "Your estimate: 0.5 MiB (= 512 KiB)\nThe answer: 512 KiB\nExact." in played.stdout
