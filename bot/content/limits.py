"""How big a bank may be: numbers a real team never meets (the largest shipped bank has
13 questions, its longest prompt 284 characters) and a hostile file always does. They
are checked while a file is read, before anything is built from it, so the work a file
can cause is bounded whoever sends it; docs/IMPORT.md lists them for bank authors."""

from __future__ import annotations

from collections.abc import Mapping

FILE_BYTES = 2_000_000  # one bank file, uploaded or on disk (1 MB holds ~2,500 questions)
QUESTIONS = 5_000  # in one bank
TOO_MANY_QUESTIONS = f"more than {QUESTIONS:,} questions: split the file into topics"
# Characters in one text, by what it is: a chat message shows a prompt and its choices
# together, and an explanation after each answer.
TEXT: Mapping[str, int] = {
    "title": 200,
    "description": 1_000,
    "prompt": 1_000,
    "choice": 300,
    "explanation": 2_000,
    "references": 500,  # one reference (a URL)
    "tags": 60,  # one tag
}
TEXT_DEFAULT = 200  # anything else: ids, aliases, languages
# A workspace's own banks, all together (their stored text, counted in characters).
WORKSPACE_BANKS = 100
WORKSPACE_CHARACTERS = 10_000_000
# Questions waiting for an admin: enough for a busy team's week, not a flood.
PENDING_PER_MEMBER = 10
PENDING_PER_WORKSPACE = 200


def text_limit(what: str) -> int:
    """The limit for a text named as the bank reader names it ("choice 3 (en)")."""
    return TEXT.get(what.split(" ", 1)[0], TEXT_DEFAULT)


def over(what: str, length: int) -> str | None:
    """The message when a text is too long, else None."""
    limit = text_limit(what)
    if length <= limit:
        return None
    return f"{what} is {length:,} characters: at most {limit:,}"
