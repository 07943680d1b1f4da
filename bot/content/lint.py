"""``quizbot banks lint``: what makes a question good or bad, beyond the structure that
``banks check`` validates. Cues a player could score on without knowing the subject
(the longest or most hedged choice, absolute words only in wrong choices), one question's
explanation giving away another's answer, numbers that differ between languages,
explanations too short or too long, glossary terms, references that are not primary
sources, and near-duplicate prompts across banks.

The rules' data lives beside the banks in ``banks/lint/``: the glossary and the sources
(allowed reference hosts, arXiv ids pinned to their titles, the seed banks)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from difflib import SequenceMatcher
from pathlib import Path
from urllib.parse import urlparse

import yaml

from bot.content.banks import Bank, BankError, Question
from bot.ui.i18n import LOCALE_NAMES

LANGUAGES = ("en", "hi", "bn")
# Where the right choice sits in the file (the order exports keep): no letter above 40 %
# in a bank with enough questions to tell, and 20-30 % each over the shelf.
LETTERS = "ABCDE"
MAX_POSITION_RATE, POSITION_RANGE, POSITION_MIN_QUESTIONS = 0.40, (0.20, 0.30), 8
POSITION_MIN_SHELF = 100  # questions before the shelf's balance is judged
MAX_LONGEST_RATE = 0.35  # new banks overall: the right choice strictly the longest
MAX_BANK_LONGEST_RATE = 0.5  # any one new bank
DUPLICATE_PROMPT_RATIO = 0.9
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# Code in prose: {placeholders}, `spans`, calls f(a, b), dotted names (torch.utils.checkpoint,
# optimizer.step) and CAPITALISED_NAMES (the RANK environment variable).
_CODE = re.compile(
    r"\{[^{}]*\}|`[^`]*`|[\w.]+\([^()]*\)|\b[A-Za-z_]\w*(?:\.\w+)+\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{4,}\b"
)
_NATIVE_DIGIT = re.compile("[\u0966-\u096f\u09e6-\u09ef]")  # Devanagari and Bengali digits
# A sentence ends at . ? ! or the danda, before a space or the end (not in "2.5" or "e.g.").
_SENTENCE_END = re.compile(r"(?<!\bet al)(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)[.?!।](?=\s|$)")
_WORD = re.compile(r"[a-z][a-z0-9'-]*|\d+(?:\.\d+)?(?:-[a-z]+)?")  # "16-bit" is one word
_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
}
_STOPWORDS = frozenset(
    [
        "about",
        "above",
        "after",
        "again",
        "against",
        "because",
        "before",
        "being",
        "below",
        "between",
        "both",
        "could",
        "does",
        "doing",
        "during",
        "each",
        "every",
        "few",
        "from",
        "further",
        "have",
        "having",
        "here",
        "into",
        "itself",
        "more",
        "most",
        "other",
        "ought",
        "same",
        "should",
        "some",
        "such",
        "than",
        "that",
        "their",
        "theirs",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "under",
        "until",
        "very",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "whom",
        "with",
        "would",
        "your",
        "yours",
        "only",
        "also",
        "just",
        "than",
        "each",
    ]
)


def _prose(text: str) -> str:
    """A text without its code (``_CODE``), where an English word is an identifier, not a
    term to translate."""
    return _CODE.sub(" ", text)


@dataclass(frozen=True)
class Term:
    """A glossary entry: the preferred Hindi and Bengali terms for an English one."""

    en: str
    preferred: Mapping[str, str]
    forbidden: Mapping[str, tuple[str, ...]]
    exceptions: tuple[str, ...] = ()  # phrases that contain the word but are not the term
    interface: bool = False  # a word of the interface's catalogues only (Cancel, Reject)

    def _words(self, text: str) -> str:
        """The text as the term is looked for in it: no code, no excepted phrases."""
        text = _prose(text)
        for phrase in self.exceptions:
            text = re.sub(re.escape(phrase), " ", text, flags=re.IGNORECASE)
        return text

    def used_in(self, english: str) -> bool:
        pattern = rf"(?<![\w-]){re.escape(self.en)}(?:s|es)?(?![\w-])"
        return re.search(pattern, self._words(english), re.IGNORECASE) is not None

    def kept_in_latin(self, translated: str) -> bool:
        """The English term written as it is in a Hindi or Bengali text ("rank-গুলো")."""
        pattern = rf"(?<![A-Za-z_.`]){re.escape(self.en)}(?:s|es)?(?![A-Za-z_(`])"
        return re.search(pattern, self._words(translated), re.IGNORECASE) is not None


def term_problems(term: Term, lang: str, text: str) -> list[str]:
    """What is wrong with a text whose English uses a glossary term: one rendering per
    term, so no forbidden or other rendering of it, not the English word left in Latin
    script where the glossary transliterates it, and the preferred rendering present."""
    preferred = term.preferred[lang]
    problems = [
        f"glossary: '{bad}' in {lang}; '{term.en}' is '{preferred}'"
        for bad in term.forbidden.get(lang, ())
        if bad in text
    ]
    latin = preferred.isascii()
    if not latin and term.kept_in_latin(text):
        problems.append(
            f"glossary: '{term.en}' left in Latin script in {lang}; write '{preferred}'"
        )
    elif preferred not in text and not (latin and term.kept_in_latin(text)):
        problems.append(f"glossary: '{term.en}' is '{preferred}' in {lang}")
    return problems


@dataclass(frozen=True)
class Message:
    """One interface message: its catalogue file (the English one) and texts by language."""

    path: str
    key: str
    texts: Mapping[str, str]


def catalogue_messages(english: Path) -> list[Message]:
    """The messages of a gettext catalogue (``…/locale/en/LC_MESSAGES/x.po``) with their
    Hindi and Bengali texts; each plural form is a message of its own."""
    from babel.messages.pofile import read_po

    def forms(path: Path) -> dict[str, str]:
        with path.open("rb") as po:
            catalog = read_po(po)
        found: dict[str, str] = {}
        for message in catalog:
            if not message.id:
                continue
            key = str(message.id[0] if isinstance(message.id, tuple | list) else message.id)
            strings = (
                message.string if isinstance(message.string, tuple | list) else [message.string]
            )
            for n, text in enumerate(strings):
                found[f"{key}[{n}]" if len(strings) > 1 else key] = str(text)
        return found

    by_lang = {
        lang: forms(english.parents[2] / lang / "LC_MESSAGES" / english.name) for lang in LANGUAGES
    }
    return [
        Message(str(english), key, {lang: by_lang[lang].get(key, "") for lang in LANGUAGES})
        for key in by_lang["en"]
    ]


def lint_catalogues(messages: Iterable[Message], rules: Rules) -> list[BankError]:
    """The glossary over the interface's catalogues, as over the banks: a player reads
    one word for one thing in questions and in buttons alike; and ASCII digits only."""
    found = []
    for message in messages:
        for term in rules.terms:
            if term.used_in(message.texts["en"]):
                for lang in ("hi", "bn"):
                    found += [
                        BankError(message.path, 0, f"{message.key}: {problem}")
                        for problem in term_problems(term, lang, message.texts[lang])
                    ]
        for lang in ("hi", "bn"):
            if _NATIVE_DIGIT.search(message.texts[lang]):
                found.append(
                    BankError(
                        message.path, 0, f"{message.key}: {lang} has native digits; write ASCII"
                    )
                )
    return found


@dataclass(frozen=True)
class Rules:
    terms: tuple[Term, ...]
    hosts: tuple[str, ...]  # reference hosts allowed (a host or any of its subdomains)
    arxiv: Mapping[str, str]  # arXiv id -> the paper's title
    seed_banks: frozenset[str]  # reported apart: their choices are the seeds' own
    cue_words: frozenset[str]
    hedge_words: frozenset[str]


def load_rules(directory: Path) -> Rules:
    glossary = yaml.safe_load((directory / "glossary.yaml").read_text(encoding="utf-8"))
    sources = yaml.safe_load((directory / "sources.yaml").read_text(encoding="utf-8"))
    terms = tuple(
        Term(
            en=entry["en"],
            preferred={lang: entry[lang] for lang in ("hi", "bn")},
            forbidden={lang: tuple(words) for lang, words in entry["forbidden"].items()},
            exceptions=tuple(entry.get("except", ())),
            interface=bool(entry.get("interface", False)),
        )
        for entry in glossary["terms"]
    )
    return Rules(
        terms=terms,
        hosts=tuple(sources["hosts"]),
        arxiv={str(k): v for k, v in sources["arxiv"].items()},
        seed_banks=frozenset(sources["seed_banks"]),
        cue_words=frozenset(sources["cue_words"]),
        hedge_words=frozenset(sources["hedge_words"]),
    )


@dataclass(frozen=True)
class Rates:
    """How a bank's choices could be gamed; each a share of its questions."""

    questions: int
    longest_right: Mapping[str, float]  # per declared language: the right choice longest
    longest_player: float  # the score of a player who always picks the longest choice
    shortest_player: float  # and of one who always picks the shortest (an overcorrection)
    hedged_player: float  # the score of one who picks the most hedged choice
    cue: float  # questions with an absolute word only in wrong choices


