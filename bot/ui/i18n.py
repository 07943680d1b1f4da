"""Locales quizbot speaks and how a platform's locale string maps onto them."""

from __future__ import annotations

from collections.abc import Mapping

LOCALES: tuple[str, ...] = ("en", "hi", "bn")
DEFAULT_LOCALE = "en"

LOCALE_NAMES: Mapping[str, str] = {"en": "English", "hi": "हिन्दी", "bn": "বাংলা"}
_NAMED: Mapping[str, str] = {
    "english": "en",
    "hindi": "hi",
    "हिन्दी": "hi",
    "हिंदी": "hi",
    "bengali": "bn",
    "bangla": "bn",
    "বাংলা": "bn",
}


def supported(tag: str | None) -> str | None:
    """The supported locale for a platform tag such as ``hi``, ``en-US`` or ``bn_IN``."""
    if not tag:
        return None
    named = _NAMED.get(tag.strip().casefold())
    if named:
        return named
    base = tag.replace("_", "-").split("-", 1)[0].strip().lower()
    return base if base in LOCALES else None


def choose(*candidates: str | None, default: str = DEFAULT_LOCALE) -> str:
    """The first supported locale among the candidates, else the default (English)."""
    for tag in candidates:
        found = supported(tag)
        if found:
            return found
    return default
