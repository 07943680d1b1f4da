"""CSV (RFC 4180: fields with commas, quotes or line breaks in double quotes, a quote
doubled), UTF-8 with or without a byte order mark. The first row names the columns, in
any order: ``id,difficulty,prompt,choice_1,choice_2,choice_3,choice_4,choice_5,answer,
explanation,references`` — ``prompt``, ``choice_1``, ``choice_2`` and ``answer`` are
required. ``answer`` is the number of the right choice, from 1; ``references`` are
separated by ``|``; an empty ``difficulty`` is medium. A row with a ``value`` is an
estimate: its ``unit`` (empty for a plain number) and ``tolerance`` ("10%" or "2x") go
with it, and it has no choices or answer."""

from __future__ import annotations

import csv
import io

from bot.content import limits
from bot.content.banks import MAX_CHOICES, Bank
from bot.content.formats import numerical
from bot.content.formats.model import Draft, Format, Parsed, Problems, tidy

CHOICES = tuple(f"choice_{n}" for n in range(1, MAX_CHOICES + 1))
# A spreadsheet runs a cell that begins with one of these as a formula (also their
# full-width forms, which some convert): every CSV written here quotes such a cell with a
# leading apostrophe, which spreadsheets show as text and our reader takes off again.
FORMULA_STARTS = frozenset("=+-@\t\r＝＋－＠")
ESTIMATE = ("value", "unit", "tolerance")
HEADER = (
    "id", "difficulty", "prompt", *CHOICES, "answer", "explanation", "references", *ESTIMATE
)  # fmt: skip
REQUIRED = ("prompt", "choice_1", "choice_2", "answer")  # or value and tolerance


def safe_cell(value: object) -> object:
    """``value`` as a CSV cell no spreadsheet runs as a formula (numbers stay numbers)."""
    if isinstance(value, str) and value.lstrip("'")[:1] in FORMULA_STARTS and value:
        return "'" + value
    return value


def _unquoted(cell: str) -> str:
    """A cell as written before ``safe_cell`` quoted it."""
    return cell[1:] if cell[:1] == "'" and cell.lstrip("'")[:1] in FORMULA_STARTS else cell


def _estimate(row: dict[str, str], line: int, number: int, problems: Problems) -> Draft | None:
    value, unit = row.get("value", "").strip(), row.get("unit", "").strip()
    tolerance = row.get("tolerance", "").strip()
    if any(row.get(c, "").strip() for c in (*CHOICES, "answer")):
        problems.add(line, number, "a row with a value is an estimate: it has no choices or answer")
        return None
    if not tolerance:
        problems.add(line, number, "an estimate needs a tolerance: 10% or 2x")
        return None
    references = tuple(r.strip() for r in row.get("references", "").split("|") if r.strip())
    return Draft(
        line,
        tidy(row.get("prompt", "")),
        (),
        -1,
        tidy(row.get("explanation", "")),
        references,
        name=row.get("id", "").strip(),
        difficulty=row.get("difficulty", "").strip(),
        estimate=(f"{value} {unit}".strip(), tolerance),
    )


def _draft(row: dict[str, str], line: int, number: int, problems: Problems) -> Draft | None:
    if row.get("value", "").strip():
        return _estimate(row, line, number, problems)
    given = [tidy(row.get(c, "")) for c in CHOICES]
    count = max((i + 1 for i, c in enumerate(given) if c), default=0)
    gap = next((CHOICES[i] for i in range(count) if not given[i]), None)
    if gap:
        problems.add(line, number, f"{gap} is empty but a later choice is not")
        return None
    raw = row.get("answer", "").strip()
    # ASCII digits, a few: int() refuses "²" (a digit to isdigit) and thousands of digits.
    if not (raw.isascii() and raw.isdigit() and len(raw) < 10) or not 1 <= int(raw) <= count:
        problems.add(
            line, number, f"answer '{raw}' must be the number of the right choice, 1 to {count}"
        )
        return None
    references = tuple(r.strip() for r in row.get("references", "").split("|") if r.strip())
    return Draft(
        line,
        tidy(row.get("prompt", "")),
        tuple(given[:count]),
        int(raw) - 1,
        tidy(row.get("explanation", "")),
        references,
        name=row.get("id", "").strip(),
        difficulty=row.get("difficulty", "").strip(),
    )


def read(text: str, path: str, language: str) -> Parsed:
    problems = Problems(path)
    if (nul := text.find("\x00")) >= 0:  # not text: a binary file, or a broken export
        problems.add(text.count("\n", 0, nul) + 1, None, "a NUL byte (\\x00): not CSV text")
        return Parsed((), tuple(problems.found))
    # strict: a quote left open is an error at its row, not the rest of the file read
    # silently into one cell.
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    drafts: list[Draft] = []
    end = 0  # the last line of the rows read so far
    try:
        header = [name.strip().lower() for name in next(reader, [])]
        unknown = [name for name in header if name not in HEADER]
        absent = [name for name in REQUIRED if name not in header]
        if "value" in header and "tolerance" in header:  # estimates need no choices
            absent = [name for name in absent if name == "prompt"]
        if unknown or absent:
            what = [f"unknown column(s): {', '.join(unknown)}"] if unknown else []
            what += [f"missing column(s): {', '.join(absent)}"] if absent else []
            problems.add(1, None, f"{'; '.join(what)} (the columns: {','.join(HEADER)})")
            return Parsed((), tuple(problems.found))
        end = reader.line_num
        number = 0
        for cells in reader:
            line, end = end + 1, reader.line_num  # a quoted line break spans lines
            if not any(cell.strip() for cell in cells):
                continue
            number += 1
            if number > limits.QUESTIONS:  # the rest is not read, let alone checked
                problems.add(line, None, limits.TOO_MANY_QUESTIONS)
                break
            if len(cells) != len(header):
                problems.add(
                    line, number, f"{len(cells)} fields where the header has {len(header)}"
                )
                continue
            row = dict(zip(header, map(_unquoted, cells), strict=True))
            draft = _draft(row, line, number, problems)
            if draft is not None:
                drafts.append(draft)
    except csv.Error as exc:
        problems.add(
            end + 1,
            None,
            f"CSV error: {exc} (a quote opened on this row is not closed)"
            if "unexpected end of data" in str(exc)
            else f"CSV error: {exc}",
        )
    return Parsed(tuple(drafts), tuple(problems.found))


def write(bank: Bank, language: str) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180's line ends
    writer.writerow(HEADER)
    for q in bank.questions:
        choices = [bank.text(c, language) for c in q.choices]
        estimate = q.estimate
        valued = (
            [numerical.number(numerical.in_unit(estimate)), estimate.unit,
             estimate.tolerance.written]
            if estimate
            else ["", "", ""]
        )  # fmt: skip
        row = [
            q.id,
            q.difficulty,
            bank.text(q.prompt, language),
            *choices,
            *[""] * (MAX_CHOICES - len(choices)),
            "" if estimate else q.answer + 1,
            bank.text(q.explanation, language),
            "|".join(q.references),
            *valued,
        ]
        writer.writerow(map(safe_cell, row))
    return out.getvalue()


FORMAT = Format(
    name="csv",
    extension=".csv",
    read=read,
    write=write,
    keeps={"explanation": "the explanation column", "references": "the references column"},
)