@dataclass(frozen=True)
class Report:
    findings: tuple[BankError, ...]  # each one fails the lint
    notes: tuple[BankError, ...]  # the seed banks' cue findings, reported apart
    rates: Mapping[str, Rates]  # by bank id
    overall: Rates | None  # the new (non-seed) banks together


def _words(text: str) -> list[str]:
    return [_NUMBER_WORDS.get(w, w) for w in _WORD.findall(text.lower())]


def _numbers(text: str) -> list[str]:
    return sorted(_NUMBER.findall(text))


def sentences(text: str) -> int:
    return len(_SENTENCE_END.findall(text.strip()))


@dataclass
class _Linter:
    rules: Rules
    findings: list[BankError] = field(default_factory=list)
    notes: list[BankError] = field(default_factory=list)

    def report(
        self, bank: Bank, question: Question | None, message: str, note: bool = False
    ) -> None:
        line = question.line if question else 1
        error = BankError(bank.path, line, message, bank.id, question.id if question else None)
        (self.notes if note else self.findings).append(error)

    def texts(self, question: Question) -> list[tuple[str, Mapping[str, str]]]:
        explained = () if "explanation" in question.missing else (question.explanation,)
        return [
            ("prompt", question.prompt),
            *((f"choice {i + 1}", c) for i, c in enumerate(question.choices)),
            *(("explanation", e) for e in explained),
        ]

    def missing(self, bank: Bank, question: Question) -> None:
        """``check`` accepts a question an import could not complete; the lint, the bar
        our own banks are held to, does not."""
        for key in question.missing:
            self.report(bank, question, f"{key} is missing: write it, then drop it from 'missing'")

    def languages(self, bank: Bank, question: Question) -> None:
        """Only the bank's declared languages: the others' numbers are compared with its
        main one (English when it has it), the glossary applies when it has English."""
        main = bank.language("en")
        others = [lang for lang in bank.locales if lang != main]
        for name, text in self.texts(question):
            first = _numbers(text[main])
            for lang in others:
                if _numbers(text[lang]) != first:
                    self.report(
                        bank,
                        question,
                        f"{name}: the numbers in {lang} "
                        f"{_numbers(text[lang])} differ from {LOCALE_NAMES[main]} {first}",
                    )
            for term in self.rules.terms if main == "en" else ():
                if not term.interface and term.used_in(text["en"]):
                    for lang in others:
                        self.term(bank, question, name, term, lang, text[lang])
        for lang in question.explanation:
            count = sentences(question.explanation[lang])
            if not 2 <= count <= 4:
                self.report(
                    bank, question, f"explanation ({lang}) has {count} sentences, not 2 to 4"
                )

    def term(
        self, bank: Bank, question: Question, name: str, term: Term, lang: str, text: str
    ) -> None:
        for problem in term_problems(term, lang, text):
            self.report(bank, question, f"{name}: {problem}")

    def verified(self, bank: Bank, question: Question) -> None:
        """Every question says when its facts were last checked against its sources."""
        if not question.verified:
            self.report(
                bank, question, "verified is missing: the month its facts were last checked"
                " against its sources (verified: 2026-12; an API question adds its release,"
                " version: PyTorch 2.5)",
            )  # fmt: skip

    def references(self, bank: Bank, question: Question) -> None:
        for url in question.references:
            host = urlparse(url).netloc.lower()
            if not any(host == h or host.endswith("." + h) for h in self.rules.hosts):
                self.report(bank, question, f"reference {url}: not a primary source we allow")
            elif host.endswith("arxiv.org"):
                found = re.fullmatch(r"https://arxiv\.org/abs/(\d{4}\.\d{4,5})", url)
                if not found:
                    self.report(
                        bank,
                        question,
                        f"reference {url}: cite arXiv as https://arxiv.org/abs/NNNN.NNNNN",
                    )
                elif found.group(1) not in self.rules.arxiv:
                    self.report(
                        bank,
                        question,
                        f"reference {url}: arXiv {found.group(1)} "
                        "is not pinned to its title in banks/lint/sources.yaml",
                    )

    def estimate(self, bank: Bank, question: Question) -> None:
        """An estimate's prompt names the unit its answer is written in, so a player knows
        what to answer in (the answer reads in any unit of that kind)."""
        estimate = question.estimate
        if estimate is None or not estimate.unit or estimate.unit == "%":
            return
        if estimate.unit not in bank.text(question.prompt, "en"):
            self.report(
                bank, question, f"the prompt does not say the answer's unit ({estimate.unit})"
            )

    def leaks(self, bank: Bank) -> None:
        """An explanation that gives away another question's right choice: beyond its own
        answer's numbers, it states the choice's distinctive numbers (those in neither its
        prompt nor its wrong choices; number words count as digits), or three quarters of
        its distinctive words."""
        for other in bank.questions:
            right = set(_words(_right(bank, other)))
            around = set(_words(bank.text(other.prompt, "en")))
            for i, choice in enumerate(other.choices):
                if i != other.answer:
                    around |= set(_words(bank.text(choice, "en")))
            distinct = right - around - _STOPWORDS
            numbers = {w for w in distinct if _NUMBER.fullmatch(w) and len(w) > 1}
            words = {w for w in distinct if not _NUMBER.fullmatch(w) and len(w) > 4}
            for question in bank.questions:
                if question is other:
                    continue
                said = set(_words(bank.text(question.explanation, "en")))
                # A number of its own answer is no leak, though another answer has it too.
                own = set(_words(_right(bank, question)))
                if numbers and numbers <= said - own:
                    given = numbers
                elif len(words) >= 3 and len(words & said) >= 0.75 * len(words):
                    given = words & said
                else:
                    continue
                self.report(
                    bank,
                    question,
                    f"explanation gives away {other.id} (it says {', '.join(sorted(given))})",
                )

    def rates(self, bank: Bank) -> Rates:
        seed = bank.id in self.rules.seed_banks
        longest = {lang: 0 for lang in bank.locales}
        longest_player, shortest_player, hedged_player, cue = [], [], [], 0
        chosen = [q for q in bank.questions if q.estimate is None]  # estimates have no choices
        for question in chosen:
            for lang in bank.locales:
                lengths = [len(c[lang]) for c in question.choices]
                top = max(lengths)
                if lengths[question.answer] == top and lengths.count(top) == 1:
                    longest[lang] += 1
            lengths = [len(bank.text(c, "en")) for c in question.choices]
            longest_player.append(_score(question, lengths, max(lengths)))
            shortest_player.append(_score(question, lengths, min(lengths)))
            hedges = [
                len(set(_words(bank.text(c, "en"))) & self.rules.hedge_words)
                for c in question.choices
            ]
            hedged_player.append(_score(question, hedges, max(hedges)))
            right = set(_words(bank.text(question.choices[question.answer], "en")))
            wrong = set().union(
                *(
                    set(_words(bank.text(c, "en")))
                    for i, c in enumerate(question.choices)
                    if i != question.answer
                )
            )
            cues = sorted((wrong - right) & self.rules.cue_words)
            if cues:
                cue += 1
                self.report(
                    bank,
                    question,
                    "cue: " + ", ".join(f"'{w}'" for w in cues) + " appears only in wrong choices",
                    note=seed,
                )
        total = len(chosen)
        return Rates(
            questions=total,
            longest_right={lang: n / max(total, 1) for lang, n in longest.items()},
            longest_player=_mean(longest_player),
            shortest_player=_mean(shortest_player),
            hedged_player=_mean(hedged_player),
            cue=cue / max(total, 1),
        )

    def positions(self, banks: Sequence[Bank]) -> None:
        """The right choice's position: never one letter for most questions of a bank
        (the seeds' are noted apart), and even over the shelf."""
        everywhere: Counter[int] = Counter()
        for bank in banks:
            answers = Counter(q.answer for q in bank.questions if q.estimate is None)
            everywhere += answers
            total = sum(answers.values())
            if total < POSITION_MIN_QUESTIONS:
                continue
            answer, count = max(answers.items(), key=lambda item: item[1])
            if count / total > MAX_POSITION_RATE:
                self.report(
                    bank, None,
                    f"the right choice is {LETTERS[answer]} in {count / total:.0%} of questions;"
                    f" at most {MAX_POSITION_RATE:.0%} (reorder the choices)",
                    note=bank.id in self.rules.seed_banks,
                )  # fmt: skip
        total = sum(everywhere.values())
        low, high = POSITION_RANGE
        for answer in range(4) if total >= POSITION_MIN_SHELF else ():
            share = everywhere[answer] / total
            if not low <= share <= high:
                self.findings.append(
                    BankError(
                        "banks", 0,
                        f"all banks: the right choice is {LETTERS[answer]} in {share:.0%};"
                        f" {low:.0%} to {high:.0%} each",
                    )
                )  # fmt: skip

    def duplicates(self, banks: Sequence[Bank]) -> None:
        prompts = [
            (b, q, " ".join(_words(b.text(q.prompt, "en")))) for b in banks for q in b.questions
        ]
        for i, (bank, question, text) in enumerate(prompts):
            for other_bank, other, other_text in prompts[i + 1 :]:
                matcher = SequenceMatcher(None, text, other_text)
                if matcher.quick_ratio() >= DUPLICATE_PROMPT_RATIO and (
                    matcher.ratio() >= DUPLICATE_PROMPT_RATIO
                ):
                    self.report(bank, question, f"prompt nearly repeats {other_bank.id}/{other.id}")


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _right(bank: Bank, question: Question) -> str:
    """The right answer as the English text states it: a choice, or an estimate's value."""
    if question.estimate is not None:
        return question.estimate.written
    return bank.text(question.choices[question.answer], "en")


