"""The dashboard's pages as HTML: Jinja2 templates (``templates/``) with autoescape on, so
every text from a bank, a player or a request is escaped where it is printed and a
forgotten escape cannot become script. The one shell frames every page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from bot.ui.i18n import LOCALE_NAMES
from bot.ui.messages import CORE, Messages

TEXT = Messages("adapters.web", "web", fallback=CORE)  # the core's period names etc.

STYLE = """
body{font-family:system-ui,"Noto Sans","Noto Sans Devanagari","Noto Sans Bengali",sans-serif;
margin:0;color:#111;background:#fff;line-height:1.45}
header,main{max-width:60rem;margin:0 auto;padding:0.75rem 1rem}
header{border-bottom:1px solid #767676}
h1{font-size:1.3rem;margin:0.2rem 0}h2{font-size:1.1rem;margin-top:1.6rem}
nav a,.choices a{margin-right:0.9rem}a{color:#0b4f8a}a:focus{outline:3px solid #0b4f8a}
[aria-current]{font-weight:700;color:#111}
table{border-collapse:collapse;width:100%;margin:0.6rem 0}
th,td{text-align:left;padding:0.3rem 0.5rem;border-bottom:1px solid #c8c8c8;vertical-align:top}
td.n,th.n{text-align:right}td.heat{text-align:right;min-width:5rem}.wide{overflow-x:auto}
.chart{max-width:40rem;display:block;margin:0.6rem 0}
.chart text{font-size:16px;fill:#111}.note{color:#3d3d3d}
"""

# The heatmap's cells: white to this blue by the share; at its strongest the background
# stays light enough for the page's near-black text (contrast ≥ 7:1, WCAG AAA).
HEAT = (42, 111, 219)
HEAT_MAX = 0.5


def shade(part: int, whole: int) -> str:
    """A heatmap cell's background, by ``part`` of ``whole``."""
    share = part / whole if whole else 0.0
    red, green, blue = HEAT
    return f"rgba({red},{green},{blue},{share * HEAT_MAX:.2f})"


def share(part: int, whole: int) -> int:
    """``part`` of ``whole`` in whole percent (0 of nothing)."""
    return round(100 * part / whole) if whole else 0


TEMPLATES = Environment(
    loader=PackageLoader("adapters.web", "templates"),
    autoescape=True,
    undefined=StrictUndefined,  # a name a template misspells fails the page, not blank
    keep_trailing_newline=False,
)
TEMPLATES.globals.update(shade=shade, share=share)


@dataclass(frozen=True)
class Page:
    """Where a page is and in which language: links keep the language and the token."""

    locale: str
    base: str  # "/dashboard/<token>/"
    path: str  # this page's path under the base, e.g. "insights"
    query: dict[str, str]

    def t(self, key: str, **values: object) -> str:
        return TEXT.t(self.locale, key, **values)

    def href(self, path: str | None = None, **changes: str | None) -> str:
        """A link to ``path`` (this page by default), keeping the language (the template
        escapes it)."""
        query = {"lang": self.locale} if path is not None else {**self.query, "lang": self.locale}
        for key, value in changes.items():
            if value is None:
                query.pop(key, None)
            else:
                query[key] = value
        target = self.base + (self.path if path is None else path)
        return f"{target}?{urlencode(query)}"

    def kept(self, key: str) -> dict[str, str]:
        """The query a form choosing ``key`` carries along: the page's other choices and
        its language."""
        kept = {**self.query, "lang": self.locale}
        kept.pop(key, None)
        return kept


def fragment(name: str, **context: Any) -> Markup:
    """A page's body from its template (markup: the template escaped what it printed)."""
    return Markup(TEMPLATES.get_template(name).render(**context))


NAV = (
    ("", "nav_leaderboards"),
    ("insights", "nav_insights"),
    ("map", "nav_map"),
    ("participation", "nav_participation"),
)


def shell(page: Page, title: str, body: Markup, workspace: str, expires: str) -> str:
    return TEMPLATES.get_template("shell.html").render(
        page=page, title=title, body=body, workspace=workspace, expires=expires,
        nav=NAV, languages=LOCALE_NAMES, style=Markup(STYLE),
    )  # fmt: skip


def refused(locale: str, reason: str) -> str:
    """The page for a forged, expired or unknown link: says why, shows nothing else."""
    hint = TEXT.t(locale, "ask_again") if reason in ("forged", "expired") else ""
    return TEMPLATES.get_template("refused.html").render(
        locale=locale, title=TEXT.t(locale, reason), hint=hint, style=Markup(STYLE)
    )
