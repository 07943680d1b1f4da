"""The README as a newcomer follows it: every shell command it shows runs as written, and
the quick start, typed into a real terminal on a fresh copy of the repository, reaches a
question and takes an answer."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .test_terminal_pty import Session, pick_a_topic_and_answer

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
QUICK_START, TESTS = (
    "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/quizbot run",
    "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]'"
    " && .venv/bin/python -m pytest -n auto",
)
FAST_TIER = 'python -m pytest -n auto -m "not e2e"'


def shell_commands(markdown: str) -> list[str]:
    """The commands of every ```sh block, one a line."""
    blocks = re.findall(r"^```sh\n(.*?)^```", markdown, flags=re.S | re.M)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_the_readme_is_short_and_its_quick_start_is_two_commands() -> None:
    assert len(README.splitlines()) <= 180
    commands = shell_commands(README)
    assert commands[:2] == [QUICK_START, TESTS]
    assert all("venv" not in command for command in commands[2:])


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert any(line.startswith(TESTS) for line in ci.splitlines()), ci


def test_the_fast_tier_selects_every_test_but_the_end_to_end_ones(tmp_path: Path) -> None:
    """Run as written it would run the suite inside the suite: it is collected instead."""
    assert FAST_TIER in shell_commands(README)
    collect = "--collect-only -q -p no:cacheprovider"
    fast = readme_command(f"{FAST_TIER} {collect}", tmp_path).stdout.splitlines()
    everything = readme_command(f"python -m pytest {collect}", tmp_path).stdout.splitlines()
    e2e = set(everything) - set(fast)
    assert len([line for line in fast if "::" in line]) > 600
    assert "tests/test_readme.py::test_ci_runs_the_readme_test_command" in e2e
    assert "tests/test_banks.py::test_shipped_banks_are_valid_and_complete" in fast


@pytest.mark.parametrize("command", [c for c in shell_commands(README)[2:] if c != FAST_TIER])
def test_every_readme_command_runs_as_written(command: str, tmp_path: Path) -> None:
    """With the virtualenv activated, as the README says, and no tokens set."""
    done = readme_command(command, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert done.stdout.strip(), "every command shows something"


def readme_command(command: str, home: Path) -> subprocess.CompletedProcess[str]:
    """``command`` in bash from the repository, the virtualenv first on PATH."""
    venv_bin = str(Path(sys.executable).parent)
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SLACK_", "DISCORD_", "QUIZBOT_"))
    }
    env.update(PATH=f"{venv_bin}:{env['PATH']}", HOME=str(home), XDG_DATA_HOME="")
    return subprocess.run(
        ["bash", "-c", command],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _fresh_copy(target: Path) -> None:
    """The repository's files as a clone has them (tracked ones, and while developing
    the new ones git does not ignore), without the developer's virtualenv."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            (target / source.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / source.relative_to(ROOT))


def test_the_quick_start_typed_into_a_terminal_reaches_a_question(tmp_path: Path) -> None:
    """The first command a newcomer types, in a fresh copy: it installs, lists the
    topics, plays the one typed at the prompt and takes an answer."""
    clone = tmp_path / "quizbot"
    _fresh_copy(clone)
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        # pip's own cache, where the suite's setup has filled it: installing the same
        # packages again must not depend on the network being fast.
        "PIP_CACHE_DIR": os.environ.get("PIP_CACHE_DIR", str(Path.home() / ".cache" / "pip")),
    }
    run = Session(["bash", "-c", f"cd {clone} && {QUICK_START}"], env)
    try:
        pick_a_topic_and_answer(run, starting=600)  # pip installs first
        assert (tmp_path / ".local" / "share" / "quizbot" / "quizbot.db").exists()
    finally:
        run.close()
