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


def read_catalogue(locale: str, package: str = "bot.ui", domain: str = "quizbot") -> Catalogue:
    """Parse the locale's .po file (a few hundred messages: milliseconds)."""
    source = resources.files(package).joinpath(f"locale/{locale}/LC_MESSAGES/{domain}.po")
    with source.open("rb") as po:
        catalog = read_po(po, locale=locale, domain=domain)
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


@dataclass(frozen=True)
class Messages:
    """One catalogue domain: the core's (``quizbot``) or a platform adapter's own (its
    command syntax and descriptions), each a .po file per language in its package."""

    package: str
    domain: str
    fallback: Messages | None = None  # where keys this domain lacks are looked up

    def catalogue(self, locale: str) -> Catalogue:
        return _catalogue(
            self.package, self.domain, locale if locale in LOCALES else DEFAULT_LOCALE
        )

    def t(self, locale: str, key: str, **values: object) -> str:
        """The message for a key in a locale (English when missing), filled with values; for
        a message with plural forms, the form is picked by its counting placeholder."""
        found = self.catalogue(locale)
        if key not in found.keys:
            found = self.catalogue(DEFAULT_LOCALE)
            if key not in found.keys:
                if self.fallback is not None:
                    return self.fallback.t(locale, key, **values)
                raise KeyError(f"{self.domain}: {key}")
        counter = found.plural_by.get(key)
        if counter is None:
            text = found.translations.gettext(key)
        else:
            count = values[counter]
            text = found.translations.ngettext(key, key, count if isinstance(count, int) else 2)
        return text.format(**values)


@cache
def _catalogue(package: str, domain: str, locale: str) -> Catalogue:
    return read_catalogue(locale, package, domain)


CORE = Messages("bot.ui", "quizbot")
t = CORE.t
