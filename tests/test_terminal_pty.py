"""The terminal adapter under a real pseudo-terminal: Ctrl-C, Ctrl-D and wrapping at the
terminal's width, as a person at a keyboard meets them."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from adapters.screen import width

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[1]
PROMPTS = {"en": "q to stop] > ", "hi": "रोकने के लिए q] > ", "bn": "থামাতে q] > "}
STOPPED = {
    "en": "Stopped. Your progress is saved: run the same command to continue.",
    "hi": "रोक दिया। आपकी प्रगति सेव है: जारी रखने के लिए वही कमांड फिर से चलाएँ।",
    "bn": "থামানো হলো। আপনার অগ্রগতি সেভ করা আছে: চালিয়ে যেতে একই কমান্ড আবার চালান।",
}


class Session:
    """A program (``quizbot`` by default) on a pseudo-terminal of a given size."""

    def __init__(self, argv: list[str], env: dict[str, str], columns: int = 80) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty is its controlling terminal
            # A shell starts a background job with SIGINT ignored, and children inherit
            # that: the program must meet Ctrl-C as a person's shell would deliver it.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
            os.execvpe(argv[0], argv, env)
        self.pid, self.fd, self.output = pid, fd, ""
        self.status: int | None = None

    def read_until(self, text: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.output:
            left = deadline - time.monotonic()
            assert left > 0, f"never saw {text!r} in:\n{self.output}"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                assert chunk, f"the program ended before {text!r}:\n{self.output}"
                self.output += chunk.decode("utf-8", "replace").replace("\r", "")
        return self.output

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def exit_code(self, timeout: float) -> int:
        """Waits for the program to end, reading what it still says; fails past timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                    self.output += chunk.decode("utf-8", "replace").replace("\r", "")
                except OSError:
                    pass
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
        raise AssertionError(f"still running {timeout} s later:\n{self.output}")

    def close(self) -> None:
        """Ends the program and whatever it started: the pty's child leads its own
        process group (pty.fork makes it a session leader)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)
        if self.status is None:
            os.waitpid(self.pid, 0)
        os.close(self.fd)


@pytest.fixture
def session(tmp_path: Path) -> Iterator[type[Session]]:
    started: list[Session] = []

    def start(*args: str, lang: str = "en", colour: bool = False) -> Session:
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(tmp_path),
            "LANG": "C.UTF-8",
            "QUIZBOT_DB": str(tmp_path / "quiz.db"),
            "QUIZBOT_DEFAULT_LANG": lang,
            "PYTHONPATH": str(ROOT),
            **({} if colour else {"NO_COLOR": "1"}),
        }
        started.append(Session([sys.executable, "-m", "adapters.cli", *args], env))
        return started[-1]

    yield start  # type: ignore[misc]
    for one in started:
        one.close()


@pytest.fixture(params=["sigint default", "sigint ignored"])
def started_as(request: pytest.FixtureRequest) -> Iterator[None]:
    """The test process as a terminal starts it, and as a background job of a script
    (SIGINT ignored, which children inherit): the programs it starts behave the same."""
    if request.param == "sigint ignored":
        before = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, before)
    else:
        yield


@pytest.mark.usefixtures("started_as")
def test_ctrl_c_stops_at_once_with_the_saved_progress_line(session: type[Session]) -> None:
    quiz = session("play", "offloading")
    quiz.read_until(PROMPTS["en"])
    quiz.send(b"\x03")  # Ctrl-C: the terminal sends SIGINT
    assert quiz.exit_code(timeout=5) == 130
    assert STOPPED["en"] in quiz.output
    assert "Traceback" not in quiz.output


def test_ctrl_d_at_the_answer_prompt_is_like_q(session: type[Session]) -> None:
    quiz = session("play", "offloading")
    quiz.read_until(PROMPTS["en"])
    quiz.send(b"\x04")  # Ctrl-D: end of input
    assert quiz.exit_code(timeout=5) == 0
    assert STOPPED["en"] in quiz.output and "Traceback" not in quiz.output


def test_ctrl_d_at_the_topic_prompt_is_like_q(session: type[Session]) -> None:
    run = session("run")
    run.read_until("Topic [")
    run.send(b"\x04")
    assert run.exit_code(timeout=5) == 0
    assert (
        STOPPED["en"] in run.output
        and "Traceback" not in run.output
        and "Error" not in (run.output)
    )


def _explanations() -> list[dict[str, str]]:
    bank = yaml.safe_load((ROOT / "banks" / "offloading.yaml").read_text(encoding="utf-8"))
    return [q["explanation"] for q in bank["questions"]]


@pytest.mark.parametrize("lang", ["en", "hi", "bn"])
def test_text_is_wrapped_to_80_columns_at_spaces(session: type[Session], lang: str) -> None:
    quiz = session("play", "offloading", lang=lang)
    quiz.read_until(PROMPTS[lang])
    quiz.send(b"A\r")
    quiz.read_until(PROMPTS[lang])
    quiz.send(b"q\r")
    assert quiz.exit_code(timeout=10) == 0
    assert STOPPED[lang] in " ".join(quiz.output.split())
    lines = quiz.output.split("\n")
    too_wide = [line for line in lines if width(line) > 80]
    assert too_wide == []
    # The explanation shown is whole: words joined again by the wrapping's spaces.
    flat = " ".join(quiz.output.split())
    shown = [e[lang] for e in _explanations() if " ".join(e[lang].split()) in flat]
    assert len(shown) == 1, "one explanation, every word intact"
    assert max(width(line) for line in lines) > 60, "long lines are filled, not chopped"
    assert not re.search(r"[A-Za-z]{2,}-\n", quiz.output), "no word broken at a hyphen"


def test_the_first_command_plays_a_topic_typed_at_its_prompt(session: type[Session]) -> None:
    """``quizbot run`` with no tokens, as the quick start has a newcomer type it."""
    pick_a_topic_and_answer(session("run"))


def pick_a_topic_and_answer(run: Session, starting: float = 30) -> None:
    """At ``quizbot run``'s topic prompt (within ``starting`` seconds): offloading, one
    answer, then q; the answer is saved and the program ends cleanly."""
    run.read_until("Topic [", timeout=starting)
    run.send(b"offloading\r")
    run.read_until("Question 1 of 17 · Optimizer state offloading to CPU and NVMe")
    run.read_until(PROMPTS["en"])
    run.send(b"A\r")
    run.read_until("1 of 17 answered")
    run.read_until(PROMPTS["en"])
    run.send(b"q\r")
    assert run.exit_code(timeout=30) == 0
    assert "Traceback" not in run.output and STOPPED["en"] in run.output


def test_run_terminal_with_a_topic_starts_its_first_question(session: type[Session]) -> None:
    run = session("run", "terminal", "--topic", "offloading")
    run.read_until("Question 1 of 17 · Optimizer state offloading to CPU and NVMe")
    run.read_until(PROMPTS["en"])
    run.send(b"\x04")
    assert run.exit_code(timeout=10) == 0
    assert "Traceback" not in run.output


def test_a_person_at_a_terminal_sees_right_and_wrong_in_colour(session: type[Session]) -> None:
    quiz = session("play", str(ROOT / "tests" / "fixtures" / "tiny.yaml"), colour=True)
    quiz.read_until(PROMPTS["en"])
    quiz.send(b"A\r")  # right or wrong, whichever question came first: both are coloured
    quiz.read_until(PROMPTS["en"])
    quiz.send(b"q\r")
    assert quiz.exit_code(timeout=10) == 0
    verdict = re.search(r"\x1b\[1;3([12])m(✅ Right!|❌ Not quite\.)\x1b\[0m", quiz.output)
    assert verdict, quiz.output
    assert re.search(r"\x1b\[1;32mRight answer: [A-D]\. (Two|Six)\x1b\[0m", quiz.output)
    assert "\x1b[1mQuestion 1 of 2 · Tiny test bank\x1b[0m" in quiz.output


def test_an_estimate_is_typed_at_the_prompt_until_it_reads(session: type[Session]) -> None:
    kv = ROOT / "tests" / "fixtures" / "estimates" / "kv.yaml"
    quiz = session("play", str(kv))
    quiz.read_until("[your estimate: a number and a unit, q to stop] > ")
    quiz.send(b"512 ms\n")
    quiz.read_until("“512 ms” is a time, but this question asks for an amount of memory.")
    quiz.send(b"0.5 MiB\n")
    out = quiz.read_until("Exact.")
    assert "Your estimate: 0.5 MiB (= 512 KiB)\nThe answer: 512 KiB\nExact." in out
    assert quiz.exit_code(timeout=10) == 0
    assert "Traceback" not in quiz.output
