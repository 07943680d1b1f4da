"""The list of topics a player picks from: every bank in a catalog, and for a topic
asked for that none matches, the closest one."""

from __future__ import annotations

from bot.content.banks import Bank, Catalog
from bot.ui.views import TopicList, TopicView


def _topic(bank: Bank, locale: str) -> TopicView:
    return TopicView(
        bank.id,
        bank.text(bank.title, locale),
        bank.text(bank.description, locale),
        len(bank.questions),
    )


def topic_list(catalog: Catalog, locale: str, unknown: str | None = None) -> TopicList:
    """Every topic; for an unknown one asked for, also the closest match."""
    near = catalog.closest(unknown) if unknown is not None else None
    suggestion = _topic(near, locale) if near else None
    # In the order a reader scans them: by the title each line starts with.
    shelf = sorted(catalog.banks, key=lambda bank: bank.text(bank.title, locale).casefold())
    return TopicList(locale, tuple(_topic(b, locale) for b in shelf), unknown, suggestion)
