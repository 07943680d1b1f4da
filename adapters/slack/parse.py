"""Slack payloads to typed requests. Pure: anything malformed becomes None, so a
garbage payload is refused before any handler (or bolt's own matchers) reads it; what is
read is read once (``read``), and kept for the handler."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.domain.periods import ALL, CALENDAR_PERIODS, ROLLING_WINDOWS
from bot.services import requests
from bot.services.requests import (
    CompetitionEnd,
    CompetitionStandings,
    CompetitionStart,
    DailyOff,
    DailyOn,
    DailyStatus,
    ForgetMe,
    ListBanks,
    RaceStart,
    RaceStop,
    RemindOff,
    RemindOn,
    RemindStatus,
    RemoveBank,
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
    Usage,
)

COMMAND = "/quiz"
# The Events API events the app subscribes to (deploy/slack/manifest*.yaml): its own
# lifecycle, and a member opening its App Home.
APP_EVENTS = ("app_uninstalled", "tokens_revoked")
HOME_OPENED = "app_home_opened"
EVENTS = (*APP_EVENTS, HOME_OPENED)
MAX_TOPIC = 100  # characters of a topic read from /quiz text
HELP, TOPICS, LEADERBOARD, STATS, LANG = "help", "topics", "leaderboard", "stats", "lang"
REVIEW, REMIND = "review", "remind"
INSIGHTS, DASHBOARD, FORGET_ME = "insights", "dashboard", "forget-me"
DAILY, RACE, COMPETITION = "daily", "race", "competition"
BANK, PROPOSE, PROPOSALS = "bank", "propose", "proposals"
MAP, SHARE = "map", "share"
_WORDS = {
    "help": HELP,
    "?": HELP,
    "topics": TOPICS,
    "list": TOPICS,
    "leaderboard": LEADERBOARD,
    "top": LEADERBOARD,
    "stats": STATS,
    "review": REVIEW,
    "remind": REMIND,
    "insights": INSIGHTS,
    "dashboard": DASHBOARD,
    "forget-me": FORGET_ME,
    "lang": LANG,
    "language": LANG,
    "daily": DAILY,
    "race": RACE,
    "competition": COMPETITION,
    "bank": BANK,
    "propose": PROPOSE,
    "proposals": PROPOSALS,
    "map": MAP,
    "share": SHARE,
}
# The forms a command opens (a modal: Slack has no file or multi-field slash command).
UPLOAD_FORM, PROPOSAL_FORM, ESTIMATE_FORM = "qz_bank_upload", "qz_propose", "qz_estimate"
FORMS = (UPLOAD_FORM, PROPOSAL_FORM, ESTIMATE_FORM)


@dataclass(frozen=True)
class Command:
    """A ``/quiz`` slash command."""

    team_id: str
    channel_id: str
    user_id: str
    user_name: str  # the Slack handle: a fallback when users.info gives no display name
    text: str
    response_url: str
    team_domain: str = ""  # the workspace's subdomain (acme-ml.slack.com): its name here


@dataclass(frozen=True)
class OpenForm:
    """A command answered with a modal: its callback id (UPLOAD_FORM or PROPOSAL_FORM)."""

    form: str


@dataclass(frozen=True)
class Submission:
    """A modal's ``view_submission``: who sent which form from which channel, and its
    values by action id (a text, a select's or checkboxes' values, or files)."""

    team_id: str
    channel_id: str  # the channel the form was opened from (its private_metadata)
    user_id: str
    user_name: str
    form: str
    locale: str  # the language the form was shown in
    values: Mapping[str, object]
    # An estimate's form: the button that opened it and where its answer replaces the
    # question (that click's response_url), both kept in the form's private_metadata.
    action_id: str = ""
    reply_url: str = ""


@dataclass(frozen=True)
class SlackFile:
    """A file a member chose in a modal's file input."""

    name: str
    url: str  # url_private_download: needs the bot token (files:read)


@dataclass(frozen=True)
class Click:
    """A button click (``block_actions``): the request its action id stands for."""

    team_id: str
    channel_id: str
    user_id: str
    request: requests.Click
    response_url: str
    user_name: str  # the Slack handle, as for Command


@dataclass(frozen=True)
class AppEvent:
    """An Events API callback of an event the app subscribes to (APP_EVENTS);
    ``removal``: the workspace removed the app (``app_uninstalled``, or
    ``tokens_revoked`` naming the bot's token; a revoked user token concerns none this
    app keeps: it asks for no user scopes)."""

    team_id: str
    event: str
    removal: bool