def _score(question: Question, measure: list[int], pick: int) -> float:
    """The expected score of a player who picks, at random among ties, the choice whose
    measure (length, hedging words) is ``pick``."""
    picks = [i for i, value in enumerate(measure) if value == pick]
    return 1 / len(picks) if question.answer in picks else 0.0


def _combined(rates: Iterable[Rates]) -> Rates | None:
    rates = list(rates)
    total = sum(r.questions for r in rates)
    if not total:
        return None

    def weighted(value: Iterable[float]) -> float:
        return sum(v * r.questions for v, r in zip(value, rates, strict=True)) / total

    def language(lang: str) -> float:
        having = [r for r in rates if lang in r.longest_right]
        return sum(r.longest_right[lang] * r.questions for r in having) / sum(
            r.questions for r in having
        )

    declared = [lang for lang in LANGUAGES if any(lang in r.longest_right for r in rates)]
    return Rates(
        questions=total,
        longest_right={lang: language(lang) for lang in declared},
        longest_player=weighted(r.longest_player for r in rates),
        shortest_player=weighted(r.shortest_player for r in rates),
        hedged_player=weighted(r.hedged_player for r in rates),
        cue=weighted(r.cue for r in rates),
    )


def lint(banks: Sequence[Bank], rules: Rules) -> Report:
    linter = _Linter(rules)
    rates: dict[str, Rates] = {}
    for bank in banks:
        for question in bank.questions:
            linter.missing(bank, question)
            linter.languages(bank, question)
            linter.references(bank, question)
            linter.verified(bank, question)
            linter.estimate(bank, question)
        linter.leaks(bank)
        rates[bank.id] = linter.rates(bank)
        if bank.id not in rules.seed_banks:
            worst = max(rates[bank.id].longest_right.items(), key=lambda item: item[1])
            if worst[1] > MAX_BANK_LONGEST_RATE:
                linter.report(
                    bank,
                    None,
                    f"the right choice is the longest in {worst[1]:.0%} "
                    f"of questions ({worst[0]}); at most "
                    f"{MAX_BANK_LONGEST_RATE:.0%}",
                )
    linter.duplicates(banks)
    linter.positions(banks)
    overall = _combined(r for bank_id, r in rates.items() if bank_id not in rules.seed_banks)
    if overall:
        for lang, rate in overall.longest_right.items():
            if rate > MAX_LONGEST_RATE:
                linter.findings.append(
                    BankError(
                        "banks",
                        0,
                        f"new banks overall: the right "
                        f"choice is the longest in {rate:.0%} ({lang}); at most "
                        f"{MAX_LONGEST_RATE:.0%}",
                    )
                )
    return Report(tuple(linter.findings), tuple(linter.notes), rates, overall)


