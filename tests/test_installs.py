"""Installations and departures in the core, on both backends (issue 18, parts 1 and 2):
credentials kept per workspace, one-time install states, a workspace that removed the
app losing its installation at once and its data after the grace period, unless it
installs again; ``quizbot db forget --workspace`` takes the installation too."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from bot.content.banks import Catalog
from bot.domain.identities import ScopeRef
from bot.domain.memory import Memory
from bot.operations.sealing import Sealer, SealError
from bot.persistence import Store
from bot.services.engine import Engine
from bot.ui.views import QuestionView

from .support.channel import CHANNEL, PLAYERS, FakeClock, moment
from .test_review import answer_quiz

ANA, BO, _ = PLAYERS
TEAM = ScopeRef("slack", "T1")
OTHER = ScopeRef("slack", "T2", "C2")
DAY = 86400.0


Opener = Callable[[float], Awaitable[tuple[Engine, FakeClock]]]


@pytest.fixture
async def open_engine(location: str, catalog: Catalog) -> AsyncIterator[Opener]:
    """Opens the engine on ``location`` with a grace period of so many days, on a clock
    the test moves; closed at the end."""
    opened: list[Engine] = []

    async def open_(days: float) -> tuple[Engine, FakeClock]:
        clock = FakeClock(moment("2027-01-04T06:00"))
        store = await Store.open(location, memory=Memory(fuzz=False))
        opened.append(Engine(catalog, store, clock, forget_after_days=days))
        return opened[-1], clock

    yield open_
    for engine in opened:
        await engine.store.close()


async def count(engine: Engine, sql: str) -> int:
    (row,) = await engine.store.database.read(sql, ())
    return int(row[0])


async def departed(engine: Engine) -> int:
    """Whether TEAM's data is due to be deleted (its departure row)."""
    return await count(engine, "SELECT COUNT(*) FROM departures WHERE workspace_id = 'T1'")


async def test_a_departed_workspace_is_forgotten_after_the_grace_period(
    open_engine: Opener,
) -> None:
    engine, clock = await open_engine(7)
    installs = engine.installs
    await installs.saved(TEAM, "sealed-T1")
    await installs.saved(OTHER, "sealed-T2")
    await answer_quiz(engine, ANA, "tiny", [True, True])
    await engine.start_quiz(BO, CHANNEL, "tiny", "en")  # left unfinished
    await engine.start_quiz(BO, OTHER, "tiny", "en")
    assert await installs.count("slack") == 2
    assert await installs.credentials(TEAM) == "sealed-T1"

    departure = await installs.left(TEAM)
    assert departure.forget_at - departure.left_at == 7 * DAY
    assert await installs.credentials(TEAM) is None
    assert await installs.credentials(OTHER) == "sealed-T2"
    clock.advance(DAY)
    again = await installs.left(TEAM)  # tokens_revoked after app_uninstalled
    assert again.forget_at == departure.forget_at

    clock.advance(6 * DAY - 1)
    assert await engine.scheduler.run(installs.forgetting) == 0
    assert await count(engine, "SELECT COUNT(*) FROM answers") == 2
    clock.advance(1)
    assert await engine.scheduler.run(installs.forgetting) == 1
    assert await count(engine, "SELECT COUNT(*) FROM answers") == 0
    assert await count(engine, "SELECT COUNT(*) FROM cards") == 0
    assert await count(engine, "SELECT COUNT(*) FROM runs WHERE workspace_id = 'T1'") == 0
    assert await count(engine, "SELECT COUNT(*) FROM runs WHERE workspace_id = 'T2'") == 1
    assert await departed(engine) == 0
    assert await installs.credentials(OTHER) == "sealed-T2"
    # The run cache forgot the workspace's runs too: Bo's unfinished one is gone.
    view = await engine.start_quiz(BO, CHANNEL, "tiny", "en", resume=True)
    assert isinstance(view, QuestionView) and not view.resumed


async def test_installing_again_cancels_the_deletion(open_engine: Opener) -> None:
    engine, clock = await open_engine(30)
    installs = engine.installs
    await installs.saved(TEAM, "first")
    await answer_quiz(engine, ANA, "tiny", [True, True])
    await installs.left(TEAM)
    assert await departed(engine) == 1
    clock.advance(29 * DAY)
    await installs.saved(TEAM, "second")
    assert await departed(engine) == 0
    clock.advance(2 * DAY)
    assert await engine.scheduler.run(installs.forgetting) == 0
    assert await count(engine, "SELECT COUNT(*) FROM answers") == 2
    assert await installs.credentials(TEAM) == "second"


async def test_install_states_are_used_once_and_expire(open_engine: Opener) -> None:
    engine, clock = await open_engine(30)
    installs = engine.installs
    state = await installs.issue_state()
    assert len(state) >= 40 and state != await installs.issue_state()
    assert await installs.consume_state(state) is True
    assert await installs.consume_state(state) is False
    assert await installs.consume_state("never-issued") is False
    late = await installs.issue_state()
    clock.advance(601)
    assert await installs.consume_state(late) is False
    # Issuing a state drops the expired ones: the one never used above is gone.
    assert await count(engine, "SELECT COUNT(*) FROM install_states") == 1
    await installs.issue_state()
    assert await count(engine, "SELECT COUNT(*) FROM install_states") == 1


async def test_forgetting_a_workspace_now_takes_its_installation(open_engine: Opener) -> None:
    engine, _ = await open_engine(30)
    await engine.installs.saved(TEAM, "sealed")
    await answer_quiz(engine, ANA, "tiny", [True, True])
    await engine.installs.left(TEAM)
    done = await engine.store.forget.workspace("slack", "T1")
    assert done.rows["departures"] == 1 and done.rows["answers"] == 2
    assert await departed(engine) == 0
    await engine.installs.saved(TEAM, "again")
    done = await engine.store.forget.workspace("slack", "T1")
    assert done.rows == {"installations": 1}


def test_sealed_tokens_open_only_with_their_key() -> None:
    old, new = "o" * 32, "n" * 32
    sealed = Sealer([old]).seal("xoxb-T1-secret")
    assert "xoxb" not in sealed and sealed != Sealer([old]).seal("xoxb-T1-secret")
    assert Sealer([old]).open(sealed) == "xoxb-T1-secret"
    # Rotation: the new key first seals, the old one still opens what it sealed.
    assert Sealer([new, old]).open(sealed) == "xoxb-T1-secret"
    assert Sealer([new, old]).open(Sealer([new, old]).seal("x")) == "x"
    with pytest.raises(SealError):
        Sealer([new]).open(sealed)
    tampered = sealed[:-6] + ("A" if sealed[-6] != "A" else "B") + sealed[-5:]
    with pytest.raises(SealError):
        Sealer([old]).open(tampered)