@dataclass(frozen=True)
class HomeOpened:
    """``app_home_opened``: a member opened one of the App Home's tabs (``home`` or
    ``messages``). ``channel_id`` is the member's own id: what the Home is about is theirs,
    and a message to it lands in the app's DM with them."""

    team_id: str
    user_id: str
    tab: str

    @property
    def channel_id(self) -> str:
        return self.user_id

    @property
    def user_name(self) -> str:  # events carry no handle: users.info gives the name
        return self.user_id


@dataclass(frozen=True)
class HomeClick:
    """A button on the member's Home tab (``block_actions`` from a ``home`` view): it has
    neither a channel nor a response_url, so its reply goes to the app's DM."""

    team_id: str
    user_id: str
    user_name: str
    action_id: str

    @property
    def channel_id(self) -> str:
        return self.user_id


@dataclass(frozen=True)
class Verification:
    """Slack checking the events URL (bolt answers it)."""


# Every request this app serves, as read.
Read = Command | Click | HomeClick | Submission | AppEvent | HomeOpened | Verification


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _url(value: object) -> str | None:
    url = _text(value)
    return url if url and url.startswith(("https://", "http://")) else None


def _get(value: object, key: str) -> object:
    return value.get(key) if isinstance(value, Mapping) else None


def command(body: Mapping[str, Any]) -> Command | None:
    if "type" in body:  # slash commands have none; bolt would read it as another kind
        return None
    team, channel, user = (_text(body.get(k)) for k in ("team_id", "channel_id", "user_id"))
    response_url = _url(body.get("response_url"))
    text = body.get("text", "")
    if not (_text(body.get("command")) and team and channel and user and response_url):
        return None
    if not isinstance(text, str):
        return None
    handle = _text(body.get("user_name")) or user
    domain = (_text(body.get("team_domain")) or "")[:100]
    return Command(team, channel, user, handle, text, response_url, domain)


def click(body: Mapping[str, Any]) -> Click | None:
    if body.get("type") != "block_actions":
        return None
    actions = body.get("actions")
    action = actions[0] if isinstance(actions, list) and actions else None
    user = body.get("user")
    team = _text(_get(body.get("team"), "id")) or _text(_get(user, "team_id"))
    channel = _text(_get(body.get("channel"), "id")) or _text(
        _get(body.get("container"), "channel_id")
    )
    user_id = _text(_get(user, "id"))
    action_id = _text(_get(action, "action_id"))
    response_url = _url(body.get("response_url"))
    if not (team and channel and user_id and action_id and response_url):
        return None
    handle = _text(_get(user, "username")) or _text(_get(user, "name")) or user_id
    return Click(team, channel, user_id, requests.button(action_id), response_url, handle)


def home_click(body: Mapping[str, Any]) -> HomeClick | None:
    if body.get("type") != "block_actions" or _get(body.get("view"), "type") != "home":
        return None
    actions = body.get("actions")
    action = actions[0] if isinstance(actions, list) and actions else None
    user = body.get("user")
    team = _text(_get(body.get("team"), "id")) or _text(_get(user, "team_id"))
    user_id, action_id = _text(_get(user, "id")), _text(_get(action, "action_id"))
    if not (team and user_id and action_id):
        return None
    handle = _text(_get(user, "username")) or _text(_get(user, "name")) or user_id
    return HomeClick(team, user_id, handle, action_id)


def metadata(channel_id: str, locale: str, action_id: str = "", reply_url: str = "") -> str:
    """A form's private_metadata: where it was opened and in which language (and for an
    estimate, the button that opened it and where its answer goes). Slack keeps it with
    the view and sends it back with the submission; a member cannot change it."""
    extra = {"action": action_id, "reply": reply_url} if action_id else {}
    return json.dumps({"channel": channel_id, "locale": locale, **extra})


def _metadata(raw: object) -> tuple[str, str, str, str] | None:
    try:
        found = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        return None
    channel, locale = _text(_get(found, "channel")), _text(_get(found, "locale"))
    action, reply = _text(_get(found, "action")) or "", _url(_get(found, "reply")) or ""
    return (channel, locale, action, reply) if channel and locale else None


