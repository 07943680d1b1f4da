"""The dashboard's pages as HTML text: one shell (navigation, languages, styles inline)
and the pieces each page (``render.py``) is built of. Every text that comes from a bank, a
player or a request is escaped here or in ``render.py``; the charts escape their own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from urllib.parse import urlencode

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
        """A link to ``path`` (this page by default), keeping the language."""
        query = {"lang": self.locale} if path is not None else {**self.query, "lang": self.locale}
        for key, value in changes.items():
            if value is None:
                query.pop(key, None)
            else:
                query[key] = value
        target = self.base + (self.path if path is None else path)
        return escape(f"{target}?{urlencode(query)}")


PAGE_MARK = ' aria-current="page"'


def _marked(on: bool, mark: str = ' aria-current="true"') -> str:
    return mark if on else ""


def shell(page: Page, title: str, body: str, workspace: str) -> str:
    nav = [("", "nav_leaderboards"), ("insights", "nav_insights"), ("map", "nav_map")]
    nav.append(("participation", "nav_participation"))
    links = " ".join(
        f'<a href="{page.href(path)}"{_marked(path == page.path, PAGE_MARK)}>'
        f"{escape(page.t(key))}</a>"
        for path, key in nav
    )
    languages = " ".join(
        f'<a href="{page.href(lang=code)}" lang="{code}"{_marked(code == page.locale)}>'
        f"{escape(name)}</a>"
        for code, name in LOCALE_NAMES.items()
    )
    label = escape(page.t("title"))
    return (
        f'<!doctype html><html lang="{escape(page.locale)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="icon" href="data:,">'
        f"<title>{escape(title)} · {label}</title><style>{STYLE}</style>"
        f"</head><body><header><h1>{label} · {escape(workspace)}</h1>"
        f'<nav aria-label="{label}">{links}</nav>'
        f'<p class="choices">{escape(page.t("language_label"))} {languages}</p></header>'
        f"<main><h2>{escape(title)}</h2>{body}</main></body></html>"
    )


def choices(page: Page, label: str, key: str, options: Sequence[tuple[str | None, str]]) -> str:
    """A row of links choosing one value of a query parameter (no form, no script)."""
    current = page.query.get(key)
    links = " ".join(
        f'<a href="{page.href(**{key: value})}"{_marked(value == current)}>{escape(text)}</a>'
        for value, text in options
    )
    return f'<p class="choices">{escape(label)} {links}</p>'


def selector(page: Page, label: str, key: str, options: Sequence[tuple[str | None, str]]) -> str:
    """A compact choice of one value of a query parameter, for a long list (topics): a
    drop-down and a Show button, a plain GET form (no script); the page's other choices and
    its language go along as hidden fields."""
    current = page.query.get(key)
    kept = {**page.query, "lang": page.locale}
    kept.pop(key, None)
    hidden = "".join(
        f'<input type="hidden" name="{escape(k)}" value="{escape(v)}">' for k, v in kept.items()
    )
    listed = "".join(
        f'<option value="{escape(value or "")}"{" selected" * (value == current)}>'
        f"{escape(text)}</option>"
        for value, text in options
    )
    return (
        f'<form class="choices" method="get" action="{escape(page.base + page.path)}">'
        f'<label for="{escape(key)}">{escape(label)}</label> '
        f'<select id="{escape(key)}" name="{escape(key)}">{listed}</select>{hidden} '
        f'<button type="submit">{escape(page.t("show_button"))}</button></form>'
    )


def table(
    headers: Sequence[str | tuple[str, str]], rows: Sequence[Sequence[str]], numeric: set[int]
) -> str:
    """A table of already-escaped cells; ``numeric`` columns are right-aligned. A heading
    given as (text, escaped link) is a link (a sortable column)."""
    right = ' class="n"'

    def heading(header: str | tuple[str, str]) -> str:
        if isinstance(header, str):
            return escape(header)
        text, link = header
        return f'<a href="{link}">{escape(text)}</a>'

    head = "".join(
        f'<th scope="col"{_marked(i in numeric, right)}>{heading(h)}</th>'
        for i, h in enumerate(headers)
    )
    body = "".join(
        "<tr>"
        + "".join(f"<td{_marked(i in numeric, right)}>{cell}</td>" for i, cell in enumerate(row))
        + "</tr>"
        for row in rows
    )
    # A wide table scrolls by itself on a phone; the page does not.
    return (
        f'<div class="wide"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def refused(locale: str, reason: str) -> str:
    """The page for a forged, expired or unknown link: says why, shows nothing else."""
    title = TEXT.t(locale, reason)
    hint = TEXT.t(locale, "ask_again") if reason in ("forged", "expired") else ""
    return (
        f'<!doctype html><html lang="{escape(locale)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="icon" href="data:,"><title>{escape(title)}</title><style>{STYLE}</style>'
        f"</head><body><main><h1>{escape(title)}</h1><p>{escape(hint)}</p></main></body></html>"
    )
