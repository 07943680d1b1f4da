"""``quizbot insights``: what each team knows — the chat view as text, every number as
JSON, or one table as CSV for a spreadsheet."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from dataclasses import asdict
from typing import Any

from bot.content.formats.csv_format import safe_cell
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.insight_report import EstimateInsight, Report
from bot.domain.periods import ROLLING_WINDOWS
from bot.services.engine import Engine
from bot.services.insights import title_of
from bot.services.requests import Context

from ..errors import SetupError
from ..phrases import render
from ..screen import Screen
from .options import (
    Commands,
    add_db_option,
    add_lang_option,
    settings,
    terminal_locale,
    with_engine,
    workspace,
)

TABLES = ("topics", "questions", "days")
HEADERS = {
    "topics": (
        "platform,workspace,topic,title,players,answers,first_tries,first_try_right,"
        "first_try_accuracy,due_reviews,retention"
    ),
    "questions": (
        "platform,workspace,topic,question,answers,first_tries,first_try_right,"
        "first_try_accuracy,most_picked_wrong,picks,flags"
    ),
    "days": "platform,workspace,day,players,answers",
}
ITEMS_HEADER = (
    "topic,question,kind,first_tries,first_try_right,facility,facility_low,facility_high,"
    "discrimination,discriminated_by,pick_rates,flags,estimates,bias,median_error,spread"
)
PLATFORM_NAMES = {"slack": "Slack workspace", "discord": "Discord server"}


def _blank(value: int | None) -> str:
    return "" if value is None else str(value)


def _rows(scope: ScopeRef, report: Report, table: str, titles: dict[str, str]) -> list[list[str]]:
    where = [scope.platform, scope.workspace_id]
    if table == "topics":
        return [
            [
                *where,
                t.bank_id,
                titles[t.bank_id],
                str(t.players),
                str(t.answers),
                str(t.first_tries),
                str(t.first_right),
                _blank(t.accuracy),
                str(t.due_reviews),
                _blank(t.retention),
            ]
            for t in report.topics
        ]
    if table == "questions":
        return [
            [
                *where,
                q.bank_id,
                q.question_id,
                str(q.answers),
                str(q.first_tries),
                str(q.first_right),
                _blank(q.accuracy),
                _blank(q.top_wrong),
                "|".join(map(str, q.picks)),
                ";".join(q.flags),
            ]
            for t in report.topics
            for q in t.questions
        ]
    return [[*where, d.day, str(d.players), str(d.answers)] for d in report.days]


def _workspace_label(scope: ScopeRef) -> str:
    if scope.platform == "terminal":
        return "This computer (quizbot play)"
    return f"{PLATFORM_NAMES.get(scope.platform, scope.platform)} {scope.workspace_id}"


async def _topic_id(engine: Engine, scopes: list[ScopeRef], topic: str) -> str:
    """The id of the topic named; an unknown one is a SetupError (exit 2) naming the
    closest known one."""
    catalog = await engine.library.of(scopes[0]) if scopes else engine.catalog
    bank = catalog.find(topic)
    if bank is None:
        near = catalog.closest(topic)
        hint = f" (did you mean {near.id}?)" if near else ""
        raise SetupError(f"no topic '{topic}'{hint}", 2)
    return bank.id


async def _text(
    engine: Engine, scopes: list[ScopeRef], topic: str | None, period: str, locale: str
) -> str:
    parts = []
    for scope in scopes:
        operator = Context(PlayerRef(scope.platform, "", ""), scope, locale=locale)
        view = await engine.insights.view(operator, topic, period)
        # Whose report it is matters only when there are several.
        heading = f"{_workspace_label(scope)}\n" if len(scopes) > 1 else ""
        parts.append(heading + render(view))
    return "\n\n".join(parts)


async def _data(
    engine: Engine,
    scopes: list[ScopeRef],
    topic: str | None,
    period: str,
    locale: str,
    *,
    form: str,
    table: str,
) -> str:
    """Every number as JSON, or ``table`` as CSV."""
    out = io.StringIO()
    if form == "csv":
        out.write(HEADERS[table] + "\r\n")
    writer = csv.writer(out)
    documents = []
    for scope in scopes:
        report, catalog = await engine.insights.report(scope, period, topic)
        titles = {t.bank_id: title_of(catalog, t.bank_id, locale) for t in report.topics}
        if form == "csv":
            writer.writerows(map(safe_cell, row) for row in _rows(scope, report, table, titles))
        else:
            documents.append(
                {"platform": scope.platform, "workspace": scope.workspace_id, **asdict(report)}
            )
    return out.getvalue() if form == "csv" else json.dumps(documents, ensure_ascii=False, indent=2)


def _item_records(report: Report, estimates: tuple[EstimateInsight, ...]) -> list[dict[str, Any]]:
    """One record per item: a choice question's analysis, an estimate question's bias
    (the team's median answer / the truth), median error and spread (as factors)."""
    records: list[dict[str, Any]] = [
        {
            "topic": q.bank_id, "question": q.question_id, "kind": "choice",
            "first_tries": q.first_tries, "first_try_right": q.first_right,
            "facility": q.accuracy, "interval": q.interval,
            "discrimination": None if q.discrimination is None else round(q.discrimination, 3),
            "discriminated_by": q.discriminated, "pick_rates": q.pick_rates, "flags": q.flags,
        }
        for topic in report.topics
        for q in topic.questions
        if sum(q.picks)
    ]  # fmt: skip
    records += [
        {
            "topic": e.bank_id, "question": e.question_id, "kind": "estimate",
            "estimates": e.answers, "bias": round(e.median, 3),
            "median_error": round(e.error, 3), "spread": round(e.spread, 3),
        }
        for e in estimates
    ]  # fmt: skip
    return records


def _item_line(record: dict[str, Any]) -> str:
    name = f"{record['topic']}/{record['question']}"
    if record["kind"] == "estimate":
        return (
            f"{name}: {record['estimates']} first estimates · bias ×{record['bias']:.2g}"
            f" · median error ×{record['median_error']:.2g} · spread ×{record['spread']:.2g}"
        )
    low, high = record["interval"] or ("—", "—")
    facility = "—" if record["facility"] is None else f"{record['facility']}%"
    found = record["discrimination"]
    discrimination = "—" if found is None else f"{found:+.2f}"
    picks = "/".join("—" if r is None else str(r) for r in record["pick_rates"])
    flags = ", ".join(record["flags"]) or "no flags"
    return (
        f"{name}: {record['first_tries']} first tries · facility {facility} ({low}–{high}%)"
        f" · discrimination {discrimination} (of {record['discriminated_by']})"
        f" · picks {picks}% · {flags}"
    )


def _item_cells(record: dict[str, Any]) -> list[str]:
    def cell(value: object) -> str:
        if value is None:
            return ""
        if isinstance(value, tuple):
            return "|".join(cell(v) for v in value)
        return str(value)

    low, high = record.get("interval") or (None, None)
    return [
        cell(record.get(k))
        for k in ("topic", "question", "kind", "first_tries", "first_try_right", "facility")
    ] + [
        cell(low), cell(high),
        *(cell(record.get(k)) for k in ("discrimination", "discriminated_by", "pick_rates")),
        ";".join(record.get("flags", ())),
        *(cell(record.get(k)) for k in ("estimates", "bias", "median_error", "spread")),
    ]  # fmt: skip


async def _items(engine: Engine, topic: str | None, period: str, form: str) -> str:
    """The shipped banks' items, pooled over every workspace (for their maintainers)."""
    report, estimates = await engine.insights.shipped_items(period, topic)
    records = _item_records(report, estimates)
    if form == "json":
        return json.dumps(records, ensure_ascii=False, indent=2) + "\n"
    if form == "csv":
        out = io.StringIO()
        out.write(ITEMS_HEADER + "\r\n")
        csv.writer(out).writerows(map(safe_cell, _item_cells(r)) for r in records)
        return out.getvalue()
    if not records:
        return "No answers to the shipped banks yet.\n"
    return "\n".join(_item_line(r) for r in records) + "\n"


def _cmd_insights(args: argparse.Namespace) -> int:
    core = settings(args).core
    locale = terminal_locale(args.lang, core)

    async def work(engine: Engine) -> int:
        # Every workspace with answers when none is named.
        scopes = args.workspace or await engine.insights.workspaces()
        topic = await _topic_id(engine, scopes, args.topic) if args.topic else args.topic
        if args.items:
            # Data for another program, or a table to read: exactly as made.
            sys.stdout.write(await _items(engine, topic, args.period, args.format))
            return 0
        if args.format == "text":
            Screen().say(await _text(engine, scopes, topic, args.period, locale))
            return 0
        report = await _data(
            engine, scopes, topic, args.period, locale, form=args.format, table=args.table
        )
        # Data for another program: exactly as made, never wrapped.
        sys.stdout.write(report if args.format == "csv" else report + "\n")
        return 0

    return with_engine(core, work)


def add_parser(commands: Commands) -> None:
    report = commands.add_parser("insights", help="what each team knows: per topic and question")
    report.add_argument(
        "--workspace",
        type=workspace,
        action="append",
        metavar="PLATFORM:ID",
        help="one workspace, e.g. slack:T0123 (repeatable; default: every one with answers)",
    )
    report.add_argument(
        "--period",
        choices=ROLLING_WINDOWS,
        default="all",
        help="the last 7 or 30 days, or all time (default all)",
    )
    report.add_argument("--topic", help="one topic: its id or alias, e.g. offloading")
    report.add_argument(
        "--format",
        choices=("text", "csv", "json"),
        default="text",
        help="text to read (default), one table as CSV (--table), or every number as JSON",
    )
    report.add_argument(
        "--items",
        action="store_true",
        help="the shipped banks' item analysis, pooled over every workspace (for maintainers)",
    )
    report.add_argument(
        "--table", choices=TABLES, default="topics", help="which table --format csv prints"
    )
    add_lang_option(report)
    add_db_option(report)
    report.set_defaults(func=_cmd_insights)
