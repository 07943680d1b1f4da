"""User-interface strings: gettext catalogues (``bot/locale/<lang>/LC_MESSAGES/quizbot.po``)
read with Babel, with CLDR plural forms. The code asks for a message by its key; adapters
never hard-code text."""

from __future__ import annotations

import gettext
import io
from dataclasses import dataclass
from functools import cache
from importlib import resources

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.ui.i18n import DEFAULT_LOCALE, LOCALES

_PLURAL_NOTE = "plural: "


@dataclass(frozen=True)
class Catalogue:
    """One language's messages: gettext translations and, per plural message, the
    placeholder whose value picks the form."""

    translations: gettext.GNUTranslations
    plural_by: dict[str, str]
    keys: frozenset[str]


def read_catalogue(locale: str) -> Catalogue:
    """Parse the locale's .po file (a few hundred messages: milliseconds)."""
    source = resources.files("bot.ui").joinpath(f"locale/{locale}/LC_MESSAGES/quizbot.po")
    with source.open("rb") as po:
        catalog = read_po(po, locale=locale, domain="quizbot")
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    plural_by: dict[str, str] = {}
    keys: set[str] = set()
    for message in catalog:
        if not message.id:
            continue  # the header
        key = str(message.id[0] if isinstance(message.id, tuple | list) else message.id)
        keys.add(key)
        for note in message.auto_comments:
            if note.startswith(_PLURAL_NOTE):
                plural_by[key] = note.removeprefix(_PLURAL_NOTE).strip()
    return Catalogue(gettext.GNUTranslations(compiled), plural_by, frozenset(keys))


@cache
def catalogue(locale: str) -> Catalogue:
    return read_catalogue(locale if locale in LOCALES else DEFAULT_LOCALE)


def has(key: str) -> bool:
    """Whether a message exists (in English, the complete catalogue)."""
    return key in catalogue(DEFAULT_LOCALE).keys


def t(locale: str, key: str, **values: object) -> str:
    """The message for a key in a locale (English when missing), filled with values; for a
    message with plural forms, the form is picked by its counting placeholder."""
    found = catalogue(locale)
    if key not in found.keys:
        found = catalogue(DEFAULT_LOCALE)
        if key not in found.keys:
            raise KeyError(key)
    counter = found.plural_by.get(key)
    if counter is None:
        text = found.translations.gettext(key)
    else:
        count = values[counter]
        text = found.translations.ngettext(key, key, count if isinstance(count, int) else 2)
    return text.format(**values)
