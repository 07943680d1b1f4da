"""First contact, tried as a new user would: an installed wheel, a container without
tokens, the command line's small promises."""

from __future__ import annotations

import os
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from .support.cli import run_quizbot

ROOT = Path(__file__).resolve().parents[1]
NO_TOKENS = {
    name: ""
    for name in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "DISCORD_TOKEN")
}


PIP_WHEEL = (sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation")


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv with quizbot installed from a wheel built from this checkout
    (not editable). Its dependencies come from the test environment's site-packages
    through a .pth line (no network), which does not bring the editable install along."""
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        # The build backend is the one installed here (dev extra), not a fresh download.
        [*PIP_WHEEL, "-w", str(work), str(ROOT)],
        check=True,
        capture_output=True,
        cwd=work,
    )
    wheel = next(work.glob("quizbot-*.whl"))
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    deps = [sysconfig.get_paths()["purelib"], *site.getsitepackages()]
    (Path(purelib) / "quizbot-test-deps.pth").write_text("\n".join(dict.fromkeys(deps)) + "\n")
    return venv


def _installed(venv: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    home = venv.parent  # outside the checkout: nothing there to find banks next to
    return subprocess.run(
        [str(venv / "bin" / "quizbot"), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=home,
        env={**os.environ, **NO_TOKENS, "QUIZBOT_DB": str(home / "wheel.db"), "LANG": "C"},
        timeout=60,
        check=False,
    )


@pytest.mark.e2e
def test_the_wheel_carries_the_banks_and_plays(wheel_venv: Path) -> None:
    where = subprocess.run(
        [str(wheel_venv / "bin" / "python"), "-c", "import bot; print(bot.__file__)"],
        capture_output=True,
        text=True,
        cwd=wheel_venv.parent,
        check=True,
    ).stdout
    assert str(wheel_venv) in where and str(ROOT) not in where, "not the installed copy"
    listed = _installed(wheel_venv, "banks", "list")
    assert listed.returncode == 0, listed.stderr
    assert "offloading (also: offload, zero-offload, optimizer-offloading)" in listed.stdout
    assert "mixed-precision (also: mixed_precision, amp, mixedprecision)" in listed.stdout
    checked = _installed(wheel_venv, "banks", "check")
    assert checked.returncode == 0 and " 0 error(s)" in checked.stdout
    # One question drawn at random: a choice takes "A"; an estimate (a time or an amount
    # of memory) is asked again until a value of its kind comes.
    played = _installed(
        wheel_venv, "play", "offloading", "--questions", "1", stdin="A\n1 s\n100 GB\n"
    )
    assert played.returncode == 0, played.stderr
    assert "Question 1 of 1 · Optimizer state offloading to CPU and NVMe" in played.stdout
    assert "Quiz complete · Optimizer state offloading to CPU and NVMe" in played.stdout
    assert played.stderr == ""


def test_run_without_a_terminal_or_tokens_exits_2_naming_the_tokens(tmp_path: Path) -> None:
    env = {**NO_TOKENS, "QUIZBOT_DB": str(tmp_path / "q.db")}
    done = subprocess.run(
        [sys.executable, "-m", "adapters.cli", "run"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""  # no question printed into a container's log
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("quizbot: no chat platform is configured: set SLACK_BOT_TOKEN")
    assert "DISCORD_TOKEN" in lines[0] and "standard input is not a terminal" in lines[0]
    assert not (tmp_path / "q.db").exists()


def test_run_all_runs_what_is_configured_and_says_when_nothing_is(tmp_path: Path) -> None:
    done = run_quizbot("run", "all", env={**NO_TOKENS, "QUIZBOT_DB": str(tmp_path / "q.db")})
    assert done.returncode == 2
    assert done.stderr.startswith("quizbot: no chat platform is configured: set SLACK_BOT_TOKEN")


def test_version_and_help() -> None:
    version = run_quizbot("--version")
    assert version.returncode == 0 and version.stdout == "quizbot 0.2.0\n"
    helped = run_quizbot("--help")
    words = " ".join(helped.stdout.split())  # argparse wraps to the terminal's width
    assert (
        "quizbot: quizzes for ML engineering teams, on Slack, Discord and in the terminal" in words
    )
    assert "``" not in helped.stdout


def test_zero_questions_is_refused(tmp_path: Path) -> None:
    done = run_quizbot("play", "offloading", "--questions", "0", "--db", str(tmp_path / "q.db"))
    assert done.returncode == 2
    assert "--questions: must be a whole number ≥ 1, not '0'" in done.stderr


def test_leaderboard_of_an_unknown_topic_exits_2(tmp_path: Path) -> None:
    done = run_quizbot("leaderboard", "--bank", "nosuch", "--db", str(tmp_path / "q.db"))
    assert done.returncode == 2
    assert "I don't know the topic “nosuch”." in done.stdout
    empty = run_quizbot("leaderboard", "--db", str(tmp_path / "q.db"), env={"LANG": "C"})
    assert "No points yet: be the first with quizbot play <topic>!" in empty.stdout
    assert "/quiz" not in empty.stdout  # chat syntax has no place in the terminal


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    for command in ("banks export", f"play offloading --db {tmp_path / 'q.db'}"):
        done = subprocess.run(
            f"printf 'A\\nB\\nC\\n' | {sys.executable} -m adapters.cli {command} | head -c 10",
            shell=True,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.stderr == "", done.stderr
        assert len(done.stdout) == 10


def test_the_default_language_setting_reaches_the_terminal(tmp_path: Path) -> None:
    done = run_quizbot(
        "play",
        "offloading",
        "--db",
        str(tmp_path / "q.db"),
        stdin="q\n",
        env={"QUIZBOT_DEFAULT_LANG": "bn", "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""},
    )
    assert "প্রশ্ন 1 / 17 · CPU এবং NVMe-তে অপ্টিমাইজার স্টেট অফলোডিং" in done.stdout
    assert "থামানো হলো। আপনার অগ্রগতি সেভ করা আছে" in done.stdout


def test_resuming_says_so_and_speaks_the_language_asked_for(tmp_path: Path) -> None:
    db = str(tmp_path / "q.db")
    first = run_quizbot("play", "offloading", "--db", db, "--lang", "en", stdin="A\nq\n")
    assert "Question 1 of 17" in first.stdout
    again = run_quizbot("play", "offloading", "--db", db, "--lang", "hi", stdin="q\n")
    assert "आपका अधूरा क्विज़ प्रश्न 2 / 17 से जारी है।" in again.stdout
    assert "प्रश्न 2 / 17 · " in again.stdout
    assert "रोक दिया। आपकी प्रगति सेव है" in again.stdout
    assert "Question" not in again.stdout


def test_several_slack_workers_need_http_and_postgresql(tmp_path: Path) -> None:
    env = {
        "SLACK_BOT_TOKEN": "xoxb-1-2-abc",
        "SLACK_SIGNING_SECRET": "0" * 32,
        "QUIZBOT_DB": str(tmp_path / "q.db"),
    }
    sqlite = run_quizbot("run", "slack", "--http", "--workers", "2", env=env)
    assert sqlite.returncode == 2
    assert sqlite.stderr == (
        "quizbot: --workers needs PostgreSQL (QUIZBOT_DB=postgresql://…): a SQLite file is"
        " written by one process\n"
    )
    assert not (tmp_path / "q.db").exists()
    socket_mode = run_quizbot("run", "slack", "--workers", "2", env=env)
    assert socket_mode.returncode == 2
    assert "--workers runs several HTTP processes on one port: add --http" in socket_mode.stderr
