"""The terminal adapter: a quiz on standard input and output, through the same engine
and store as the chat platforms. Reads one answer letter per line, so it can be
scripted with a pipe as well as played by hand. On a terminal, text is wrapped to its
width; every line is in the player's language."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import sys
import threading
from dataclasses import dataclass
from typing import TextIO

from adapters.phrases import TEXT, render
from adapters.screen import Colour, Screen
from bot.domain import actions
from bot.domain.identities import PlayerRef, ScopeRef
from bot.services.engine import Engine
from bot.services.requests import AnswerEstimate, Context, button
from bot.ui import plain
from bot.ui.layout import feedback_verdict
from bot.ui.views import Feedback, Notice, QuestionView, View

SCOPE = ScopeRef("terminal", "local", "terminal")
STOP_WORDS = ("q", "quit")


def terminal_player(name: str) -> PlayerRef:
    return PlayerRef("terminal", name, name)


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


class Terminal(Screen):
    """A :class:`Screen` that speaks the player's language."""

    def __init__(self, locale: str, stdout: TextIO | None = None) -> None:
        super().__init__(stdout)
        self.locale = locale

    def stopped(self) -> None:
        self.say("\n" + TEXT.t(self.locale, "stopped"))


@dataclass(frozen=True)
class Missed:
    number: int
    prompt: str
    answer: str  # "D. the right choice"


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
    elif questions and questions > started.total:
        out.say(TEXT.t(locale, "fewer_questions", total=started.total))
    missed = await _answer(engine, started, player, out, reader, stdin.isatty())
    if missed is None:
        return 0
    await _closing(engine, player, out, missed)
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
    if not isinstance(started, QuestionView):
        out.say(render(started))
        return 0
    missed = await _answer(engine, started, player, out, LineReader(stdin), stdin.isatty())
    if missed is not None:
        await _closing(engine, player, out, missed)
    return 0


async def _closing(engine: Engine, player: PlayerRef, out: Terminal, missed: list[Missed]) -> None:
    """After the summary: the questions missed with their right answers, and when
    ``quizbot review`` will have them again."""
    locale = out.locale
    if missed:
        out.say()
        out.say(TEXT.t(locale, "missed_title"), {TEXT.t(locale, "missed_title"): Colour.BOLD})
        for one in missed:
            right = f"      → {one.answer}"  # under the question's text
            out.say(f"  {one.number:>2}. {one.prompt}\n{right}", {right: Colour.RIGHT})
    days = await engine.next_review_in(player, SCOPE)
    if days is not None:
        out.say()
        if days <= 1:
            out.say(TEXT.t(locale, "review_now" if days == 0 else "review_tomorrow"))
        else:
            out.say(TEXT.t(locale, "review_in", days=days))


def _feedback_marks(result: Feedback) -> dict[str, Colour]:
    """The lines of a feedback that colour marks, as the layout words them: the verdict,
    the answer chosen when it was wrong, and the right one (asked for with no more lines
    after it, the last detail)."""
    said, details = feedback_verdict(result)
    tone = Colour.RIGHT if result.correct else Colour.WRONG
    shown = [plain.line(detail) for detail in details]
    if result.estimate is not None:  # the value given, the true one, how far off
        return {said: tone, shown[0]: tone, shown[1]: Colour.RIGHT}
    *chosen, right = shown
    return {said: tone, **dict.fromkeys(chosen, Colour.WRONG), right: Colour.RIGHT}


@dataclass(frozen=True)
class _Asker:
    """Who answers, through which terminal: what asking for one answer needs."""

    engine: Engine
    context: Context
    out: Terminal
    reader: LineReader
    interactive: bool

    async def line(self, prompt: str) -> str | None:
        """The next line typed (after the prompt, at a terminal); None: stop."""
        if self.interactive:
            self.out.prompt("\n" + prompt)
        line = await self.reader.line()
        if line is None or line.strip().lower() in STOP_WORDS:
            return None
        return line.strip()


async def _choose(ask: _Asker, shown: QuestionView) -> View | None:
    """Ask for a letter until one is given; what answering with it shows (None: stop)."""
    letters = {c.letter: c for c in shown.choices}
    while True:
        line = await ask.line(TEXT.t(ask.out.locale, "prompt", letters="/".join(letters)))
        if line is None:
            return None
        choice = letters.get(line.upper())
        if choice is not None:
            return (await ask.engine.handle(button(choice.action_id), ask.context)).view
        ask.out.say(TEXT.t(ask.out.locale, "pick", letters=", ".join(letters)))


async def _estimate(ask: _Asker, shown: QuestionView) -> View | None:
    """Ask for an estimate until one reads; what answering with it shows (None: stop)."""
    assert shown.estimate is not None
    action = actions.decode(shown.estimate.action_id)
    assert isinstance(action, actions.EstimateAction)
    while True:
        line = await ask.line(TEXT.t(ask.out.locale, "estimate_prompt"))
        if line is None:
            return None
        if not line:
            continue
        result = (await ask.engine.handle(AnswerEstimate(action, line), ask.context)).view
        if not (isinstance(result, Notice) and result.kind == "estimate_unreadable"):
            return result
        ask.out.say(result.text)


async def _answer(
    engine: Engine,
    view: QuestionView,
    player: PlayerRef,
    out: Terminal,
    reader: LineReader,
    interactive: bool,
) -> list[Missed] | None:
    """Ask the run's questions from ``view`` on; the questions missed, or None when the
    player stopped early."""
    shown: object = view
    asker = Context(player, SCOPE)
    missed: list[Missed] = []
    while isinstance(shown, QuestionView):
        out.say()
        text = render(shown)
        out.say(text, {text.split("\n", 1)[0]: Colour.BOLD})
        ask = _Asker(engine, asker, out, reader, interactive)
        result = await (_estimate if shown.estimate else _choose)(ask, shown)
        if result is None:
            out.stopped()
            return None
        out.say()
        if not isinstance(result, Feedback):
            out.say(render(result))
            break
        out.say(render(result), _feedback_marks(result))
        if not result.correct:
            answer = (
                result.estimate.truth
                if result.estimate
                else f"{result.answer.letter}. {result.answer.text}"  # type: ignore[union-attr]
            )
            missed.append(Missed(shown.number, shown.prompt, answer))
        following = result.next_action
        shown = (await engine.handle(button(following), asker)).view if following else None
    return missed
