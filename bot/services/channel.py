"""What channel play's services (``dailies.py``, ``races.py``, ``competitions.py``) share:
who sent a command, the platforms' publishers, posting that never stops the scheduler,
and the pieces of views they all build (choices, answer bars, standings rows)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.content.banks import Bank, Catalog, Question
from bot.domain import actions
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.quiz_runs import LETTERS, shuffled_order
from bot.operations import metrics
from bot.persistence import ChannelResults, TotalRow
from bot.ui.messages import t
from bot.ui.views import BarRow, ChannelView, ChoiceView, LeaderRow, Notice

log = logging.getLogger(__name__)


class Publisher(Protocol):
    """What a platform adapter provides so the core can post in channels."""

    async def post(self, channel: ScopeRef, view: ChannelView) -> str:
        """Post a public message; returns a reference to edit it later."""
        ...

    async def update(self, channel: ScopeRef, ref: str, view: ChannelView) -> None: ...

    async def tell(self, workspace: ScopeRef, player_id: str, view: Notice) -> None:
        """A private message to one member, outside any interaction (Slack: from the
        app's DM; Discord: a direct message)."""
        ...


class Publishers:
    """The connected platforms' publishers. A platform registers its own when it
    connects and unregisters it when it closes; nothing posts where none is registered."""

    def __init__(self) -> None:
        self._by_platform: dict[str, Publisher] = {}

    def register(self, platform: str, publisher: Publisher) -> None:
        self._by_platform[platform] = publisher

    def unregister(self, platform: str, publisher: Publisher) -> bool:
        """Remove ``publisher`` if it is still the one registered (a newer client of
        the same platform may have taken its place); False when it was not."""
        if self._by_platform.get(platform) is not publisher:
            return False
        del self._by_platform[platform]
        return True

    def platforms(self) -> tuple[str, ...]:
        return tuple(self._by_platform)

    def get(self, platform: str) -> Publisher | None:
        return self._by_platform.get(platform)

    def __contains__(self, platform: object) -> bool:
        return platform in self._by_platform


@dataclass(frozen=True)
class Caller:
    """Who sent a channel command, and where."""

    player: PlayerRef
    scope: ScopeRef
    locale: str
    is_admin: bool = False


async def post(publisher: Publisher, scope: ScopeRef, view: ChannelView, what: str) -> str | None:
    """Post in a channel; a platform failure is logged once and counted, and the caller
    goes on (the scheduler must never stop over one channel)."""
    try:
        return await publisher.post(scope, view)
    except Exception as exc:
        log.warning("%s for %s could not be posted: %s", what, scope, exc)
        metrics.API_ERRORS.labels(platform=scope.platform).inc()
        return None


def question_in(catalog: Catalog, bank_id: str, question_id: str) -> tuple[Bank, Question] | None:
    bank = catalog.get(bank_id)
    question = bank.question(question_id) if bank else None
    return (bank, question) if bank and question else None


def notice(locale: str, kind: str, **values: object) -> Notice:
    return Notice(locale, kind, t(locale, kind, **values))


QUOTED = 60  # characters of a bad value quoted back: a pasted novel must not hide the usage


def refusal(caller: Caller, kind: str, command: str, **values: object) -> Notice:
    """A bad argument: what is wrong; the platform adds the command's usage in its own
    syntax (``command``: daily, race or competition)."""
    quoted = {
        key: value[:QUOTED] + "…" if isinstance(value, str) and len(value) > QUOTED else value
        for key, value in values.items()
    }
    return Notice(caller.locale, kind, t(caller.locale, kind, **quoted), usage=command)


def choices(
    bank: Bank, question: Question, seed: int, locale: str, action: Callable[[int], str]
) -> tuple[ChoiceView, ...]:
    order = shuffled_order(seed, question.id, len(question.choices))
    return tuple(
        ChoiceView(LETTERS[shown], bank.text(question.choices[choice], locale), action(choice))
        for shown, choice in enumerate(order)
    )


def bars(
    shown: Sequence[ChoiceView], results: ChannelResults, question: Question
) -> tuple[tuple[BarRow, ...], ChoiceView, int]:
    """Distribution rows in the shown order, the right choice and the answer count."""
    keys = [actions.decode(c.action_id) for c in shown]
    indices = [getattr(k, "choice", -1) for k in keys]
    total = sum(results.counts.values())
    rows = tuple(
        BarRow(
            c.letter,
            c.text,
            results.counts.get(i, 0),
            round(100 * results.counts.get(i, 0) / total) if total else 0,
            i == question.answer,
        )
        for c, i in zip(shown, indices, strict=True)
    )
    return rows, shown[indices.index(question.answer)], total


def leader_rows(rows: Sequence[TotalRow]) -> tuple[LeaderRow, ...]:
    return tuple(
        LeaderRow(r.rank, r.player_id, r.name or r.player_id, r.points, r.correct, r.answered)
        for r in rows
    )
