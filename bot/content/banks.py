"""Question banks: YAML files validated into frozen dataclasses.

Validation works on YAML's node tree, so every error can name the file and line it
comes from. A broken file is skipped with its errors; the other banks still load.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from bot.content import limits
from bot.content.estimates import Estimate, Unreadable
from bot.ui.i18n import LOCALES

Text = Mapping[str, str]
T = TypeVar("T")

DIFFICULTIES = ("easy", "medium", "hard")
BANK_KEYS = frozenset({"id", "aliases", "locales", "title", "description", "tags", "questions"})
# What a question may lack, when its ``missing`` list says so (an import from a format
# that cannot carry it, such as Open Trivia DB's explanation-less questions).
MAY_BE_MISSING = ("explanation", "references")
QUESTION_KEYS = frozenset(
    {
        "id",
        "difficulty",
        "tags",
        "prompt",
        "choices",
        "answer",
        "explanation",
        "references",
        "missing",
        "kind",
        "tolerance",
        "verified",
        "version",
    }
)
# When a question's facts were last checked against its sources ("2026-12"), and for a
# question on an API's behaviour, the release it holds for ("PyTorch 2.5").
_MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")
MAX_VERSION_CHARS = 60
REQUIRED_BANK_KEYS = ("id", "title", "description", "questions")
REQUIRED_QUESTION_KEYS = ("id", "prompt", "choices", "answer")
# An estimate is answered with a number and a unit: its answer is the true value as
# written ("512 KiB") and its tolerance how close is right ("10%" or "2x").
KINDS = ("choice", "estimate")
REQUIRED_ESTIMATE_KEYS = ("id", "prompt", "answer", "tolerance")
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
MIN_CHOICES, MAX_CHOICES = 2, 5
# YAML 1.1 reads these plain scalars as booleans: text that looks like this must be quoted.
_BOOL_TAG = "tag:yaml.org,2002:bool"
_STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
# Text may break lines and hold tabs; other control characters (an escape sequence that
# clears a terminal, a NUL) have no place in a question and are refused.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Half of a UTF-16 pair, from an escape ("\ud83d" in YAML or JSON): no character, and
# no UTF-8 file can hold it, so the bank could not be written again.
_SURROGATE = re.compile(r"[\ud800-\udfff]")


@dataclass(frozen=True)
class Question:
    id: str
    prompt: Text
    choices: tuple[Text, ...]
    answer: int
    explanation: Text  # empty when missing
    references: tuple[str, ...]  # empty when missing
    difficulty: str = "medium"
    tags: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()  # of MAY_BE_MISSING: fields the question has none of yet
    line: int = field(default=0, compare=False)  # where it starts in its file, for reports
    estimate: Estimate | None = None  # an estimate question's (it has no choices)
    verified: str = ""  # "2026-12": the month its facts were last checked; "" unknown
    version: str = ""  # "PyTorch 2.5": the release an API question holds for


@dataclass(frozen=True)
class Bank:
    id: str
    title: Text
    description: Text
    questions: tuple[Question, ...]
    aliases: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    locales: tuple[str, ...] = LOCALES  # every text is complete in each; the first is the main
    path: str = ""

    @cached_property
    def _by_id(self) -> dict[str, Question]:
        return {q.id: q for q in self.questions}

    def question(self, question_id: str) -> Question | None:
        return self._by_id.get(question_id)

    def language(self, locale: str) -> str:
        """The language this bank's text is shown in to a player of ``locale``: theirs
        when the bank has it, else the bank's first."""
        return locale if locale in self.locales else self.locales[0]

    def text(self, text: Text, locale: str) -> str:
        """One of this bank's texts for a player of ``locale`` (empty for a missing
        explanation): every lookup of bank text goes through here."""
        return text.get(self.language(locale), "")


@dataclass(frozen=True)
class BankError:
    """One problem in a bank file, located as precisely as the file allows."""

    path: str
    line: int
    message: str
    bank_id: str | None = None
    question_id: str | None = None

    def __str__(self) -> str:
        where = [f"{self.path}:{self.line}"]
        if self.bank_id:
            where.append(f"bank {self.bank_id}")
        if self.question_id:
            where.append(f"question {self.question_id}")
        return f"{': '.join(where)}: {self.message}"


