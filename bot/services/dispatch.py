"""One dispatch for every request: the core answers each command and click with a view
and decides how it is delivered. Adapters only parse, render and deliver."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.domain import actions
from bot.persistence import StoreError
from bot.services.channel import Caller
from bot.services.requests import (
    BankRequest,
    ChannelRequest,
    Click,
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
    ShowDashboard,
    ShowInsights,
    ShowLeaderboard,
    ShowProposals,
    ShowStats,
    ShowTopics,
    StartQuiz,
    StartReview,
    UploadBank,
    Usage,
)
from bot.services.workspace_banks import Draft
from bot.ui import i18n
from bot.ui.messages import t
from bot.ui.views import (
    Feedback,
    ForgetConfirm,
    Leaderboard,
    Notice,
    ProposalList,
    QuestionView,
    View,
)

if TYPE_CHECKING:
    from bot.services.engine import Engine

log = logging.getLogger(__name__)

# Shown to the whole channel: standings are for everyone to see.
_PUBLIC = (ShowLeaderboard, CompetitionStandings)


def expected_delivery(request: Request) -> Delivery:
    """How the reply will most likely be delivered, known before the work is done (a
    platform that must acknowledge at once picks its kind of acknowledgement by it): a
    quiz button's reply replaces its message; a daily or race button is on a public post,
    which must never be replaced for everyone."""
    if isinstance(request, Click):
        on_post = isinstance(
            actions.decode(request.action_id),
            actions.DailyAction | actions.RaceAction | actions.DashboardAction,
        )
        return Delivery.PRIVATE if on_post else Delivery.REPLACE
    return Delivery.PUBLIC if isinstance(request, _PUBLIC) else Delivery.PRIVATE


async def handle(engine: Engine, request: Request, context: Context) -> Reply:
    """The reply to any request. A database failure is a private "try again", never an
    exception: the player always hears back."""
    try:
        view = await _view(engine, request, context)
    except StoreError as exc:
        log.warning("a %s failed on the database: %s", type(request).__name__, exc)
        locale = i18n.choose(context.platform_locale, default=engine.default_locale)
        return Reply(Notice(locale, "try_again", t(locale, "try_again")), Delivery.PRIVATE)
    # Only a quiz moving on replaces its message (a refusal leaves it playable, and a
    # daily or race click never gets a quiz view), and only standings are for everyone
    # ("no competition is running" is for the asker alone).
    if isinstance(request, Click) and isinstance(view, QuestionView | Feedback | ProposalList):
        return Reply(view, Delivery.REPLACE)
    if isinstance(request, _PUBLIC) and isinstance(view, Leaderboard):
        return Reply(view, Delivery.PUBLIC)
    return Reply(view, Delivery.PRIVATE)


async def _view(engine: Engine, request: Request, context: Context) -> View:
    player, scope = context.player, context.scope
    if isinstance(request, Click):
        action = actions.decode(request.action_id)
        if isinstance(
            action, actions.ProposalAction | actions.DashboardAction | actions.ForgetAction
        ):
            locale = await engine.locale_for(player, context.platform_locale)
            caller = Caller(player, scope, locale, context.is_admin)
            if isinstance(action, actions.DashboardAction):
                return engine.insights.dashboard_link(caller)
            if isinstance(action, actions.ForgetAction):
                return await engine.forget_player(caller)
            return await engine.banks.decide(caller, action)
        # the run's own language, else the player's
        return await engine.click(player, request.action_id, context.platform_locale)
    locale = await engine.locale_for(player, context.platform_locale)
    match request:
        case StartQuiz(topic, questions, resume):
            return await engine.start_quiz(player, scope, topic, locale, questions, resume)
        case ShowTopics():
            return await engine.topics(scope, locale)
        case ShowLeaderboard(period, topic):
            return await engine.leaderboard(player, scope, locale, period, topic)
        case ShowStats():
            return await engine.stats(player, scope, locale)
        case StartReview():
            return await engine.review(player, scope, locale)
        case ForgetMe():
            return ForgetConfirm(locale, actions.ForgetAction().encode())
        case SetLanguage(tag):
            return await engine.set_locale(player, tag)
        case Usage(command):
            return Notice(locale, "usage", "", usage=command)
        case CompetitionStandings():
            caller = Caller(player, scope, locale, context.is_admin)
            return await engine.competitions.standings(caller)
    caller = Caller(player, scope, locale, context.is_admin)
    match request:
        case RemindOn(at, timezone):
            return await engine.reminders.on(caller, at, timezone)
        case RemindOff():
            return await engine.reminders.off(caller)
        case RemindStatus():
            return await engine.reminders.status(caller)
        case ShowInsights(topic, period):
            return await engine.insights.view(caller, topic, period)
        case ShowDashboard():
            return engine.insights.dashboard_link(caller)
    if isinstance(request, BankRequest):
        return await _banks(engine, request, caller)
    return await _channel(engine, request, caller)


async def _banks(engine: Engine, request: BankRequest, caller: Caller) -> View:
    match request:
        case UploadBank(name, data, allow_missing, language, size):
            return await engine.banks.upload(caller, name, data, allow_missing, language, size)
        case ListBanks():
            return await engine.banks.listing(caller)
        case RemoveBank(bank_id):
            return await engine.banks.remove(caller, bank_id)
        case ProposeQuestion(topic, prompt, choices, explanation, reference):
            draft = Draft(topic, prompt, choices, explanation, reference)
            return await engine.banks.propose(caller, draft)
        case ShowProposals():
            return await engine.banks.proposals(caller)
    raise TypeError(f"no handler for {type(request).__name__}")


async def _channel(engine: Engine, request: ChannelRequest, caller: Caller) -> View:
    match request:
        case DailyOn(topics, at, timezone, reveal_hours, prefer_missed):
            return await engine.daily.on(caller, topics, at, timezone, reveal_hours, prefer_missed)
        case DailyOff():
            return await engine.daily.off(caller)
        case DailyStatus():
            return await engine.daily.status(caller)
        case RaceStart(topic, questions, seconds):
            return await engine.races.start(caller, topic, questions, seconds)
        case RaceStop():
            return await engine.races.stop(caller)
        case CompetitionStart(name, until, topics):
            return await engine.competitions.start(caller, name, until, topics)
        case CompetitionEnd():
            return await engine.competitions.end(caller)
    raise TypeError(f"no handler for {type(request).__name__}")
