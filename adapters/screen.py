"""Text on a terminal: its width as terminals draw it, wrapping at spaces, and colour.

Every command's output goes through :class:`Screen`, so a quiz, the stats, the topic
menu and the reports wrap alike, and colour appears only where a person reads it.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import unicodedata
from collections.abc import Mapping
from enum import Enum
from typing import TextIO

from wcwidth import wcswidth, wcwidth

_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
# Control characters other than a line break or a tab: text from a bank or a player could
# carry a terminal's escape sequences (clear the screen, set the window title); they are
# shown as \xNN instead of being obeyed.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    """``text`` with every control character but a line break or a tab shown as ``\\xNN``."""
    return _CONTROL.sub(lambda found: f"\\x{ord(found[0]):02x}", text)


class Colour(Enum):
    """ANSI SGR codes for the few things colour marks."""

    BOLD = "1"
    RIGHT = "1;32"  # bold green
    WRONG = "1;31"  # bold red
    DIM = "2"


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal. wcwidth gives spacing vowel signs (category
    Mc: Bengali া ি ে, Devanagari ा ि ी, anusvara ং) no width, but terminals draw them one
    column wide (glibc's wcwidth, which tmux and most terminals use, does): counted as 1.
    Colour escapes take none."""
    plain = _ESCAPE.sub("", text)
    shown = wcswidth(plain)
    if shown < 0:  # a control character: count code points
        shown = len(plain)
    spacing_marks = sum(1 for c in plain if unicodedata.category(c) == "Mc" and wcwidth(c) == 0)
    return shown + spacing_marks


# A lettered choice, a numbered item or a bullet: its continuation lines hang under the
# text, not under the letter.
_HANGING = re.compile(r"^ *(?:[A-Z]\. |\d+\. |• )")


def wrap(text: str, columns: int) -> str:
    """Wrap each line at spaces to ``columns`` of display width. A word is never split:
    one longer than the line, such as a URL, stands alone. Continuation lines keep the
    line's indent, and hang under the text of a choice, an item or a bullet."""
    out = []
    for line in text.split("\n"):
        body = line.lstrip(" ")
        hanging = _HANGING.match(line)
        indent = " " * (hanging.end() if hanging else len(line) - len(body))
        lead = line[: len(line) - len(body)]
        current = ""
        for word in body.split(" "):
            candidate = f"{current} {word}" if current.strip() else f"{lead}{word}"
            if current.strip() and width(candidate) > columns:
                out.append(current)
                current = f"{indent}{word}"
            else:
                current = candidate
        out.append(current or line)
    return "\n".join(out)


def wants_colour(stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """Colour for a person at a terminal: not in a pipe or a file, not where NO_COLOR is
    set to anything (no-color.org), not on a dumb terminal."""
    return stream.isatty() and not environ.get("NO_COLOR") and environ.get("TERM") != "dumb"


class Screen:
    """Output wrapped to the terminal's width when it is one, coloured when a person
    reads it; plain and unwrapped in a pipe, so scripts see stable text."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout
        tty = self.stream.isatty()
        self.columns = shutil.get_terminal_size().columns if tty else None
        self.colour = wants_colour(self.stream)

    def paint(self, text: str, colour: Colour | None) -> str:
        if colour is None or not self.colour:
            return text
        return f"\x1b[{colour.value}m{text}\x1b[0m"

    def fit(self, text: str, marks: Mapping[str, Colour] | None = None) -> str:
        """``text`` wrapped; each line that ``marks`` names, in its colour (every piece of
        it once wrapped, so a colour never runs on past a line's end)."""
        shown = []
        for line in visible(text).split("\n"):
            wrapped = wrap(line, self.columns) if self.columns else line
            colour = (marks or {}).get(line)
            shown.append("\n".join(self.paint(part, colour) for part in wrapped.split("\n")))
        return "\n".join(shown)

    def say(self, text: str = "", marks: Mapping[str, Colour] | None = None) -> None:
        print(self.fit(text, marks), file=self.stream, flush=True)

    def prompt(self, text: str) -> None:
        print(visible(text), end="", file=self.stream, flush=True)
