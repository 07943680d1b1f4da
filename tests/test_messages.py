"""The message catalogues: complete in every language, the same placeholders everywhere,
plural forms that read right."""

from __future__ import annotations

import string

import pytest

from adapters.discord.phrases import TEXT as DISCORD
from adapters.phrases import TEXT as TERMINAL
from adapters.slack.phrases import TEXT as SLACK
from adapters.web.pages import TEXT as WEB
from bot.ui.i18n import LOCALES
from bot.ui.messages import CORE, Messages, read_catalogue, t

DOMAINS = (CORE, SLACK, DISCORD, TERMINAL, WEB)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _forms(messages: Messages, locale: str, key: str) -> list[str]:
    found = read_catalogue(locale, messages.package, messages.domain)
    if key in found.plural_by:
        return [found.translations.ngettext(key, key, n) for n in (1, 2)]
    return [found.translations.gettext(key)]


@pytest.mark.parametrize("messages", DOMAINS, ids=lambda m: m.domain)
def test_every_key_is_in_every_language_with_the_same_placeholders(messages: Messages) -> None:
    english = read_catalogue("en", messages.package, messages.domain)
    assert len(english.keys) > (70 if messages is CORE else 4)
    for locale in LOCALES:
        found = read_catalogue(locale, messages.package, messages.domain)
        assert found.keys == english.keys, locale
        assert found.plural_by == english.plural_by, locale
        for key in english.keys:
            wanted = _fields(english.translations.gettext(key))
            for form in _forms(messages, locale, key):
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


def test_platform_text_lives_in_its_adapter() -> None:
    """The core catalogue names no platform's commands; each adapter has its own usage."""
    core = read_catalogue("en").keys
    assert not {k for k in core if k.startswith(("cmd_", "opt_", "discord_", "terminal_"))}
    assert "usage" not in core and "daily_usage" not in core
    assert SLACK.t("en", "daily_usage").startswith("Usage: /quiz daily on ")
    assert DISCORD.t("en", "daily_usage").startswith("Usage: /quiz-daily action:on ")
    assert TERMINAL.t("hi", "start_command") == "quizbot play <विषय>"
    assert DISCORD.t("bn", "cmd_quiz") != DISCORD.t("en", "cmd_quiz")


@pytest.mark.parametrize("messages", (SLACK, DISCORD), ids=lambda m: m.domain)
def test_each_chat_platform_says_every_commands_usage(messages: Messages) -> None:
    # The core names these commands in a refusal's usage; each platform words its own.
    keys = read_catalogue("en", messages.package, messages.domain).keys
    for command in ("daily", "race", "competition", "bank", "remind", "insights", "review"):
        assert f"{command}_usage" in keys, command
