"""The terminal adapter: a quiz on standard input and output, through the same engine
and store as the chat platforms. Reads one answer letter per line, so it can be
scripted with a pipe as well as played by hand. On a terminal, text is wrapped to its
width; every line is in the player's language."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import shutil
import sys
import threading
from typing import TextIO

from wcwidth import wcswidth

from adapters.phrases import TEXT, render
from bot.play.engine import Engine
from bot.play.refs import PlayerRef, ScopeRef
from bot.ui.views import Feedback, QuestionView

SCOPE = ScopeRef("terminal", "local", "terminal")
STOP_WORDS = ("q", "quit")


def terminal_player(name: str) -> PlayerRef:
    return PlayerRef("terminal", name, name)


def _width(text: str) -> int:
    shown = wcswidth(text)
    return shown if shown >= 0 else len(text)  # a control character: count code points


def wrap(text: str, width: int) -> str:
    """Wrap each line at spaces to ``width`` columns of display width (Devanagari and
    Bengali vowel signs take none, emoji two). A word is never split: one longer than
    the line, such as a URL, stands alone. Continuation lines keep the indent."""
    out = []
    for line in text.split("\n"):
        body = line.lstrip(" ")
        indent = line[: len(line) - len(body)]
        current = indent
        for word in body.split(" "):
            candidate = f"{current} {word}" if current.strip() else f"{indent}{word}"
            if current.strip() and _width(candidate) > width:
                out.append(current)
                current = f"{indent}{word}"
            else:
                current = candidate
        out.append(current)
    return "\n".join(out)


class LineReader:
    """Lines from a stream, read by a daemon thread: a blocked read never keeps the
    process from exiting on Ctrl-C (``asyncio.to_thread`` would be joined at exit). A
    stream with a file descriptor is read with ``os.read``, which holds no lock of the
    stream's buffer that the interpreter's shutdown would wait for."""

    def __init__(self, stream: TextIO) -> None:
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        threading.Thread(target=self._pump, args=(stream,), name="stdin", daemon=True).start()

    def _put(self, line: str | None) -> None:
        self._loop.call_soon_threadsafe(self._lines.put_nowait, line)

    def _pump(self, stream: TextIO) -> None:
        try:
            try:
                fd = stream.fileno()
            except (OSError, ValueError):  # io.StringIO and the like
                for line in iter(stream.readline, ""):
                    self._put(line)
                return
            decoder = codecs.getincrementaldecoder(stream.encoding or "utf-8")("replace")
            pending = ""
            while chunk := os.read(fd, 4096):
                pending += decoder.decode(chunk)
                *lines, pending = pending.split("\n")
                for line in lines:
                    self._put(line + "\n")
            if pending + decoder.decode(b"", final=True):
                self._put(pending)
        except (OSError, ValueError, RuntimeError):  # the stream or the loop is closed
            pass
        finally:
            with contextlib.suppress(RuntimeError):
                self._put(None)

    async def line(self) -> str | None:
        """The next line, or None at the end of input (Ctrl-D, end of a pipe)."""
        return await self._lines.get()


class Terminal:
    """Output in the player's language, wrapped to the terminal's width when it is one."""

    def __init__(self, locale: str, stdout: TextIO = sys.stdout) -> None:
        self.locale = locale
        self.stdout = stdout
        self.width = shutil.get_terminal_size().columns if stdout.isatty() else None

    def say(self, text: str = "") -> None:
        print(wrap(text, self.width) if self.width else text, file=self.stdout, flush=True)

    def prompt(self, text: str) -> None:
        print(text, end="", file=self.stdout, flush=True)

    def stopped(self) -> None:
        self.say("\n" + TEXT.t(self.locale, "stopped"))


async def play(
    engine: Engine,
    topic: str,
    player: PlayerRef,
    locale: str,
    *,
    questions: int | None = None,
    new: bool = False,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
) -> int:
    """Play one quiz; returns the process exit code (2 for an unknown topic). End of
    input stops like ``q``: the progress is saved and the same command continues."""
    out = Terminal(locale, stdout)
    reader = LineReader(stdin)
    started = await engine.start_quiz(player, SCOPE, topic, locale, questions, resume=not new)
    if not isinstance(started, QuestionView):
        out.say(render(started))
        return 2
    if started.resumed:
        out.say(TEXT.t(locale, "resuming", number=started.number, total=started.total))
    if not await _answer(engine, started, player, out, reader, stdin.isatty()):
        return 0
    board = await engine.leaderboard(player, SCOPE, locale, topic=topic)
    out.say()
    out.say(render(board))
    return 0


async def review(
    engine: Engine,
    player: PlayerRef,
    locale: str,
    *,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
) -> int:
    """Review the player's due cards (or, with none due, what they missed lately)."""
    out = Terminal(locale, stdout)
    started = await engine.review(player, SCOPE, locale)
    if isinstance(started, QuestionView):
        await _answer(engine, started, player, out, LineReader(stdin), stdin.isatty())
    else:
        out.say(render(started))
    return 0


async def _answer(
    engine: Engine,
    view: QuestionView,
    player: PlayerRef,
    out: Terminal,
    reader: LineReader,
    interactive: bool,
) -> bool:
    """Ask the run's questions from ``view`` on; False when the player stopped early."""
    shown: object = view
    locale = out.locale
    while isinstance(shown, QuestionView):
        out.say()
        out.say(render(shown))
        letters = {c.letter: c for c in shown.choices}
        choice = None
        while choice is None:
            if interactive:
                out.prompt("\n" + TEXT.t(locale, "prompt", letters="/".join(letters)))
            line = await reader.line()
            if line is None or line.strip().lower() in STOP_WORDS:
                out.stopped()
                return False
            choice = letters.get(line.strip().upper())
            if choice is None:
                out.say(TEXT.t(locale, "pick", letters=", ".join(letters)))
        result = await engine.click(player, choice.action_id)
        out.say()
        out.say(render(result))
        if isinstance(result, Feedback) and result.next_action:
            shown = await engine.click(player, result.next_action)
        else:
            shown = None
    return True
