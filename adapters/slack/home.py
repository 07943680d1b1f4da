"""The App Home tab: each member's own page in the app — their cards due today with a
Review now button, their streak and reminder, their stats per topic and, for admins, the
team's flagged questions and the dashboard's link. Published with ``views.publish`` when
they open the tab and again after an answer that changes it; built from the core's
``MemberHome`` with the renderer's own blocks (escaping, splitting and limits as for any
message), in the member's language."""

from __future__ import annotations

import logging

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.services.dispatch import localized, permits
from bot.services.engine import Engine
from bot.services.errors import StoreError
from bot.services.home import MemberHome, TeamSummary, homes_of
from bot.services.requests import Context, Reply, ShowDashboard
from bot.ui import document as doc
from bot.ui.layout import layout, lines
from bot.ui.messages import t
from bot.ui.views import DashboardLink, Feedback, Stats

from .phrases import PHRASES, TEXT
from .render import LIMITS, Json, cut, message
from .retries import failed_call

log = logging.getLogger(__name__)

# The Review now button. The Home is Slack's alone, so its one button is the adapter's,
# not one of the codec's ``qz:`` ids (whose listener expects a message and its
# response_url; a click on the Home has neither).
HOME_REVIEW = "qz_home_review"
SHOWN_TOPICS = 10  # topic rows on the Home; /quiz stats lists them all


def _note(text: str) -> doc.Note:
    return doc.Note(((text,),))


def _blocks(*documents: doc.Document) -> list[Json]:
    return [block for document in documents for block in message(document).blocks]


def _card(*blocks: doc.Block, buttons: tuple[doc.Button, ...] = ()) -> doc.Document:
    return doc.Document((doc.Card(doc.Tone.INFO, blocks),), buttons)


def _review(home: MemberHome) -> list[Json]:
    """The cards due today and the button that reviews them, or when one will be due."""
    loc, due = home.locale, home.stats.due
    title = doc.Heading(TEXT.t(loc, "home_title"))
    if not due:
        days = home.next_review_in
        said = t(loc, "review_empty") if days is None else t(loc, "review_not_due", days=days)
        return _blocks(_card(title, lines(said)))
    count = doc.Text(((doc.Strong(TEXT.t(loc, "home_due", count=due)),),))
    button = doc.Button(TEXT.t(loc, "home_review_button"), HOME_REVIEW, primary=True)
    where = _note(TEXT.t(loc, "home_review_where"))
    return _blocks(_card(title, count, where, buttons=(button,)))


def _habits(home: MemberHome) -> list[Json]:
    """The streak and the review reminder (how to set one, without)."""
    loc, reminder = home.locale, home.reminder
    streak = (
        TEXT.t(loc, "home_streak", days=home.streak)
        if home.streak
        else TEXT.t(loc, "home_no_streak")
    )
    usage = PHRASES.usage(loc, "remind") if reminder.kind == "remind_none" else ()
    return _blocks(_card(lines(streak, reminder.text), *(_note(line) for line in usage)))


def _topics(home: MemberHome) -> list[Json]:
    """The stats as ``/quiz stats`` lays them out, the topics with most cards due first,
    at most SHOWN_TOPICS of them and how many more there are."""
    loc, rows = home.locale, sorted(home.stats.rows, key=lambda row: -row.due)
    # due=0: the due count leads the Home already, with its own button.
    stats = layout(Stats(loc, tuple(rows[:SHOWN_TOPICS])), PHRASES)
    more = len(rows) - SHOWN_TOPICS
    rest = [_card(_note(TEXT.t(loc, "home_topics_more", count=more)))] if more > 0 else []
    return _blocks(stats, *rest)


def admin_section(locale: str, team: TeamSummary) -> list[Json]:
    """What only admins see: the team's flagged questions and the dashboard's link (or
    why there is none). The one place that lays out the team's summary: another line
    about the team (the knowledge map's) goes here, its data in ``TeamSummary``."""
    flagged = (
        TEXT.t(locale, "home_flagged", count=team.flagged)
        if team.flagged
        else t(locale, "insights_none_flagged")
    )
    title = doc.Heading(TEXT.t(locale, "home_team_title"))
    mapped = (
        TEXT.t(locale, "home_map", topics=team.mapped, solid=team.solid, started=team.started)
        if team.mapped
        else TEXT.t(locale, "home_map_none")
    )
    # The link expires (DashboardLink.hours): each opening of the tab makes a fresh one.
    fresh = isinstance(team.dashboard, DashboardLink)
    notes = [_card(_note(TEXT.t(locale, "home_dashboard_fresh")))] if fresh else []
    return _blocks(_card(title, lines(flagged, mapped)), layout(team.dashboard, PHRASES), *notes)


def home_view(home: MemberHome) -> Json:
    """The Home tab's view (views.publish), its parts divided."""
    parts = [_review(home), _habits(home), _topics(home)]
    if home.team is not None:
        parts.append(admin_section(home.locale, home.team))
    blocks: list[Json] = []
    for part in parts:
        blocks += [{"type": "divider"}, *part] if blocks else part
    # Each part is a few blocks (topics are capped): the cut only guards the limit.
    return {"type": "home", "blocks": cut(blocks, LIMITS.home_blocks)}


def changes_home(reply: Reply) -> bool:
    """Whether a reply follows an answer that changes the member's Home: a review answer
    (the cards due, the streak) or a quiz's last one (the stats). Not every answer: each
    republish reads the member's stats (and for an admin the team's report)."""
    view = reply.view
    return isinstance(view, Feedback) and (view.question.review or view.summary is not None)


class HomeTab:
    """Publishes members' Homes with the engine's data."""

    def __init__(self, engine: Engine):
        self._engine = engine
        self._homes = homes_of(engine)

    async def publish(self, client: AsyncWebClient, asker: Context) -> None:
        """The member's Home, published for them (``client``: their workspace's). It is
        a page they may never look at again: a failure is one warning, nothing more."""
        try:
            asker = await localized(self._engine, asker)
            admin = permits(self._engine, ShowDashboard, asker)
            view = home_view(await self._homes.home(asker, admin))
            await client.views_publish(user_id=asker.player.id, view=view)
        except (SlackApiError, aiohttp.ClientError, TimeoutError) as exc:
            log.warning("views.publish failed: %s", failed_call(exc))
        except StoreError as exc:
            log.warning("could not read a member's Home: %s", exc)
