"""Helpers for the Slack adapter's tests: the signing secret, the app on a port, and
what the database holds."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from adapters.slack.runtime import build_app, web_app
from adapters.slack.settings import SlackSettings
from bot.content.banks import Catalog
from bot.services.engine import Engine
from bot.ui.i18n import LOCALES
from fakes.slack import FakeSlack, SlackDriver, User, buttons, shown_text

from ..support.quiz import far_off

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


@dataclass(frozen=True)
class Key:
    """The right answers, by prompt in every locale: a choice question's right choice,
    an estimate's true value as its bank writes it."""

    choices: dict[str, str]
    estimates: dict[str, str]


def answer_key(catalog: Catalog) -> Key:
    found = [(q, loc) for b in catalog.banks for q in b.questions for loc in LOCALES]
    return Key(
        {
            q.prompt[loc]: q.choices[q.answer][loc]
            for q, loc in found
            if not q.estimate and loc in q.prompt
        },
        {q.prompt[loc]: q.estimate.written for q, loc in found if q.estimate and loc in q.prompt},
    )


async def answer(
    slack: SlackDriver,
    fake: FakeSlack,
    question: Mapping[str, Any],
    key: Key,
    user: str,
    right: bool,
) -> dict[str, Any]:
    """Answer a quiz question as a player: click a choice, or type an estimate into the
    form its Answer button opens; the feedback that replaces the question."""
    shown = buttons(question)
    opens = [action for action in shown.values() if action.startswith("qz:e:")]
    if opens:  # an estimate's Answer button
        text = shown_text(question)
        truth = next(v for p, v in key.estimates.items() if p in text)
        ref, form = await slack.click_form(opens[0], user, fake)
        assert (
            await slack.submit(form, {"estimate": truth if right else far_off(truth)}, user) == {}
        )
        return await fake.response(ref)
    letter = right_letter(question, key)
    return await slack.click(
        shown[letter if right else next(c for c in shown if c != letter)], user
    )


_CHOICE = re.compile(r"^([A-E])\. (.*)$")


def right_letter(message: Mapping[str, Any], key: Key) -> str:
    """The letter of the right answer in a question message, read as a player would."""
    shown = shown_text(message)
    prompt = next(p for p in key.choices if p in shown)
    for line in shown.splitlines():
        match = _CHOICE.match(line)
        if match and match[2] == key.choices[prompt]:
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
