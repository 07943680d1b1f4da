"""The daily review reminder: switching it on and off, and sending it — a private
message on days the player has cards due, at most once a day."""

from __future__ import annotations

import logging
from zoneinfo import ZoneInfo

from bot.domain.clock import Clock
from bot.domain.daily import local_day
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.memory import due_cutoff, zone_of
from bot.domain.reminder import Reminder, next_reminder_at
from bot.operations import metrics
from bot.persistence import CardRepository, ReminderRepository, RunRepository
from bot.services.channel import Publishers, notice, time_of_day
from bot.services.requests import Context
from bot.services.scheduler import Duty
from bot.ui import i18n
from bot.ui.messages import t
from bot.ui.views import Notice

log = logging.getLogger(__name__)


class Reminders:
    def __init__(
        self,
        reminders: ReminderRepository,
        cards: CardRepository,
        runs: RunRepository,
        clock: Clock,
        publishers: Publishers,
    ):
        self._reminders = reminders
        self._cards = cards
        self._runs = runs
        self._clock = clock
        self._publishers = publishers
        self.sending = Duty("the review reminders", self._due, self._send)

    # --- commands ---------------------------------------------------------------------

    async def on(self, context: Context, at: str, timezone: str) -> Notice:
        moment = time_of_day(context, "remind", at, timezone)
        if isinstance(moment, Notice):
            return moment
        when, zone = moment
        workspace = ScopeRef(context.scope.platform, context.scope.workspace_id)
        next_at = next_reminder_at(when, zone_of(zone), self._clock.now())
        reminder = Reminder(workspace, context.player.id, when, zone, context.locale, next_at)
        await self._reminders.save(reminder)
        return self._status(context.locale, reminder)

    async def off(self, context: Context) -> Notice:
        removed = await self._reminders.remove(context.player, context.scope)
        return notice(context.locale, "remind_off" if removed else "remind_none")

    async def status(self, context: Context) -> Notice:
        reminder = await self._reminders.get(context.player, context.scope)
        if reminder is None:
            return notice(context.locale, "remind_none")
        return self._status(context.locale, reminder)

    def _status(self, locale: str, reminder: Reminder) -> Notice:
        at = reminder.at.strftime("%H:%M")
        text = t(locale, "remind_on", time=at, timezone=reminder.timezone)
        return Notice(locale, "remind_on", text, usage="review")

    async def zone(self, player: PlayerRef, scope: ScopeRef) -> ZoneInfo:
        """The player's timezone (their reminder's), which says where their days begin;
        UTC when they have none."""
        reminder = await self._reminders.get(player, scope)
        return zone_of(reminder.timezone if reminder else None)

    # --- sending ----------------------------------------------------------------------

    async def _due(self) -> list[Reminder]:
        return await self._reminders.due(self._clock.now(), self._publishers.platforms())

    async def _send(self, reminder: Reminder) -> bool:
        """Send today's reminder if cards are due; either way move it to its next time.
        A day the bot was down for entirely is skipped, not sent late the next day."""
        now = self._clock.now()
        zone = reminder.zone
        following = next_reminder_at(reminder.at, zone, now)
        day = local_day(reminder.next_at, zone)
        player = PlayerRef(reminder.scope.platform, reminder.player_id, "")
        publisher = self._publishers.get(reminder.scope.platform)
        due = 0
        if publisher is not None and local_day(now, zone) == day:
            due = await self._cards.count_due(player, reminder.scope, due_cutoff(now, zone))
        if not await self._reminders.advance(reminder, following, day.isoformat() if due else None):
            return False
        assert publisher is not None
        chosen = await self._runs.player_locale(player.platform, player.id)
        locale = i18n.choose(chosen, reminder.locale)
        text = t(locale, "reminder", count=due)
        try:  # claimed: a failure here loses today's reminder rather than risk two
            view = Notice(locale, "reminder", text, usage="review")
            await publisher.tell(reminder.scope, reminder.player_id, view)
        except Exception as exc:
            log.warning("a review reminder could not be sent: %s", exc)
            metrics.REMINDERS.labels(outcome="failed").inc()
            return False
        metrics.REMINDERS.labels(outcome="sent").inc()
        return True
