"""Discord's limits on what a bot sends, checked the way Discord's API checks them (the fake
answers 400 to a violation). discord.py checks almost none of these client-side. The numbers
are Discord's documented ones (docs/PLATFORM_LIMITS.md), kept apart from the renderer's own."""

from __future__ import annotations

import re
from typing import Any

import discord

CONTENT = 2000
EMBEDS = 10
EMBEDS_TOTAL = 6000
TITLE, DESCRIPTION, FIELDS, FIELD_NAME, FIELD_VALUE, FOOTER, AUTHOR = (
    256,
    4096,
    25,
    256,
    1024,
    2048,
    256,
)
ROWS, PER_ROW = 5, 5
LABEL, CUSTOM_ID = 80, 100
COMMAND_NAME, DESCRIPTION_100, OPTIONS, CHOICES, CHOICE_TEXT = 32, 100, 25, 25, 100
MODAL_TITLE, MODAL_COMPONENTS, INPUT_LABEL, PLACEHOLDER, INPUT_VALUE = 45, 5, 45, 100, 4000
# Discord's own rule, which admits Devanagari and Thai combining marks.
NAME = re.compile(r"^[-_\w\u0900-\u097f\u0e00-\u0e7f]{1,32}$")
DISCORD_LOCALES = frozenset(locale.value for locale in discord.Locale)
RAW_PING = re.compile(r"@(everyone|here)(?!\u200b)")
# A command's installation contexts (0 a server, 1 a user account) and interaction
# contexts (0 a server, 1 the bot's DMs, 2 private channels): absent or null means
# Discord's defaults, else a non-empty list of distinct known values.
INTEGRATION_TYPES, CONTEXTS = frozenset({0, 1}), frozenset({0, 1, 2})


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def embed_problems(embed: dict[str, Any], where: str) -> list[str]:
    problems = []
    for key, limit in (("title", TITLE), ("description", DESCRIPTION)):
        if _length(embed.get(key)) > limit:
            problems.append(f"{where}.{key} has {_length(embed.get(key))} > {limit} characters")
    fields = embed.get("fields", [])
    if len(fields) > FIELDS:
        problems.append(f"{where} has {len(fields)} > {FIELDS} fields")
    for i, field in enumerate(fields):
        if not 1 <= _length(field.get("name")) <= FIELD_NAME:
            problems.append(f"{where}.fields[{i}].name must have 1-{FIELD_NAME} characters")
        if not 1 <= _length(field.get("value")) <= FIELD_VALUE:
            problems.append(f"{where}.fields[{i}].value must have 1-{FIELD_VALUE} characters")
    if _length(embed.get("footer", {}).get("text")) > FOOTER:
        problems.append(f"{where}.footer.text is over {FOOTER} characters")
    if _length(embed.get("author", {}).get("name")) > AUTHOR:
        problems.append(f"{where}.author.name is over {AUTHOR} characters")
    return problems


def embed_length(embed: dict[str, Any]) -> int:
    return (
        _length(embed.get("title"))
        + _length(embed.get("description"))
        + sum(_length(f.get("name")) + _length(f.get("value")) for f in embed.get("fields", []))
        + _length(embed.get("footer", {}).get("text"))
        + _length(embed.get("author", {}).get("name"))
    )


def component_problems(rows: list[dict[str, Any]]) -> list[str]:
    problems = []
    if len(rows) > ROWS:
        problems.append(f"{len(rows)} > {ROWS} action rows")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        children = row.get("components", [])
        if row.get("type") != 1 or not 1 <= len(children) <= PER_ROW:
            problems.append(f"row {r} must be an action row with 1-{PER_ROW} components")
        for c, item in enumerate(children):
            where = f"row {r} button {c}"
            if item.get("type") != 2:
                problems.append(f"{where} is not a button")
                continue
            if _length(item.get("label")) > LABEL:
                problems.append(f"{where} label has {_length(item.get('label'))} > {LABEL} chars")
            if item.get("style") == 5:
                continue  # link buttons have a url instead of a custom_id
            custom_id = item.get("custom_id")
            if not 1 <= _length(custom_id) <= CUSTOM_ID:
                problems.append(f"{where} custom_id must have 1-{CUSTOM_ID} characters")
            if custom_id in seen:
                problems.append(f"{where} custom_id {custom_id!r} is not unique")
            seen.add(custom_id)
    return problems


def message_problems(message: dict[str, Any]) -> list[str]:
    """Every limit a message payload (create or edit) breaks; [] when Discord accepts it."""
    problems = []
    content = message.get("content") or ""
    if len(content) > CONTENT:
        problems.append(f"content has {len(content)} > {CONTENT} characters")
    embeds = message.get("embeds") or []
    if len(embeds) > EMBEDS:
        problems.append(f"{len(embeds)} > {EMBEDS} embeds")
    for i, embed in enumerate(embeds):
        problems += embed_problems(embed, f"embeds[{i}]")
    total = sum(embed_length(e) for e in embeds)
    if total > EMBEDS_TOTAL:
        problems.append(f"embeds have {total} > {EMBEDS_TOTAL} characters in all")
    problems += component_problems(message.get("components") or [])
    if "allowed_mentions" in message and message["allowed_mentions"].get("parse") != []:
        problems.append("allowed_mentions must not allow pings")
    texts = [content, *(str(e) for e in embeds)]
    if any(RAW_PING.search(text) for text in texts):
        problems.append("an unescaped @everyone or @here")
    return problems


