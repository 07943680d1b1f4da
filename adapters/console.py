"""The terminal adapter: a quiz on standard input and output, through the same engine
and store as the chat platforms. Reads one answer letter per line, so it can be
scripted with a pipe as well as played by hand."""

from __future__ import annotations

import asyncio
import sys
from typing import TextIO

from bot.engine import Engine
from bot.plain import render
from bot.refs import PlayerRef, ScopeRef
from bot.views import Feedback, QuestionView

SCOPE = ScopeRef("terminal", "local", "terminal")


def terminal_player(name: str) -> PlayerRef:
    return PlayerRef("terminal", name, name)


async def _read_line(stream: TextIO) -> str | None:
    line = await asyncio.to_thread(stream.readline)
    return line if line else None


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
    """Play one quiz; returns the process exit code (2 for an unknown topic)."""
    interactive = stdin.isatty()

    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    view = await engine.start_quiz(player, SCOPE, topic, locale, questions, resume=not new)
    if not isinstance(view, QuestionView):
        say(render(view))
        return 2
    while isinstance(view, QuestionView):
        say()
        say(render(view))
        letters = {c.letter: c for c in view.choices}
        choice = None
        while choice is None:
            if interactive:
                print(f"\n[{'/'.join(letters)}, q to stop] > ", end="", file=stdout, flush=True)
            line = await _read_line(stdin)
            if line is None or line.strip().lower() in ("q", "quit"):
                say("\nStopped. Your progress is saved: run the same command to continue.")
                return 0
            choice = letters.get(line.strip().upper())
            if choice is None:
                say(f"Please answer with one of {', '.join(letters)}.")
        result = await engine.click(player, choice.action_id)
        say()
        say(render(result))
        if isinstance(result, Feedback) and result.next_action:
            view = await engine.click(player, result.next_action)
        else:
            view = None
    board = await engine.leaderboard(player, SCOPE, locale, topic=topic)
    say()
    say(render(board))
    return 0
