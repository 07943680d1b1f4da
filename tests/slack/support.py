"""Helpers for the Slack adapter's tests: the signing secret, the app on a port, and
what the database holds."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aiohttp import web

from adapters.slack.runtime import build_app, web_app
from adapters.slack.settings import SlackSettings
from bot.content.banks import Catalog
from bot.services.engine import Engine
from bot.ui.i18n import LOCALES
from fakes.slack import FakeSlack, User, shown_text

SECRET = "test-signing-secret"


USERS = {
    "U1": User("en-US", "Ada", "Ada Lovelace"),
    "U2": User("en-GB", "", "Grace Hopper"),  # no display name: the real name is used
    "UHI": User("hi-IN", "आशा"),
    "UBN": User("bn-IN", "অমিত"),
    "UADMIN": User("en-US", "Boss", admin=True),  # a workspace admin, per users.info
    "UOWNER": User("en-US", "Owner", owner=True),
    "UENV": User("en-US", "Ops"),  # an admin through QUIZBOT_SLACK_ADMINS only
}


ENV_ADMINS = frozenset({"UENV"})


async def start_http(
    engine: Engine, fake: FakeSlack, settings: SlackSettings | None = None, timeout: float = 10
) -> tuple[web.AppRunner, str]:
    """The real app in HTTP mode on a free port; returns its runner and events URL."""
    settings = settings or SlackSettings(
        bot_token="xoxb-test",
        signing_secret=SECRET,
        app_token="",
        api_url=fake.api_url,
        admins=ENV_ADMINS,
    )
    runner = web.AppRunner(web_app(build_app(engine, settings, timeout=timeout)))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    host, port = runner.addresses[0][:2]
    return runner, f"http://{host}:{port}/slack/events"


def db_counts(path: str | Path) -> dict[str, int]:
    """Rows per table: what a refused request must leave unchanged."""
    with sqlite3.connect(path) as db:
        tables = ("runs", "answers", "players", "totals", "attempts")
        return {t: db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables}


def answer_key(catalog: Catalog) -> dict[str, str]:
    """Every choice question's prompt → its right choice, in every locale."""
    return {
        q.prompt[loc]: q.choices[q.answer][loc]
        for bank in catalog.banks
        for q in bank.questions
        for loc in LOCALES
        if loc in q.prompt and q.estimate is None
    }


_CHOICE = re.compile(r"^([A-E])\. (.*)$")


def right_letter(message: Mapping[str, Any], key: Mapping[str, str]) -> str:
    """The letter of the right answer in a question message, read as a player would."""
    shown = shown_text(message)
    prompt = next(p for p in key if p in shown)
    for line in shown.splitlines():
        match = _CHOICE.match(line)
        if match and match[2] == key[prompt]:
            return match[1]
    raise AssertionError(f"no right answer shown for {prompt!r}")


def db_problems(path: str | Path) -> list[str]:
    """What is inconsistent on disk: integrity, a run whose progress disagrees with its
    answers, or all-time totals that disagree with the answers (a point scored twice)."""
    with sqlite3.connect(path) as db:
        problems = [r[0] for r in db.execute("PRAGMA integrity_check") if r[0] != "ok"]
        problems += [
            f"run {run}: position {position}/points {points} but {n} answers worth {total}"
            for run, position, points, n, total in db.execute(
                "SELECT r.run_id, r.position, r.points, COUNT(a.run_id), COALESCE(SUM(a.points), 0)"
                " FROM runs r LEFT JOIN answers a ON a.run_id = r.run_id GROUP BY r.run_id"
                " HAVING r.position != COUNT(a.run_id) OR r.points != COALESCE(SUM(a.points), 0)"
            )
        ]
        problems += [
            f"totals of {player} on {bank}: {board} points, answers worth {scored}"
            for player, bank, board, scored in db.execute(
                "SELECT t.player_id, b.bank_id, t.points, (SELECT COALESCE(SUM(a.points), 0)"
                " FROM answers a WHERE a.player_id = t.player_id AND a.bank_id = b.bank_id"
                " AND a.workspace_id = b.workspace_id) AS scored FROM totals t JOIN boards b"
                " ON b.board_id = t.board_id WHERE b.period = 'all' AND b.bank_id != '*'"
                " AND t.points != scored"
            )
        ]
    return problems
