"""The message catalogues: complete in every language, the same placeholders everywhere,
plural forms that read right."""

from __future__ import annotations

import string

import pytest

from bot.ui.i18n import LOCALES
from bot.ui.messages import read_catalogue, t


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _forms(locale: str, key: str) -> list[str]:
    found = read_catalogue(locale)
    if key in found.plural_by:
        return [found.translations.ngettext(key, key, n) for n in (1, 2)]
    return [found.translations.gettext(key)]


def test_every_key_is_in_every_language_with_the_same_placeholders() -> None:
    english = read_catalogue("en")
    assert len(english.keys) > 120
    for locale in LOCALES:
        found = read_catalogue(locale)
        assert found.keys == english.keys, locale
        assert found.plural_by == english.plural_by, locale
        for key in english.keys:
            wanted = _fields(english.translations.gettext(key))
            for form in _forms(locale, key):
                assert form != key, f"{locale}: {key} has no text"
                assert _fields(form) == wanted, f"{locale}: {key}: {form}"
            if key in found.plural_by:
                assert found.plural_by[key] in wanted, key


@pytest.mark.parametrize(
    ("key", "values", "expected"),
    [
        ("points", {"points": 1}, "+1 point"),
        ("points", {"points": 15}, "+15 points"),
        ("topic_line", {"questions": 1}, "1 question"),
        ("topic_line", {"questions": 12}, "12 questions"),
        ("daily_streak", {"streak": 1}, "Daily streak: 1 day."),
        ("daily_streak", {"streak": 3}, "Daily streak: 3 days."),
        ("race_started", {"total": 5, "seconds": 1}, "Race on! Questions: 5, 1 second each."),
        ("leaderboard_you", {"rank": 2, "points": 1}, "You: #2 · 1 point"),
    ],
)
def test_english_plurals(key: str, values: dict[str, int], expected: str) -> None:
    assert t("en", key, **values) == expected


def test_hindi_and_bengali_counts() -> None:
    assert t("hi", "points", points=1) == "+1 अंक"
    assert t("bn", "topic_line", questions=1) == "1টি প্রশ্ন"
    assert t("hi", "daily_streak", streak=2) == "लगातार दिन: 2।"