def _text_input_problems(item: dict[str, Any], where: str) -> list[str]:
    problems = []
    if item.get("type") != 4:
        return [f"{where} is not a text input"]
    if not 1 <= _length(item.get("label")) <= INPUT_LABEL:
        problems.append(f"{where} label must have 1-{INPUT_LABEL} characters")
    if not 1 <= _length(item.get("custom_id")) <= CUSTOM_ID:
        problems.append(f"{where} custom_id must have 1-{CUSTOM_ID} characters")
    if item.get("style") not in (1, 2):
        problems.append(f"{where} style must be 1 (short) or 2 (paragraph)")
    if _length(item.get("placeholder")) > PLACEHOLDER:
        problems.append(f"{where} placeholder is over {PLACEHOLDER} characters")
    if _length(item.get("value")) > INPUT_VALUE:
        problems.append(f"{where} value is over {INPUT_VALUE} characters")
    for key in ("min_length", "max_length"):
        if key in item and not 0 <= item[key] <= INPUT_VALUE:
            problems.append(f"{where} {key} must be 0-{INPUT_VALUE}")
    return problems


def modal_problems(modal: dict[str, Any]) -> list[str]:
    """What Discord would reject in a modal (interaction callback type 9): a title and one
    to five text inputs, each in an action row of its own (as discord.py sends them)."""
    problems = []
    if not 1 <= _length(modal.get("title")) <= MODAL_TITLE:
        problems.append(f"title must have 1-{MODAL_TITLE} characters")
    if not 1 <= _length(modal.get("custom_id")) <= CUSTOM_ID:
        problems.append(f"custom_id must have 1-{CUSTOM_ID} characters")
    rows = modal.get("components") or []
    if not 1 <= len(rows) <= MODAL_COMPONENTS:
        problems.append(f"{len(rows)} components: a modal has 1-{MODAL_COMPONENTS}")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        inputs = row.get("components") or []
        if row.get("type") != 1 or len(inputs) != 1:
            problems.append(f"component {r} must be an action row with one text input")
        for item in inputs:
            problems += _text_input_problems(item, f"component {r}")
            if item.get("custom_id") in seen:
                problems.append(f"component {r} custom_id {item.get('custom_id')!r} is not unique")
            seen.add(item.get("custom_id"))
    return problems


def choice_problems(choices: list[dict[str, Any]], where: str = "choices") -> list[str]:
    problems = []
    if len(choices) > CHOICES:
        problems.append(f"{where}: {len(choices)} > {CHOICES} choices")
    for choice in choices:
        if not 1 <= _length(choice.get("name")) <= CHOICE_TEXT:
            problems.append(f"{where}: choice name {choice.get('name')!r} is not 1-100 chars")
        if isinstance(choice.get("value"), str) and len(choice["value"]) > CHOICE_TEXT:
            problems.append(f"{where}: choice value {choice['value']!r} is over 100 chars")
        problems += _localization_problems(choice, "name", CHOICE_TEXT, where)
    return problems


def _localization_problems(
    item: dict[str, Any], key: str, limit: int, where: str, pattern: re.Pattern[str] | None = None
) -> list[str]:
    problems = []
    for locale, text in (item.get(f"{key}_localizations") or {}).items():
        if locale not in DISCORD_LOCALES:
            problems.append(f"{where}: {locale!r} is not a Discord locale")
        if not 1 <= len(text) <= limit or (pattern and not pattern.match(text)):
            problems.append(f"{where}: {key} in {locale} is not valid: {text!r}")
    return problems


def command_problems(commands: list[dict[str, Any]]) -> list[str]:
    """What Discord would reject in a bulk overwrite of application commands."""
    problems = []
    names = [c.get("name", "") for c in commands]
    if len(set(names)) != len(names):
        problems.append("duplicate command names")
    for command in commands:
        where = f"/{command.get('name')}"
        if not NAME.match(command.get("name", "")) or command["name"] != command["name"].lower():
            problems.append(f"{where}: invalid command name")
        if not 1 <= _length(command.get("description")) <= DESCRIPTION_100:
            problems.append(f"{where}: description must have 1-100 characters")
        problems += _localization_problems(command, "name", COMMAND_NAME, where, NAME)
        problems += _localization_problems(command, "description", DESCRIPTION_100, where)
        for key, known in (("integration_types", INTEGRATION_TYPES), ("contexts", CONTEXTS)):
            problems += _context_problems(command.get(key), known, f"{where} {key}")
        options = command.get("options", [])
        if len(options) > OPTIONS:
            problems.append(f"{where}: {len(options)} > {OPTIONS} options")
        for option in options:
            problems += _option_problems(option, f"{where} {option.get('name')}")
    return problems


def _context_problems(values: Any, known: frozenset[int], at: str) -> list[str]:
    if values is None:
        return []
    if not isinstance(values, list) or not values:
        return [f"{at}: must be a non-empty list or null"]
    if len(set(values)) != len(values) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v in known for v in values
    ):
        return [f"{at}: {values} are not distinct values of {sorted(known)}"]
    return []


def _option_problems(option: dict[str, Any], at: str) -> list[str]:
    """One option's problems; a subcommand's (type 1) options are options too."""
    problems = []
    if not NAME.match(option.get("name", "")):
        problems.append(f"{at}: invalid option name")
    problems += _localization_problems(option, "name", COMMAND_NAME, at, NAME)
    if not 1 <= _length(option.get("description")) <= DESCRIPTION_100:
        problems.append(f"{at}: description must have 1-100 characters")
    if option.get("autocomplete") and option.get("choices"):
        problems.append(f"{at}: autocomplete and choices exclude each other")
    problems += _localization_problems(option, "description", DESCRIPTION_100, at)
    problems += choice_problems(option.get("choices") or [], at)
    inner = option.get("options") or []
    if option.get("type") == 1 and len(inner) > OPTIONS:
        problems.append(f"{at}: {len(inner)} > {OPTIONS} options")
    for nested in inner if option.get("type") == 1 else ():
        problems += _option_problems(nested, f"{at} {nested.get('name')}")
    return problems
