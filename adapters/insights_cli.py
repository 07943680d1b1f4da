"""``quizbot insights``: the insight numbers from the command line — the chat view as
text, every number as JSON, or one table as CSV for a spreadsheet."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict

from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.insight_report import Report
from bot.services.channel import Caller
from bot.services.engine import Engine
from bot.services.insights import title_of

from .errors import SetupError
from .phrases import render

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


def _blank(value: int | None) -> str:
    return "" if value is None else str(value)


def rows(scope: ScopeRef, report: Report, table: str, titles: dict[str, str]) -> list[list[str]]:
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


PLATFORM_NAMES = {"slack": "Slack workspace", "discord": "Discord server"}


def _workspace_label(scope: ScopeRef) -> str:
    if scope.platform == "terminal":
        return "This computer (quizbot play)"
    return f"{PLATFORM_NAMES.get(scope.platform, scope.platform)} {scope.workspace_id}"


async def insights(
    engine: Engine,
    workspaces: list[ScopeRef],
    *,
    period: str,
    topic: str | None,
    form: str,
    table: str,
    locale: str,
) -> str:
    """The report of each workspace (every one with answers when none is named). An
    unknown topic raises SetupError (exit 2), the closest known one named."""
    scopes = workspaces or await engine.store.insights.workspaces()
    if topic:
        catalog = await engine.library.of(scopes[0]) if scopes else engine.catalog
        bank = catalog.find(topic)
        if bank is None:
            near = catalog.closest(topic)
            hint = f" (did you mean {near.id}?)" if near else ""
            raise SetupError(f"no topic '{topic}'{hint}", 2)
        topic = bank.id
    if form == "text":
        parts = []
        for scope in scopes:
            caller = Caller(PlayerRef(scope.platform, "", ""), scope, locale, is_admin=True)
            view = await engine.insights.view(caller, topic, period)
            # Whose report it is matters only when there are several.
            heading = f"{_workspace_label(scope)}\n" if len(scopes) > 1 else ""
            parts.append(heading + render(view))
        return "\n\n".join(parts)
    out = io.StringIO()
    if form == "csv":
        out.write(HEADERS[table] + "\r\n")
    writer = csv.writer(out)
    documents = []
    for scope in scopes:
        report, catalog = await engine.insights.report(scope, period, topic)
        titles = {t.bank_id: title_of(catalog, t.bank_id, locale) for t in report.topics}
        if form == "csv":
            writer.writerows(rows(scope, report, table, titles))
        else:
            documents.append(
                {"platform": scope.platform, "workspace": scope.workspace_id, **asdict(report)}
            )
    return out.getvalue() if form == "csv" else json.dumps(documents, ensure_ascii=False, indent=2)