class _Invalid(Exception):
    """Raised inside the validator when a node cannot be read at all."""


@dataclass
class _Reader:
    """Validates one file's node tree, collecting every error it finds."""

    path: str
    errors: list[BankError] = field(default_factory=list)
    bank_id: str | None = None
    question_id: str | None = None
    # The bank's declared languages; None while unknown (its ``locales`` is broken), so
    # that texts are not also reported against a guess.
    locales: tuple[str, ...] | None = LOCALES
    hint: str = ""  # after a missing translation, when the bank declares no languages

    def error(self, node: Node, message: str) -> None:
        self.errors.append(
            BankError(self.path, _line(node), message, self.bank_id, self.question_id)
        )

    def fail(self, node: Node, message: str) -> _Invalid:
        self.error(node, message)
        return _Invalid()

    def mapping(self, node: Node, what: str, allowed: frozenset[str]) -> dict[str, Node]:
        if not isinstance(node, MappingNode):
            raise self.fail(node, f"{what} must be a mapping")
        out: dict[str, Node] = {}
        for key_node, value in node.value:
            key = key_node.value if isinstance(key_node, ScalarNode) else None
            if not isinstance(key, str) or key_node.tag not in (_STR_TAG, _BOOL_TAG, _INT_TAG):
                self.error(key_node, f"{what} has a key that is not text")
            elif key in out:
                self.error(key_node, f"{what} has the key '{key}' twice")
            elif key not in allowed:
                known = ", ".join(sorted(allowed))
                self.error(key_node, f"unknown key '{key}' in {what} (known: {known})")
            else:
                out[key] = value
        return out

    def require(self, node: Node, fields: dict[str, Node], keys: Iterable[str], what: str) -> bool:
        missing = [k for k in keys if k not in fields]
        for key in missing:
            self.error(node, f"{what} is missing '{key}'")
        return not missing

    def text(self, node: Node, what: str) -> str:
        if not isinstance(node, ScalarNode):
            raise self.fail(node, f"{what} must be text")
        if node.tag == _BOOL_TAG:
            raise self.fail(
                node, f"{what} is '{node.value}', which YAML reads as a boolean: quote it"
            )
        if node.tag != _STR_TAG or (node.style is None and node.value == ""):
            raise self.fail(node, f"{what} must be non-empty text (quote numbers)")
        if not node.value.strip():
            raise self.fail(node, f"{what} is empty")
        too_long = limits.over(what, len(node.value))
        if too_long:
            raise self.fail(node, too_long)
        control = _CONTROL.search(node.value)
        if control:
            raise self.fail(
                node, f"{what} holds the control character U+{ord(control.group()):04X}: remove it"
            )
        surrogate = _SURROGATE.search(node.value)
        if surrogate:
            raise self.fail(
                node,
                f"{what} holds U+{ord(surrogate.group()):04X}, half of a surrogate pair:"
                " write the character itself",
            )
        return node.value.strip()

    def localized(self, node: Node, what: str) -> dict[str, str]:
        fields = self.mapping(node, what, frozenset(LOCALES))
        declared = self.locales or tuple(loc for loc in LOCALES if loc in fields)
        missing = [loc for loc in declared if loc not in fields]
        if missing:
            raise self.fail(
                node, f"{what} is missing the translation(s): {', '.join(missing)}{self.hint}"
            )
        extra = [loc for loc in LOCALES if loc in fields and loc not in declared]
        if extra:
            raise self.fail(
                node,
                f"{what} has text in {', '.join(extra)}, which the bank does not declare"
                f" (locales: {', '.join(declared)})",
            )
        return {loc: self.text(fields[loc], f"{what} ({loc})") for loc in declared}

    def languages(self, node: Node, what: str) -> tuple[str, ...]:
        found = self.texts(node, what)
        unknown = [loc for loc in found if loc not in LOCALES]
        if unknown:
            raise self.fail(
                node, f"locales: unknown {', '.join(unknown)} (known: {', '.join(LOCALES)})"
            )
        if not found:
            raise self.fail(node, "locales must name at least one language")
        if len(set(found)) < len(found):
            raise self.fail(node, "locales names a language twice")
        return found

    def texts(self, node: Node, what: str) -> tuple[str, ...]:
        if not isinstance(node, SequenceNode):
            raise self.fail(node, f"{what} must be a list")
        return tuple(self.text(item, f"{what} item") for item in node.value)

    def ident(self, node: Node, what: str) -> str:
        value = self.text(node, what)
        if not ID_PATTERN.match(value):
            raise self.fail(
                node, f"{what} '{value}' must be lowercase letters, digits and '-' (≤ 40)"
            )
        return value

    def optional(
        self, fields: dict[str, Node], key: str, read: Callable[[Node, str], T], default: T
    ) -> T:
        return read(fields[key], key) if key in fields else default

    def attempt(self, read: Callable[..., T], *args: Any) -> T | None:
        """Run one field's reader; on failure the error is recorded and None returned."""
        try:
            return read(*args)
        except _Invalid:
            return None

    def bank(self, root: Node) -> Bank | None:
        id_node = _value_of(root, "id")
        if id_node is not None:
            self.bank_id = self.attempt(self.ident, id_node, "bank id")
        fields = self.mapping(root, "the bank", BANK_KEYS)
        if not self.require(root, fields, REQUIRED_BANK_KEYS, "the bank"):
            return None
        # Before any text: the languages decide what every text must hold.
        self.locales = self.attempt(self.optional, fields, "locales", self.languages, LOCALES)
        if "locales" not in fields:
            self.hint = " (or declare the bank's languages, e.g. 'locales: [en]')"
        title = self.attempt(self.localized, fields["title"], "title")
        description = self.attempt(self.localized, fields["description"], "description")
        aliases = self.attempt(self.optional, fields, "aliases", self.texts, ())
        tags = self.attempt(self.optional, fields, "tags", self.texts, ())
        questions = self.questions(fields["questions"])
        if (
            self.errors
            or self.locales is None
            or title is None
            or description is None
            or aliases is None
            or tags is None
        ):
            return None
        return Bank(
            id=self.bank_id or "",
            title=title,
            description=description,
            questions=questions,
            aliases=tuple(a.lower() for a in aliases),
            tags=tags,
            locales=self.locales,
            path=self.path,
        )

    def questions(self, node: Node) -> tuple[Question, ...]:
        if not isinstance(node, SequenceNode) or not node.value:
            self.error(node, "questions must be a non-empty list")
            return ()
        if len(node.value) > limits.QUESTIONS:
            self.error(
                node,
                f"{len(node.value):,} questions: a bank holds at most {limits.QUESTIONS:,}"
                " (split it into topics)",
            )
            return ()
        seen: set[str] = set()
        out: list[Question] = []
        for index, item in enumerate(node.value, start=1):
            self.question_id = f"#{index}"
            question = self.attempt(self.question, item, seen)
            if question:
                out.append(question)
        self.question_id = None
        return tuple(out)

    def question(self, node: Node, seen: set[str]) -> Question | None:
        id_node = _value_of(node, "id")
        if id_node is not None:
            # Read the id first so every later error can name the question.
            qid = self.ident(id_node, "question id")
            self.question_id = qid
            if qid in seen:
                self.error(id_node, f"duplicate question id '{qid}'")
            seen.add(qid)
        before = len(self.errors)
        fields = self.mapping(node, "the question", QUESTION_KEYS)
        missing = self.attempt(self.optional, fields, "missing", self.missing, ())
        if missing is None:
            return None
        present = [k for k in MAY_BE_MISSING if k not in missing]
        kind = self.attempt(self.optional, fields, "kind", self.kind, "choice")
        needed = REQUIRED_ESTIMATE_KEYS if kind == "estimate" else REQUIRED_QUESTION_KEYS
        if kind is None or not self.require(node, fields, (*needed, *present), "the question"):
            return None
        for key in missing:
            if key in fields:
                self.error(fields[key], f"{key} is given but 'missing' says it is missing")
        prompt = self.attempt(self.localized, fields["prompt"], "prompt")
        estimate: Estimate | None = None
        if kind == "estimate":
            if "choices" in fields:
                self.error(fields["choices"], "an estimate has no choices: its answer is a value")
            choices: tuple[dict[str, str], ...] | None = ()
            estimate = self.attempt(self.estimate, fields["answer"], fields["tolerance"])
            answer: int | None = -1 if estimate is not None else None
        else:
            if "tolerance" in fields:
                self.error(fields["tolerance"], "only an estimate (kind: estimate) has a tolerance")
            choices = self.attempt(self.choices, fields["choices"])
            # Without valid choices there is no range to check the answer against.
            count = len(choices) if choices is not None else None
            answer = self.attempt(self.answer, fields["answer"], count)
        explanation = (
            {}
            if "explanation" in missing
            else self.attempt(self.localized, fields["explanation"], "explanation")
        )
        references = (
            () if "references" in missing else self.attempt(self.references, fields["references"])
        )
        difficulty = self.attempt(self.optional, fields, "difficulty", self.difficulty, "medium")
        tags = self.attempt(self.optional, fields, "tags", self.texts, ())
        verified = self.attempt(self.optional, fields, "verified", self.month, "")
        version = self.attempt(self.optional, fields, "version", self.version, "")
        if (
            len(self.errors) > before
            or prompt is None
            or choices is None
            or answer is None
            or explanation is None
            or references is None
            or difficulty is None
            or tags is None
            or verified is None
            or version is None
        ):
            return None
        return Question(
            id=self.question_id or "",
            prompt=prompt,
            choices=choices,
            answer=answer,
            explanation=explanation,
            references=references,
            difficulty=difficulty,
            tags=tags,
            missing=missing,
            line=_line(node),
            estimate=estimate,
            verified=verified,
            version=version,
        )

    def choices(self, node: Node) -> tuple[dict[str, str], ...]:
        if not isinstance(node, SequenceNode):
            raise self.fail(node, "choices must be a list")
        if not MIN_CHOICES <= len(node.value) <= MAX_CHOICES:
            raise self.fail(node, f"a question needs {MIN_CHOICES} to {MAX_CHOICES} choices")
        out: list[dict[str, str]] = []
        for number, item in enumerate(node.value, start=1):
            choice = self.localized(item, f"choice {number}")
            for loc in choice:
                if any(prior[loc].casefold() == choice[loc].casefold() for prior in out):
                    raise self.fail(item, f"choice {number} repeats another choice ({loc})")
            out.append(choice)
        return tuple(out)

    def answer(self, node: Node, count: int | None) -> int:
        # YAML 1.1 also reads 0x1, 0b1 and 1:0 as integers: an index is written in decimal,
        # in a few digits (int() refuses thousands).
        decimal = (
            isinstance(node, ScalarNode)
            and node.tag == _INT_TAG
            and node.value.isdigit()
            and len(node.value) < 10
        )
        if not decimal:
            raise self.fail(node, "answer must be the 0-based index of the right choice")
        value = int(node.value)
        if count is not None and not 0 <= value < count:
            raise self.fail(node, f"answer {value} is out of range (0 to {count - 1})")
        return value

    def kind(self, node: Node, what: str) -> str:
        value = self.text(node, what)
        if value not in KINDS:
            raise self.fail(node, f"kind '{value}' is not one of {', '.join(KINDS)}")
        return value

    def estimate(self, answer: Node, tolerance: Node) -> Estimate:
        value = self.text(answer, "answer")
        try:
            return Estimate.parse(value, self.text(tolerance, "tolerance"))
        except Unreadable as unread:
            raise self.fail(
                answer,
                f"answer '{value}' is not a positive value with a known unit"
                f" ({unread.reason}): write it as 512 KiB, 1.5 ms, 312 TFLOPS, 7e9 or 45 %",
            ) from None
        except ValueError as wrong:
            raise self.fail(tolerance, f"tolerance: {wrong}") from None

    def missing(self, node: Node, what: str) -> tuple[str, ...]:
        found = self.texts(node, what)
        wrong = [k for k in found if k not in MAY_BE_MISSING]
        if wrong or len(set(found)) < len(found):
            raise self.fail(
                node,
                f"missing lists what a question lacks, once each, of: {', '.join(MAY_BE_MISSING)}",
            )
        # The file's order does not matter; one order keeps equal questions equal.
        return tuple(k for k in MAY_BE_MISSING if k in found)

    def references(self, node: Node) -> tuple[str, ...]:
        refs = self.texts(node, "references")
        if not refs:
            raise self.fail(node, "a question needs at least one reference")
        for ref, item in zip(refs, node.value, strict=True):
            if not ref.startswith(("https://", "http://")):
                raise self.fail(item, f"reference '{ref}' is not an http(s) URL")
        return refs

    def month(self, node: Node, what: str) -> str:
        value = self.text(node, what)
        if not _MONTH.match(value):
            raise self.fail(node, f"{what} '{value}' is not a month written as 2026-12")
        return value

    def version(self, node: Node, what: str) -> str:
        value = self.text(node, what)
        if not value.strip() or len(value) > MAX_VERSION_CHARS:
            raise self.fail(node, f"{what} names a release in 1 to {MAX_VERSION_CHARS} characters")
        return value.strip()

    def difficulty(self, node: Node, what: str) -> str:
        value = self.text(node, what)
        if value not in DIFFICULTIES:
            raise self.fail(node, f"difficulty '{value}' is not one of {', '.join(DIFFICULTIES)}")
        return value


