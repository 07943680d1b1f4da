"""Text for the terminal: what a bank or a player wrote is shown, never obeyed."""

from __future__ import annotations

import io

from adapters.screen import Screen


def test_escape_sequences_in_text_are_shown_not_obeyed() -> None:
    out = io.StringIO()
    screen = Screen(out)
    screen.say("Title\x1b[2J\x1b]0;pwned\x07 and\tthen\r\nmore\x9b")
    screen.prompt("Topic \x1b[31m> ")
    assert out.getvalue() == (
        "Title\\x1b[2J\\x1b]0;pwned\\x07 and\tthen\\x0d\nmore\\x9b\nTopic \\x1b[31m> "
    )
