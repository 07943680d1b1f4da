"""HTML to the plain text a bank holds, and back, for Moodle's HTML texts (in GIFT's
``[html]`` questions and Moodle XML): entities decoded, tags dropped, a paragraph or a
``<br>`` a line break, other white space a space."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

_BREAKS = frozenset({"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre"})
_HIDDEN = frozenset({"script", "style"})
# The marked sections the standard library's parser knows: <![CDATA[…]]>, <![if …]>.
_SECTIONS = re.compile(
    r"(temp|cdata|ignore|include|rcdata|if|else|endif)(?![-_.a-zA-Z0-9])", re.IGNORECASE
)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def parse_marked_section(self, i: int, report: bool = True) -> int:
        """Any other ``<![`` (``<![x]>``) is a comment up to the next ``>``, as a browser
        reads it: the standard library's parser raises AssertionError on it."""
        if _SECTIONS.match(self.rawdata, i + 3):
            return super().parse_marked_section(i, report)
        return self.parse_bogus_comment(i, report)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag in _BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in _BREAKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(" ".join(data.split("\n")))


def html_to_text(markup: str) -> str:
    """The text of an HTML fragment; spaces are tidied by the caller."""
    parser = _Text()
    parser.feed(markup)
    parser.close()
    return "".join(parser.parts)


def text_to_html(text: str) -> str:
    """One paragraph, line breaks as ``<br>``: ``html_to_text`` gives the text back."""
    return "<p>" + "<br>".join(html.escape(line, quote=False) for line in text.split("\n")) + "</p>"
