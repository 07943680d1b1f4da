"""Concurrency and platform faults, through the real discord.py client and the fake
Discord: what each player sees and what is on disk."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from adapters.discord.client import QuizClient, use_endpoints
from adapters.discord.settings import SettingsError
from bot.content.banks import Catalog, Question
from bot.domain import scoring
from bot.operations import metrics
from bot.persistence import Store
from bot.services.engine import Engine
from bot.ui.messages import t
from fakes.discord import ALICE, BOB, FakeDiscord, FakeUser, Fault, Outcome

from .support import answer_button, answers_on_disk, discord_settings, running_bot, warnings

TOPIC = "tiny"


@pytest.fixture
def first_question(catalog: Catalog) -> Question:
    bank = catalog.get(TOPIC)
    assert bank is not None
    return bank.questions[0]


@pytest.fixture
def health(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Every state the adapter reported for Discord, in order."""
    states: list[bool] = []
    report = engine.health.set_platform

    def spy(name: str, connected: bool) -> None:
        if name == "discord":
            states.append(connected)
        report(name, connected)

    monkeypatch.setattr(engine.health, "set_platform", spy)
    return states


async def start(fake: FakeDiscord, question: Question) -> tuple[str, str]:
    """Alice starts the quiz: its message and the right answer's button."""
    outcome = await fake.slash("quiz", topic=TOPIC)
    return outcome.message["id"], answer_button(outcome, question, True)["custom_id"]


def assert_feedback(outcome: Outcome, message: str) -> None:
    """The quiz moved on in place, showing the right answer was counted."""
    assert (outcome.callback_type, outcome.message["id"]) == (7, message)
    assert t("en", "right") in outcome.text()


def assert_counted_once(db: Path, question: Question, player: str = ALICE.id) -> None:
    points = scoring.answer_points(True, question.difficulty)
    assert [row[1:] for row in answers_on_disk(db)] == [(0, player, question.answer, 1, points)]


# --- concurrency -------------------------------------------------------------------------


async def test_fifty_clicks_at_once_count_once(
    fake: FakeDiscord, bot: QuizClient, first_question: Question, tmp_path: Path
) -> None:
    message, right = await start(fake, first_question)
    outcomes = await asyncio.gather(*(fake.click(message, right) for _ in range(50)))
    moved = [o for o in outcomes if o.callback_type == 7]
    assert len(moved) == 1
    assert_feedback(moved[0], message)
    refused = [o for o in outcomes if o.callback_type != 7]
    assert all(o.ephemeral and o.content == t("en", "already_answered") for o in refused)
    assert_counted_once(tmp_path / "quiz.db", first_question)
    stats = await fake.slash("quiz-stats")
    points = scoring.answer_points(True, first_question.difficulty)
    assert f"1/1 right (100%) · {points} points" in stats.text()


async def test_owner_and_someone_else_racing_on_one_run(
    fake: FakeDiscord, bot: QuizClient, first_question: Question, tmp_path: Path
) -> None:
    message, right = await start(fake, first_question)
    for _ in range(5):  # either may reach the engine first
        alice, bob = await asyncio.gather(
            fake.click(message, right, user=ALICE), fake.click(message, right, user=BOB)
        )
        assert bob.ephemeral and bob.content == t("en", "not_yours", topic=TOPIC)
        if alice.callback_type == 7:
            assert_feedback(alice, message)
        else:
            assert alice.content == t("en", "already_answered")
    assert_counted_once(tmp_path / "quiz.db", first_question)
    assert t("en", "stats_empty") in (await fake.slash("quiz-stats", user=BOB)).text()


# --- REST faults -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fault", "warned"),
    [
        (Fault("/callback", status=429), 1),  # discord.py waits Retry-After, says so once
        (Fault("/callback", status=500), 0),  # retried by discord.py after a second
        (Fault("/callback", delay=0.5), 0),  # slow, within Discord's 3 s
        (Fault("/callback", drop=True), 1),  # sent once more by the adapter
    ],
    ids=["429", "500", "slow", "dropped"],
)
async def test_a_failing_answer_call_loses_nothing(
    fake: FakeDiscord,
    bot: QuizClient,
    first_question: Question,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    fault: Fault,
    warned: int,
) -> None:
    message, right = await start(fake, first_question)
    fake.faults.append(fault)
    assert_feedback(await fake.click(message, right), message)
    assert fake.faults_served == [fault]
    assert_counted_once(tmp_path / "quiz.db", first_question)
    assert len(warnings(caplog)) == warned, warnings(caplog)


