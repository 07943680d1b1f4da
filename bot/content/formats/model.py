"""What every import format reads into and writes from: questions in one language as
the file gives them (``Draft``), before ids, missing fields and the bank's own
validation are applied (``importer.py``), and the small conventions the formats share."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bot.content.banks import Bank, BankError

# True/false questions become two choices, in the bank's language, "true" first.
TRUE_FALSE: Mapping[str, tuple[str, str]] = {
    "en": ("True", "False"),
    "hi": ("सही", "ग़लत"),
    "bn": ("সত্য", "মিথ্যা"),
}
# Formats without a field of their own for references (GIFT's general feedback, Moodle
# XML's) end the explanation with them: "References: https://… https://…".
_REFERENCES = re.compile(r"\s*\bReferences?:((?:\s+https?://\S+)+)\s*$", re.IGNORECASE)
_SLUG_LIMIT = 40


@dataclass(frozen=True)
class Draft:
    """One question as its file gives it, in one language."""

    line: int  # where it starts in the input, for every problem reported about it
    prompt: str
    choices: tuple[str, ...]
    answer: int  # 0-based
    explanation: str = ""
    references: tuple[str, ...] = ()
    name: str = ""  # the file's own name for it (GIFT title, Moodle name, CSV id)
    difficulty: str = ""  # "" when the format has none: the bank's default
    # A numerical question, as an estimate: (answer, tolerance) as a bank writes them
    # ("512 KiB", "12.5%"); it then has no choices and ``answer`` is -1.
    estimate: tuple[str, str] | None = None


@dataclass(frozen=True)
class Parsed:
    questions: tuple[Draft, ...]
    problems: tuple[BankError, ...]
    title: str = ""  # what the file calls its questions (a category), if anything


@dataclass(frozen=True)
class Format:
    name: str
    extension: str | None  # the format is guessed from it; None: it must be named
    read: Callable[[str, str, str], Parsed]  # text, path, language
    write: Callable[[Bank, str], str]  # bank, language
    # Where the format keeps an explanation and references, for the import's errors.
    keeps: Mapping[str, str]
    # Whether it has numerical questions for estimates; a writer of one that has not
    # leaves them out (and the export says so).
    estimates: bool = True


@dataclass
class Problems:
    """A reader's problems, each naming the input file, a line and the question (its
    position in the file, as the bank validator names a question without an id)."""

    path: str
    found: list[BankError] = field(default_factory=list)

    def add(self, line: int, number: int | None, message: str) -> None:
        question = f"#{number}" if number is not None else None
        self.found.append(BankError(self.path, line, message, question_id=question))

    def unsupported(self, line: int, number: int, what: str) -> None:
        self.add(
            line,
            number,
            f"{what}: not supported (only multiple choice with one right answer, and true/false)",
        )


def split_references(text: str) -> tuple[str, tuple[str, ...]]:
    """An explanation and the references that end it ("Reference: https://…")."""
    found = _REFERENCES.search(text)
    if not found:
        return text, ()
    return text[: found.start()].strip(), tuple(found.group(1).split())


def join_references(explanation: str, references: tuple[str, ...]) -> str:
    if not references:
        return explanation
    label = "References:" if len(references) > 1 else "Reference:"
    return "\n".join(p for p in (explanation, f"{label} {' '.join(references)}") if p)


def tidy(text: str) -> str:
    """Spaces collapsed within each line, blank lines and the ends dropped."""
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def slug(text: str) -> str:
    """An id from a name or a prompt: lowercase ASCII words joined by '-', cut at a word
    boundary to fit an id; empty when nothing is left (a prompt in Devanagari)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    out = ""
    for word in words:
        longer = f"{out}-{word}" if out else word
        if len(longer) > _SLUG_LIMIT:
            break
        out = longer
    return out or (words[0][:_SLUG_LIMIT] if words else "")


def category_title(path: str) -> str:
    """The last part of a Moodle category path ("$course$/top/ML//AI" → "ML/AI")."""
    parts = re.split(r"(?<!/)/(?!/)", path.strip())
    return parts[-1].replace("//", "/").strip()


def category_path(title: str) -> str:
    return "$course$/top/" + title.replace("/", "//")


def line_at(text: str, offset: int, first: int = 1) -> int:
    """The line of ``offset`` in ``text`` whose first line is ``first``."""
    return first + text.count("\n", 0, offset)