def _line(node: Node) -> int:
    """Where a node starts; 1 for a node built in memory (an import's), which has no mark:
    the importer reports those at its input's line."""
    return node.start_mark.line + 1 if node.start_mark else 1


def _value_of(node: Node, key: str) -> Node | None:
    if not isinstance(node, MappingNode):
        return None
    return next((v for k, v in node.value if isinstance(k, ScalarNode) and k.value == key), None)


# libyaml composes the same nodes with the same marks ~14x faster; its error messages are
# worded differently, so a file that fails is composed again by the pure loader, whose
# messages are the ones users know (and the pure loader is the fallback without libyaml).
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _compose(text: str) -> Node | None:
    try:
        return yaml.compose(text, Loader=_FAST_LOADER)
    except yaml.YAMLError:
        if _FAST_LOADER is yaml.SafeLoader:
            raise
    return yaml.compose(text, Loader=yaml.SafeLoader)


def parse_bank(text: str, path: str) -> tuple[Bank | None, list[BankError]]:
    """Validate one bank file's text; returns the bank or the errors found."""
    try:
        root = _compose(text)
    except RecursionError:  # a few kB of [[[[… is enough: no bank nests that deep
        return None, [BankError(path, 1, "lists or mappings nest too deeply")]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        return None, [BankError(path, line, f"YAML syntax error: {exc.problem or exc}")]
    except yaml.reader.ReaderError as exc:  # a character YAML refuses: its line, not 1
        line = text.count("\n", 0, exc.position) + 1
        message = f"YAML error: the character U+{exc.character:04X} is not allowed: remove it"
        return None, [BankError(path, line, message)]
    except yaml.YAMLError as exc:
        return None, [BankError(path, 1, f"YAML error: {exc}")]
    if root is None:
        return None, [BankError(path, 1, "the file is empty")]
    return bank_from_node(root, path)