async def test_an_answer_that_cannot_be_delivered_is_still_counted(
    fake: FakeDiscord,
    bot: QuizClient,
    first_question: Question,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    message, right = await start(fake, first_question)
    fake.faults += [Fault("/callback", drop=True), Fault("/callback", drop=True)]
    click = asyncio.create_task(fake.click(message, right))
    await fake.settled(lambda: bool(warnings(caplog)))
    assert not click.done()  # the player saw nothing: Discord got no answer
    click.cancel()
    assert len(fake.faults_served) == 2
    assert_counted_once(tmp_path / "quiz.db", first_question)
    assert [w for w in warnings(caplog) if "could not answer" in w] == warnings(caplog)
    assert len(warnings(caplog)) == 1
    # The player clicks again: the answer shows as counted, nothing more is added.
    again = await fake.click(message, right)
    assert again.content == t("en", "already_answered")
    assert_counted_once(tmp_path / "quiz.db", first_question)


async def test_rate_limited_command_sync_waits_and_retries(
    fake: FakeDiscord, engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    fake.faults.append(Fault("/commands", status=429, retry_after=0.2))
    async with running_bot(fake, engine):
        assert fake.command_syncs == 1
    assert len(fake.faults_served) == 1
    assert len(warnings(caplog)) == 1 and "rate limited" in warnings(caplog)[0]


# --- gateway faults ----------------------------------------------------------------------


async def _outage(fake: FakeDiscord, kind: str) -> None:
    if kind == "closed":
        await fake.drop_gateway(4000)
    elif kind == "restart":
        await fake.drop_gateway(1001)
    elif kind == "reconnect":
        await fake.send_op(7)
    else:
        await fake.send_op(9, False)


@pytest.mark.parametrize(
    ("kind", "resumed"),
    [("closed", True), ("restart", True), ("reconnect", True), ("invalid-session", False)],
)
async def test_the_gateway_going_away_is_survived(
    fake: FakeDiscord,
    bot: QuizClient,
    engine: Engine,
    health: list[bool],
    first_question: Question,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    kind: str,
    resumed: bool,
) -> None:
    message, right = await start(fake, first_question)
    health.clear()
    await _outage(fake, kind)
    await fake.settled(lambda: fake.connected.is_set() and health[-1:] == [True])
    assert health == [False, True]
    assert (fake.resumes, fake.identifies) == ((1, 1) if resumed else (0, 2))
    assert (await engine.health.check())["discord"] == "ok"
    # Still serving, the quiz as it was.
    assert_feedback(await fake.click(message, right), message)
    assert_counted_once(tmp_path / "quiz.db", first_question)
    assert warnings(caplog) == ["lost the connection to Discord's gateway: reconnecting"]


async def test_health_follows_the_client(
    fake: FakeDiscord, engine: Engine, health: list[bool]
) -> None:
    async with running_bot(fake, engine):
        assert (await engine.health.check())["discord"] == "ok"
    assert health == [False, True, False]  # not ready until connected
    assert (await engine.health.check())["discord"] == "not connected"


# --- restart in the middle of a burst ----------------------------------------------------


async def test_a_restart_mid_burst_counts_every_answer_exactly_once(
    fake: FakeDiscord, catalog: Catalog, tmp_path: Path, first_question: Question
) -> None:
    db = tmp_path / "burst.db"
    players = [FakeUser(str(1_900_000_000_000_000_000 + i), f"P{i}") for i in range(40)]
    store = await Store.open(db)
    async with running_bot(fake, Engine(catalog, store)) as client:
        quizzes = await asyncio.gather(*(fake.slash("quiz", topic=TOPIC, user=p) for p in players))
        clicks = [
            (q.message["id"], answer_button(q, first_question, True)["custom_id"]) for q in quizzes
        ]
        answered_before = len(fake.callbacks)
        burst: list[asyncio.Task[Outcome]] = []
        for player, (message, right) in zip(players, clicks, strict=True):
            if len(fake.callbacks) >= answered_before + 10 or len(burst) == 30:
                break  # the rest click after the restart only
            burst.append(asyncio.create_task(fake.click(message, right, user=player)))
            await asyncio.sleep(0.005)  # a stream of clicks, not one gulp
        await fake.settled(lambda: len(fake.callbacks) > answered_before)
        await client.close()  # abruptly, clicks in flight
    await store.close()
    await asyncio.wait(burst, timeout=0)
    for task in burst:
        task.cancel()
    seen = [t.result() if t.done() and not t.cancelled() else None for t in burst]
    assert any(seen) and len(burst) < len(players), "the restart came mid-burst"
    acknowledged = {p.id for p, o in zip(players, seen, strict=False) if o and o.callback_type == 7}

    store = await Store.open(db)
    try:
        async with running_bot(fake, Engine(catalog, store)):
            again = await asyncio.gather(
                *(
                    fake.click(message, right, user=player)
                    for player, (message, right) in zip(players, clicks, strict=True)
                )
            )
    finally:
        await store.close()
    for player, outcome in zip(players, again, strict=True):
        if player.id in acknowledged:  # told it counted: on disk, not counted again
            assert outcome.content == t("en", "already_answered")
        else:
            assert outcome.callback_type == 7 or outcome.content == t("en", "already_answered")
    points = scoring.answer_points(True, first_question.difficulty)
    rows = answers_on_disk(db)
    assert sorted(row[2] for row in rows) == sorted(p.id for p in players)
    assert {row[1:2] + row[3:] for row in rows} == {(0, first_question.answer, 1, points)}


# --- an unreachable Discord ---------------------------------------------------------------


async def test_a_gateway_down_for_a_while_is_one_warning_and_one_info(
    fake: FakeDiscord,
    bot: QuizClient,
    health: list[bool],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    port = int(fake.url.rsplit(":", 1)[1])
    health.clear()
    attempts = metrics.sample("quizbot_gateway_reconnect_attempts_total")
    await fake.stop()  # every reconnect attempt is refused until it is back
    await fake.settled(  # several refused: an outage, not one dropped connection
        lambda: metrics.sample("quizbot_gateway_reconnect_attempts_total") >= attempts + 2,
        timeout=60,
    )
    await fake.start(port)
    await fake.settled(lambda: health[-1:] == [True], timeout=60)
    records = caplog.get_records("call")
    assert [r.getMessage() for r in records if r.levelno >= logging.ERROR] == []
    assert warnings(caplog) == ["lost the connection to Discord's gateway: reconnecting"]
    infos = [r.getMessage() for r in records if r.levelno == logging.INFO]
    assert len([m for m in infos if m.startswith("Discord is back after ")]) == 1
    assert not any(r.exc_info for r in records if r.levelno >= logging.INFO)


@pytest.mark.parametrize("down", ["api", "gateway"])
async def test_discord_unreachable_at_start_is_one_line(
    fake: FakeDiscord, engine: Engine, unused_port: int, down: str
) -> None:
    closed = f"{'http' if down == 'api' else 'ws'}://127.0.0.1:{unused_port}"
    environ = {**fake.environ()}
    environ["DISCORD_API_BASE_URL" if down == "api" else "DISCORD_GATEWAY_URL"] = closed
    settings = discord_settings(environ)
    use_endpoints(settings)
    client = QuizClient(engine, settings)
    with pytest.raises(SettingsError) as raised:
        await asyncio.wait_for(client.start(settings.token), timeout=30)
    await client.close()
    what = "API" if down == "api" else "gateway"
    assert str(raised.value).startswith(f"cannot reach Discord's {what} at {closed}")
    assert "\n" not in str(raised.value)


async def test_gateway_events_discord_py_cannot_read_are_dropped_not_fatal(
    fake: FakeDiscord, bot: QuizClient, caplog: pytest.LogCaptureFixture
) -> None:
    # Discord changed a payload without notice: a field this discord.py requires is gone.
    odd = fake.interaction(2, {"id": fake.command_id("quiz-topics"), "name": "quiz-topics"})
    del odd["attachment_size_limit"]
    for _ in range(3):  # repeating, as a changed payload does
        await fake.dispatch("INTERACTION_CREATE", odd)
    topics = await fake.slash("quiz-topics")  # still connected, still serving
    assert "Quiz topics" in topics.text()
    assert not bot.is_closed()
    assert warnings(caplog) == [  # once, though it came three times
        "dropped a INTERACTION_CREATE event this discord.py cannot read"
        " (KeyError: 'attachment_size_limit')",
    ]