def _value(state: object) -> object:
    """What one input holds, by its element's type; None for a kind no form uses."""
    match _get(state, "type"):
        case "plain_text_input":
            return _text(_get(state, "value")) or ""
        case "static_select":
            return _text(_get(_get(state, "selected_option"), "value")) or ""
        case "checkboxes":
            options = _get(state, "selected_options")
            chosen = options if isinstance(options, list) else []
            return tuple(v for o in chosen if (v := _text(_get(o, "value"))))
        case "file_input":
            files = _get(state, "files")
            found = files if isinstance(files, list) else []
            pairs = ((_text(_get(f, "name")), _url(_get(f, "url_private_download"))) for f in found)
            return tuple(SlackFile(name, url) for name, url in pairs if name and url)
    return None


def submission(body: Mapping[str, Any]) -> Submission | None:
    if body.get("type") != "view_submission":
        return None
    view, user = body.get("view"), body.get("user")
    form = _text(_get(view, "callback_id"))
    team = _text(_get(body.get("team"), "id")) or _text(_get(user, "team_id"))
    user_id = _text(_get(user, "id"))
    opened = _metadata(_get(view, "private_metadata"))
    blocks = _get(_get(view, "state"), "values")
    if not (form in FORMS and team and user_id and opened and isinstance(blocks, Mapping)):
        return None
    values = {
        action: value
        for inputs in blocks.values()
        if isinstance(inputs, Mapping)
        for action, state in inputs.items()
        if (value := _value(state)) is not None
    }
    handle = _text(_get(user, "username")) or _text(_get(user, "name")) or user_id
    return Submission(team, opened[0], user_id, handle, form, opened[1], values, *opened[2:])


def _app_event(body: Mapping[str, Any]) -> AppEvent | HomeOpened | None:
    event, team = body.get("event"), _text(body.get("team_id"))
    if body.get("type") != "event_callback" or not (isinstance(event, Mapping) and team):
        return None
    kind = event.get("type")
    if kind == HOME_OPENED:
        user, tab = _text(event.get("user")), _text(event.get("tab"))
        return HomeOpened(team, user, tab) if user and tab else None
    if kind not in APP_EVENTS:
        return None
    bots = _get(event.get("tokens"), "bot")
    revoked = isinstance(bots, list) and bool(bots)
    return AppEvent(team, str(kind), removal=kind == "app_uninstalled" or revoked)


def read(body: object) -> Read | None:
    """A request this app serves, as read from a shape it can read; None for any other."""
    if not isinstance(body, Mapping):
        return None
    if body.get("type") == "url_verification":  # Slack checking the events URL
        return Verification() if isinstance(body.get("challenge"), str) else None
    if "event" in body:
        # Bolt reads `event` on every request and fails on a non-dict; only the app's
        # own lifecycle events and its Home's are subscribed.
        return _app_event(body)
    return command(body) or click(body) or home_click(body) or submission(body)


def request(text: str) -> Request | OpenForm:
    """Parse ``/quiz`` text: ``help``, ``topics``, ``leaderboard [week|month|all|competition]
    [topic]``, ``stats``, ``review``, ``insights [topic] [week|month|all]``, ``dashboard``,
    ``lang <code>``, the ``remind``, ``daily``, ``race``,
    ``competition`` and ``bank`` commands, ``propose`` and ``proposals``, or else a topic to
    start a quiz on."""
    # Slack sends &, < and > in command text as HTML entities.
    cleaned = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").strip()
    words = cleaned.split()
    kind = _WORDS.get(words[0].casefold()) if words else HELP
    rest = words[1:]
    match kind:
        case None:
            # No topic is this long: a pasted essay is echoed back as a short "unknown topic".
            return StartQuiz(" ".join(words)[:MAX_TOPIC])
        case "leaderboard" if COMPETITION in (w.casefold() for w in rest):
            return CompetitionStandings()
        case "leaderboard":
            return ShowLeaderboard(*_period_and_topic(rest, CALENDAR_PERIODS))
        case "lang":
            return SetLanguage(" ".join(rest))
        case "stats":
            return ShowStats()
        case "review":
            return StartReview()
        case "remind":
            return _remind(rest)
        case "insights":
            flagged = [w for w in rest if w.casefold() != "flagged"]
            period, topic = _period_and_topic(flagged, ROLLING_WINDOWS)
            return ShowInsights(topic, period, flagged=len(flagged) < len(rest))
        case "dashboard":
            return ShowDashboard()
        case "map":
            return ShowMap()
        case "share":
            chosen = _one_word(rest, {"on": SetSharing(True), "off": SetSharing(False)})
            return chosen or ShowTopics()  # its usage lists share on|off
        case "forget-me":
            return ForgetMe()
        case "daily":
            return _daily(rest)
        case "race":
            return _race(rest)
        case "competition":
            return _competition(cleaned.split(None, 1)[1] if rest else "")
        case "bank":
            return _bank(rest)
        case "propose":
            return OpenForm(PROPOSAL_FORM)
        case "proposals":
            return ShowProposals()
    return ShowTopics()