def bank_from_node(root: Node, path: str) -> tuple[Bank | None, list[BankError]]:
    """Validate a bank's node tree, composed from a file or represented from data."""
    reader = _Reader(path)
    try:
        bank = reader.bank(root)
    except _Invalid:
        bank = None
    except RecursionError:
        return None, [BankError(path, 1, "lists or mappings nest too deeply")]
    return bank, reader.errors


def bank_files(directories: Iterable[Path]) -> Iterator[Path]:
    for directory in directories:
        if directory.is_file():
            yield directory
        elif directory.is_dir():
            yield from sorted(p for p in directory.iterdir() if p.suffix in (".yaml", ".yml"))


def _normal(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().casefold())


@dataclass(frozen=True)
class Catalog:
    """The loaded banks, with lookup by id, alias or title."""

    banks: tuple[Bank, ...]
    errors: tuple[BankError, ...] = ()

    def get(self, bank_id: str) -> Bank | None:
        return next((b for b in self.banks if b.id == bank_id), None)

    @cached_property
    def _names(self) -> dict[str, Bank]:
        names: dict[str, Bank] = {}
        for bank in self.banks:
            for name in (*bank.title.values(), *bank.aliases, bank.id):
                names[_normal(name)] = bank
        return names

    def find(self, topic: str) -> Bank | None:
        return self._names.get(_normal(topic))

    def closest(self, topic: str) -> Bank | None:
        names = self._names
        match = difflib.get_close_matches(_normal(topic), list(names), n=1, cutoff=0.5)
        return names[match[0]] if match else None

    def search(self, text: str, locale: str, limit: int = 25) -> list[Bank]:
        """Banks whose id, alias or title contains the text (for autocomplete)."""
        needle = _normal(text)
        hits = [
            b
            for b in self.banks
            if not needle
            or any(needle in _normal(n) for n in (b.id, *b.aliases, b.text(b.title, locale)))
        ]
        return hits[:limit]