def months_between(earlier: str, today: date) -> int:
    """Whole months from a "2026-12" month to ``today``'s."""
    year, month = map(int, earlier.split("-"))
    return (today.year - year) * 12 + today.month - month


def stale(banks: Sequence[Bank], months: int, today: date) -> list[BankError]:
    """Questions whose facts were last checked more than ``months`` months ago, oldest
    first: what to check against the sources (and an API's newer release) again."""
    found = [
        (question.verified, BankError(bank.path, question.line, f"verified {question.verified}"
         f" ({months_between(question.verified, today)} months ago)"
         + (f", for {question.version}" if question.version else ""), bank.id, question.id))
        for bank in banks
        for question in bank.questions
        if question.verified and months_between(question.verified, today) > months
    ]  # fmt: skip
    return [error for _, error in sorted(found, key=lambda pair: pair[0])]


def rate_table(report: Report, seed_banks: frozenset[str]) -> list[str]:
    """One line per bank and one for the new banks together, for the command's output."""
    lines = [
        "bank                       questions  longest right en/hi/bn"
        "   players: longest shortest hedged   cue"
    ]

    def line(name: str, r: Rates) -> str:
        longest = "/".join(
            f"{r.longest_right[lang]:.0%}" if lang in r.longest_right else "–" for lang in LANGUAGES
        )
        return (
            f"{name:<27}{r.questions:>9}  {longest:>22}   {r.longest_player:>16.0%}"
            f" {r.shortest_player:>8.0%} {r.hedged_player:>6.0%} {r.cue:>5.0%}"
        )

    for bank_id, rates in sorted(report.rates.items()):
        lines.append(line(bank_id + (" (seed)" if bank_id in seed_banks else ""), rates))
    if report.overall:
        lines.append(line("new banks overall", report.overall))
    return lines