MISSED = "missed"  # the daily question prefers what the team missed most
_HOURS = re.compile(r"^\d{1,3}(?:[.,]\d+)?$")
_COUNT = re.compile(r"^\d{1,4}$")
# Slack clients may turn straight quotes into curly ones; „…“ is the German pair.
_START = re.compile(
    r'^start\s+["“”„](?P<name>[^"“”„]+)["“”]\s+until\s+(?P<until>\S+)'
    r"(?:\s+topics?\s+(?P<topics>.+))?$",
    re.IGNORECASE | re.DOTALL,
)


def _period_and_topic(rest: list[str], periods: tuple[str, ...]) -> tuple[str, str | None]:
    """``[week|month|all] [topic]`` in either order: a leaderboard's calendar period or
    insights' rolling window."""
    period = next((w.casefold() for w in rest if w.casefold() in periods), ALL)
    topic = " ".join(w for w in rest if w.casefold() not in periods)
    return period, topic[:MAX_TOPIC] or None


def _one_word(rest: list[str], kinds: Mapping[str, Request]) -> Request | None:
    return kinds.get(rest[0].casefold()) if len(rest) == 1 else None


def _remind(rest: list[str]) -> Request:
    if not rest:
        return RemindStatus()
    simple = _one_word(rest, {"off": RemindOff(), "status": RemindStatus()})
    if simple:
        return simple
    if len(rest) == 3 and rest[0].casefold() == "on":
        return RemindOn(rest[1], rest[2])  # the core names a bad time or timezone
    return Usage(REMIND)


def _daily(rest: list[str]) -> Request:
    simple = _one_word(rest, {"off": DailyOff(), "status": DailyStatus()})
    if simple:
        return simple
    args = rest[1:]
    if not rest or rest[0].casefold() != "on":
        return Usage(DAILY)
    # After the timezone: [reveal-hours] [missed], in either order.
    hours: float | None = None
    prefer_missed = False
    for _ in range(2):
        last = args[-1].casefold() if args else ""
        if last == MISSED and not prefer_missed:
            prefer_missed = True
        elif _HOURS.match(last) and hours is None:
            hours = float(last.replace(",", "."))
            if hours <= 0:
                return Usage(DAILY)
        else:
            break
        args.pop()
    if len(args) < 3:
        return Usage(DAILY)
    *topics, at, zone = args
    return DailyOn(" ".join(topics), at, zone, hours, prefer_missed)


def _race(rest: list[str]) -> Request:
    simple = _one_word(rest, {"stop": RaceStop()})
    if simple:
        return simple
    # Up to two trailing numbers are [questions] [seconds]; the rest names the topic.
    words = list(rest)
    numbers: list[int] = []
    while len(words) > 1 and len(numbers) < 2 and _COUNT.match(words[-1]):
        numbers.insert(0, int(words.pop()))
    if not words:
        return Usage(RACE)
    questions, seconds = [*numbers, None, None][:2]
    return RaceStart(" ".join(words), questions, seconds)


def _competition(rest: str) -> Request:
    ends: dict[str, Request] = {"end": CompetitionEnd(), "standings": CompetitionStandings()}
    simple = _one_word(rest.split(), ends)
    if simple:
        return simple
    match = _START.match(rest.strip())
    if match is None or not match["name"].strip():
        return Usage(COMPETITION)
    topics = " ".join(match["topics"].split()) if match["topics"] else None
    return CompetitionStart(match["name"].strip(), match["until"], topics)


def _bank(rest: list[str]) -> Request | OpenForm:
    words = [w.casefold() for w in rest]
    if words == ["upload"]:
        return OpenForm(UPLOAD_FORM)
    if words == ["list"]:
        return ListBanks()
    if len(words) == 2 and words[0] == "remove":
        return RemoveBank(rest[1])
    return Usage(BANK)