def read_text(path: Path) -> tuple[str | None, list[BankError]]:
    """A file's text as UTF-8, with or without a byte order mark."""
    try:
        size = path.stat().st_size
        if size > limits.FILE_BYTES:
            return None, [too_big(str(path), size)]
        data = path.read_bytes()
    except OSError as exc:
        return None, [BankError(str(path), 1, f"cannot read the file: {exc.strerror}")]
    return decode_text(data, str(path))


def too_big(name: str, size: int) -> BankError:
    return BankError(
        name, 1, f"the file is {size:,} bytes: a bank file holds at most {limits.FILE_BYTES:,}"
    )


def decode_text(data: bytes, name: str) -> tuple[str | None, list[BankError]]:
    if len(data) > limits.FILE_BYTES:
        return None, [too_big(name, len(data))]
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return None, [BankError(name, line, "not UTF-8 text: save the file as UTF-8")]


def load_catalog(directories: Iterable[Path]) -> Catalog:
    """Load every bank file; broken files and clashing ids are reported, not fatal."""
    banks: list[Bank] = []
    errors: list[BankError] = []
    taken: dict[str, str] = {}
    for path in bank_files(directories):
        text, unreadable = read_text(path)
        if text is None:
            errors.extend(unreadable)
            continue
        bank, found = parse_bank(text, str(path))
        errors.extend(found)
        if bank is None:
            continue
        clash = next((n for n in (bank.id, *bank.aliases) if n in taken), None)
        if clash:
            errors.append(
                BankError(str(path), 1, f"'{clash}' is already used by {taken[clash]}", bank.id)
            )
            continue
        for name in (bank.id, *bank.aliases):
            taken[name] = str(path)
        banks.append(bank)
    return Catalog(tuple(banks), tuple(errors))


# banks/ in the repository, installed as the data package bot.shipped_banks (see setup.py).
SHIPPED_BANKS = Path(str(resources.files("bot.shipped_banks")))


def reload_catalog(current: Catalog, directories: Iterable[Path]) -> Catalog:
    """Load the banks again for a running bot: new and changed banks come in, and a bank
    whose file is now broken keeps its last good version (its errors are reported)."""
    fresh = load_catalog(directories)
    broken = {error.path for error in fresh.errors}
    loaded = {bank.id for bank in fresh.banks}
    kept = tuple(b for b in current.banks if b.path in broken and b.id not in loaded)
    return Catalog((*fresh.banks, *kept), fresh.errors)
