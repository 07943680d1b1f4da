"""What the play services share: the platforms' publishers, posting that never stops the
scheduler (channel play), and the pieces of views they all build (notices, refusals,
choices, answer bars, standings rows)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import time
from typing import Protocol

from bot.content.banks import Bank, Catalog, Question
from bot.content.estimates import Unreadable, read
from bot.domain.crowd import Bin
from bot.domain.daily import parse_time, parse_timezone
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.quiz_runs import LETTERS
from bot.operations import metrics
from bot.persistence import ChannelResults, TotalRow
from bot.services.requests import Context
from bot.ui.messages import t
from bot.ui.views import (
    BarRow,
    ChannelView,
    ChoiceView,
    EstimateAsk,
    EstimateResult,
    LeaderRow,
    Notice,
)

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


def refusal(context: Context, kind: str, command: str, **values: object) -> Notice:
    """A bad argument: what is wrong; the platform adds the command's usage in its own
    syntax (``command``: daily, race or competition)."""
    quoted = {
        key: value[:QUOTED] + "…" if isinstance(value, str) and len(value) > QUOTED else value
        for key, value in values.items()
    }
    return Notice(context.locale, kind, t(context.locale, kind, **quoted), usage=command)


def same_workspace(post: ScopeRef, player: PlayerRef, where: ScopeRef | None) -> bool:
    """Whether a click on a channel post (a daily question, a race) counts: it must come
    from the post's own workspace, or a copied button id would score on another team's
    boards. A click that does not say where it came from never counts."""
    return (
        where is not None
        and player.platform == post.platform == where.platform
        and where.workspace_id == post.workspace_id
    )


def time_of_day(
    context: Context, command: str, at: str, timezone: str
) -> tuple[time, str] | Notice:
    """The time of day and IANA timezone a command names, or the refusal naming which is
    wrong (``command``: daily or remind)."""
    when = parse_time(at)
    if when is None:
        return refusal(context, "bad_time", command, value=at)
    zone = parse_timezone(timezone)
    if zone is None:
        return refusal(context, "bad_timezone", command, value=timezone)
    return when, zone


def choices(
    bank: Bank,
    question: Question,
    order: Sequence[int],
    locale: str,
    action: Callable[[int], str],
) -> tuple[ChoiceView, ...]:
    """A question's choices in their shuffled ``order`` (bank indices), lettered as
    shown; ``action`` gives a choice's button id from its bank index."""
    return tuple(
        ChoiceView(
            LETTERS[shown], bank.text(question.choices[choice], locale), action(choice), choice
        )
        for shown, choice in enumerate(order)
    )


def estimate_problem(locale: str, refused: Unreadable, typed: str, dimension: str) -> str:
    """Why a typed estimate was not read, and how to write one of ``dimension``."""
    units = t(locale, f"estimate_units_{dimension.replace(' ', '_')}")
    if refused.reason == "dimension" and refused.found:
        found = t(locale, f"estimate_dimension_{refused.found.replace(' ', '_')}")
        wanted = t(locale, f"estimate_dimension_{dimension.replace(' ', '_')}")
        said = t(locale, "estimate_wrong_dimension", typed=typed, found=found, wanted=wanted)
    else:
        said = t(locale, f"estimate_unreadable_{refused.reason}", typed=typed)
    return f"{said} {t(locale, 'estimate_how', units=units)}"


def read_estimate(question: Question, typed: str, locale: str) -> float | str:
    """``typed`` as a value of the estimate ``question`` (in its base unit), or why it is
    none, in ``locale`` (for a form that says so before it closes)."""
    assert question.estimate is not None
    dimension = question.estimate.truth.dimension
    try:
        return read(typed, dimension).value
    except Unreadable as refused:
        return estimate_problem(locale, refused, typed, dimension)


def estimate_ask(question: Question, action_id: str) -> EstimateAsk | None:
    """How to answer ``question`` when it is an estimate (its form opened by ``action_id``)."""
    estimate = question.estimate
    if estimate is None:
        return None
    return EstimateAsk(
        action_id, estimate.truth.dimension, estimate.unit, estimate.tolerance.written
    )


def estimate_result(question: Question, value: float, typed: str) -> EstimateResult:
    """How an estimate of ``value`` (typed as ``typed``) came out, as shown: what was typed,
    and its value in the question's unit when it was written in another."""
    estimate = question.estimate
    assert estimate is not None
    shown, given = estimate.shown(value), typed.strip()
    same = "".join(shown.split()) == "".join(typed.split())
    return EstimateResult(
        given=given if same else f"{given} (= {shown})",
        truth=estimate.written,
        off=value / estimate.truth.value,
        tolerance=estimate.tolerance.written,
    )


def estimate_range(question: Question, part: Bin) -> str:
    """A bin of estimates as the values it holds: "160 KiB – 510 KiB", "< 29 KiB"."""
    estimate = question.estimate
    assert estimate is not None
    low, high = (
        None if edge is None else estimate.shown(edge * estimate.truth.value)
        for edge in (part.low, part.high)
    )
    if low is None:
        return f"< {high}"
    return f"> {low}" if high is None else f"{low} – {high}"


def choice_of(shown: Sequence[ChoiceView], choice: int) -> ChoiceView:
    """The shown choice of a bank index."""
    return next(c for c in shown if c.choice == choice)


def bars(
    shown: Sequence[ChoiceView], results: ChannelResults, question: Question
) -> tuple[tuple[BarRow, ...], ChoiceView, int]:
    """Distribution rows in the shown order, the right choice and the answer count."""
    total = sum(results.counts.values())
    rows = tuple(
        BarRow(
            c.letter,
            c.text,
            results.counts.get(c.choice, 0),
            round(100 * results.counts.get(c.choice, 0) / total) if total else 0,
            c.choice == question.answer,
        )
        for c in shown
    )
    return rows, choice_of(shown, question.answer), total


def leader_row(row: TotalRow) -> LeaderRow:
    """A standings row as shown: a player without a known name goes by their id."""
    return LeaderRow(
        row.rank, row.player_id, row.name or row.player_id, row.points, row.correct, row.answered
    )
