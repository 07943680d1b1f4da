"""Wrapping checked against a real terminal: tmux draws the quiz at 80 columns, and no
line of it may be wrapped by tmux itself (a line our width function measured too short
would be). tmux, like most terminals, draws spacing vowel signs one column wide."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# tmux drops a line's trailing spaces: the prompts as captured.
PROMPTS = {"en": "q to stop] >", "hi": "रोकने के लिए q] >", "bn": "থামাতে q] >"}

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


class Tmux:
    """One tmux server of the test's own (its own socket), one 80×40 window."""

    def __init__(self) -> None:
        self.socket = f"quizbot-{uuid.uuid4().hex[:8]}"

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        return done.stdout

    def screen(self, joined: bool = False) -> list[str]:
        """Every line drawn since the start; ``joined``: lines tmux wrapped made whole."""
        flags = "-pJ" if joined else "-p"
        return self("capture-pane", flags, "-S", "-", "-E", "-", "-t", "quiz").rstrip().split("\n")

    def wait_for(self, text: str, after: int, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while " ".join(self.screen(joined=True)).count(text) <= after:
            assert time.monotonic() < deadline, f"never saw {text!r}:\n" + "\n".join(self.screen())
            time.sleep(0.1)


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    server = Tmux()
    try:
        yield server
    finally:
        subprocess.run(
            ["tmux", "-L", server.socket, "kill-server"], capture_output=True, check=False
        )


@pytest.mark.parametrize("lang", ["en", "hi", "bn"])
def test_no_line_is_wrapped_by_the_terminal(tmux: Tmux, tmp_path: Path, lang: str) -> None:
    env = {
        "HOME": str(tmp_path),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        "QUIZBOT_DB": str(tmp_path / "quiz.db"),
        "PYTHONPATH": str(ROOT),
    }
    command = " ".join(
        [
            *(f"{key}={value}" for key, value in env.items()),
            sys.executable,
            "-m adapters.cli play peft --new --lang",
            lang,
            "; sleep 30",
        ]
    )
    tmux("new-session", "-d", "-s", "quiz", "-x", "80", "-y", "40", command)
    tmux("set-option", "-t", "quiz", "history-limit", "5000")
    for answered, key in enumerate(["A", "B", "C"]):
        tmux.wait_for(PROMPTS[lang], after=answered)
        tmux("send-keys", "-t", "quiz", key, "Enter")
    tmux.wait_for(PROMPTS[lang], after=3)
    drawn, whole = tmux.screen(), tmux.screen(joined=True)
    assert "Traceback" not in "\n".join(drawn)
    assert len(" ".join(whole)) > 2000, "three questions and their explanations were drawn"
    wrapped_by_tmux = [line for line in whole if line not in drawn]
    assert wrapped_by_tmux == []
