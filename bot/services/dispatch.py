"""One dispatch for every request. Its table says, per request type, what answers it and
what is true of it (its ``Traits``: who may make it, what it is about, how its reply is
delivered); those are checked here, once. Adapters only parse, render and deliver."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from bot.domain import actions
from bot.persistence import StoreError
from bot.services.channel import notice
from bot.services.requests import (
    About,
    AnswerDailyEstimate,
    AnswerEstimate,
    CompetitionEnd,
    CompetitionStandings,
    CompetitionStart,
    Context,
    DailyOff,
    DailyOn,
    DailyStatus,
    Delivery,
    ForgetMe,
    ListBanks,
    PlayButton,
    ProposeQuestion,
    RaceStart,
    RaceStop,
    RemindOff,
    RemindOn,
    RemindStatus,
    RemoveBank,
    Reply,
    Request,
    SetLanguage,
    SetSharing,
    ShowDashboard,
    ShowInsights,
    ShowLeaderboard,
    ShowMap,
    ShowProposals,
    ShowStats,
    ShowTopics,
    StartQuiz,
    StartReview,
    Traits,
    UnknownButton,
    UploadBank,
    Usage,
    Who,
)
from bot.services.workspace_banks import Draft
from bot.ui import i18n
from bot.ui.views import ForgetConfirm, Notice, View

if TYPE_CHECKING:
    from bot.services.engine import Engine

log = logging.getLogger(__name__)

R = TypeVar("R")


@dataclass(frozen=True)
class Route(Generic[R]):
    """What answers a request type, and what is true of it."""

    handler: Callable[[Engine, R, Context], Awaitable[View]]
    traits: Traits = field(default_factory=Traits)
    # The player's language is resolved first; a button in play finds its own (a run's).
    localized: bool = True


def _play(engine: Engine, button: PlayButton, context: Context) -> Awaitable[View]:
    return engine.click(context.player, button, context.platform_locale, context.scope)


async def _dashboard(engine: Engine, _: object, context: Context) -> View:
    if context.workspace_name:  # the dashboard's heading names it
        await engine.insights.remember_name(context.scope, context.workspace_name)
    return engine.insights.dashboard_link(context)


async def _confirm_forget(engine: Engine, _: ForgetMe, context: Context) -> View:
    return ForgetConfirm(context.locale, actions.ForgetAction().encode())


async def _usage(engine: Engine, request: Usage, context: Context) -> View:
    return Notice(context.locale, "usage", "", usage=request.command)


def _draft(request: ProposeQuestion) -> Draft:
    return Draft(
        request.topic, request.prompt, request.choices, request.explanation, request.reference
    )


_ADMINS = Who.ADMINS
_CHANNEL, _BANKS, _INSIGHTS = About.CHANNEL_PLAY, About.BANKS, About.INSIGHTS

ROUTES: dict[type[Any], Route[Any]] = {
    # The player's own.
    StartQuiz: Route[StartQuiz](
        lambda e, r, c: e.quiz.start(c.player, c.scope, r.topic, c.locale, r.questions, r.resume)
    ),
    ShowTopics: Route[ShowTopics](lambda e, r, c: e.topics(c.scope, c.locale)),
    ShowLeaderboard: Route[ShowLeaderboard](
        lambda e, r, c: e.boards.view(c.player, c.scope, c.locale, r.period, r.topic),
        Traits(delivery=Delivery.PUBLIC),  # standings are for everyone to see
    ),
    ShowStats: Route[ShowStats](lambda e, r, c: e.player_stats.view(c.player, c.scope, c.locale)),
    StartReview: Route[StartReview](lambda e, r, c: e.quiz.review(c.player, c.scope, c.locale)),
    RemindOn: Route[RemindOn](lambda e, r, c: e.reminders.on(c, r.at, r.timezone)),
    RemindOff: Route[RemindOff](lambda e, r, c: e.reminders.off(c)),
    RemindStatus: Route[RemindStatus](lambda e, r, c: e.reminders.status(c)),
    SetLanguage: Route[SetLanguage](
        lambda e, r, c: e.players.set_locale(c.player, r.tag, c.scope.workspace_id)
    ),
    ForgetMe: Route[ForgetMe](_confirm_forget),
    Usage: Route[Usage](_usage),
    # Buttons in play. Only a quiz's own message moves on in place: a daily or race
    # question is a public post, never replaced for everyone.
    actions.AnswerAction: Route[PlayButton](
        _play, Traits(delivery=Delivery.REPLACE), localized=False
    ),
    actions.NextAction: Route[PlayButton](
        _play, Traits(delivery=Delivery.REPLACE), localized=False
    ),
    actions.EstimateAction: Route[PlayButton](
        _play, Traits(delivery=Delivery.REPLACE), localized=False
    ),
    AnswerEstimate: Route[AnswerEstimate](
        lambda e, r, c: e.quiz.click(c.player, r.action, c.platform_locale, r.text),
        Traits(delivery=Delivery.REPLACE),
        localized=False,
    ),
    actions.DailyAction: Route[PlayButton](_play, localized=False),
    actions.DailyEstimateAction: Route[PlayButton](_play, localized=False),
    AnswerDailyEstimate: Route[AnswerDailyEstimate](  # answered privately, in their language
        lambda e, r, c: e.daily.estimate(c.player, r.action, r.text, c.locale, c.scope)
    ),
    actions.RaceAction: Route[PlayButton](_play, localized=False),
    UnknownButton: Route[PlayButton](_play, localized=False),
    # Buttons that act for their clicker: their data, their rights.
    actions.ForgetAction: Route[actions.ForgetAction](lambda e, r, c: e.players.forget(c)),
    actions.ProposalAction: Route[actions.ProposalAction](
        lambda e, r, c: e.banks.decide(c, r), Traits(delivery=Delivery.REPLACE, who=_ADMINS)
    ),
    actions.DashboardAction: Route[actions.DashboardAction](_dashboard, Traits(who=_ADMINS)),
    # Insights.
    ShowInsights: Route[ShowInsights](
        lambda e, r, c: e.insights.view(c, r.topic, r.period, flagged=r.flagged),
        Traits(who=Who.LEADS, about=_INSIGHTS),
    ),
    ShowDashboard: Route[ShowDashboard](_dashboard, Traits(who=_ADMINS, about=_INSIGHTS)),
    # The knowledge map: aggregates above a floor, names only of those who opted in.
    ShowMap: Route[ShowMap](lambda e, r, c: e.maps.view(c), Traits(about=_INSIGHTS)),
    SetSharing: Route[SetSharing](lambda e, r, c: e.maps.share(c, r.on), Traits(about=_INSIGHTS)),
    # Channel play.
    DailyOn: Route[DailyOn](
        lambda e, r, c: e.daily.on(c, r.topics, r.at, r.timezone, r.reveal_hours, r.prefer_missed),
        Traits(who=_ADMINS, about=_CHANNEL, posts=True),
    ),
    DailyOff: Route[DailyOff](lambda e, r, c: e.daily.off(c), Traits(who=_ADMINS, about=_CHANNEL)),
    DailyStatus: Route[DailyStatus](lambda e, r, c: e.daily.status(c), Traits(about=_CHANNEL)),
    RaceStart: Route[RaceStart](
        lambda e, r, c: e.races.start(c, r.topic, r.questions, r.seconds),
        Traits(about=_CHANNEL, posts=True),
    ),
    RaceStop: Route[RaceStop](lambda e, r, c: e.races.stop(c), Traits(about=_CHANNEL)),
    CompetitionStart: Route[CompetitionStart](
        lambda e, r, c: e.competitions.start(c, r.name, r.until, r.topics),
        Traits(who=_ADMINS, about=_CHANNEL, posts=True),
    ),
    CompetitionEnd: Route[CompetitionEnd](
        lambda e, r, c: e.competitions.end(c), Traits(who=_ADMINS, about=_CHANNEL)
    ),
    CompetitionStandings: Route[CompetitionStandings](
        lambda e, r, c: e.competitions.standings(c),
        Traits(delivery=Delivery.PUBLIC, about=_CHANNEL),
    ),
    # A workspace's own banks.
    UploadBank: Route[UploadBank](
        lambda e, r, c: e.banks.upload(c, r.name, r.data, r.allow_missing, r.language, r.size),
        Traits(who=_ADMINS, about=_BANKS),
    ),
    ListBanks: Route[ListBanks](lambda e, r, c: e.banks.listing(c), Traits(about=_BANKS)),
    RemoveBank: Route[RemoveBank](
        lambda e, r, c: e.banks.remove(c, r.bank_id), Traits(who=_ADMINS, about=_BANKS)
    ),
    ProposeQuestion: Route[ProposeQuestion](
        lambda e, r, c: e.banks.propose(c, _draft(r)), Traits(about=_BANKS)
    ),
    ShowProposals: Route[ShowProposals](
        lambda e, r, c: e.banks.proposals(c), Traits(who=_ADMINS, about=_BANKS)
    ),
}


def traits(kind: type[Request]) -> Traits:
    """What is declared of a request type, for an adapter that acts on it first (refusing
    it where its platform cannot serve it)."""
    return ROUTES[kind].traits


def expected_delivery(request: Request, context: Context) -> Delivery:
    """How the reply will be delivered unless it is a refusal, known before the work is
    done: a platform that must acknowledge at once picks its acknowledgement by it."""
    declared = ROUTES[type(request)].traits.delivery
    # A player's own standings, where others read along, are theirs alone.
    return Delivery.PRIVATE if declared is Delivery.PUBLIC and context.others_read else declared


def permits(engine: Engine, kind: type[Request], context: Context) -> bool:
    """Whether the asker may make a request of this kind: an adapter asks before it
    downloads a file for one."""
    who = ROUTES[kind].traits.who
    leads_open = who is Who.LEADS and engine.insights_for_everyone
    return who is Who.ANYONE or context.is_admin or leads_open


def refusal(engine: Engine, kind: type[Request], context: Context) -> Notice | None:
    """The refusal of a request of this kind, or None when the asker may make it; known
    before the request is (an adapter opens a form for it only when None). ``context``:
    ``localized``."""
    return None if permits(engine, kind, context) else notice(context.locale, "admin_only")


async def localized(engine: Engine, context: Context) -> Context:
    """The context with the player's language: their own setting, else their client's."""
    locale = await engine.locale_for(context.player, context.platform_locale)
    return replace(context, locale=locale)


async def handle(engine: Engine, request: Request, context: Context) -> Reply:
    """The reply to any request. A database failure is a private "try again", never an
    exception: the player always hears back."""
    route = ROUTES[type(request)]
    try:
        if route.localized:
            context = await localized(engine, context)
        refused = refusal(engine, type(request), context)
        view = refused or await route.handler(engine, request, context)
    except StoreError as exc:
        log.warning("a %s failed on the database: %s", type(request).__name__, exc)
        locale = i18n.choose(context.platform_locale, default=engine.default_locale)
        return Reply(notice(locale, "try_again"), Delivery.PRIVATE)
    return Reply.of(view, expected_delivery(request, context))
