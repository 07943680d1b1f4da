"""The log never carries a token: the platform libraries log request headers and bodies
at DEBUG, a new installation's bot token among them."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot.operations import logs

SLACK = "xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
DISCORD = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.fixture
def root_restored() -> Iterator[None]:
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.mark.usefixtures("root_restored")
def test_a_token_in_a_debug_line_is_redacted(capsys: pytest.CaptureFixture[str]) -> None:
    logs.configure("DEBUG", "text")  # here, so its handler writes to the captured stderr
    logging.getLogger("slack_sdk.web.async_base_client").debug(
        "Sending a request - url: https://slack.com/api/auth.test, headers: "
        "{'Authorization': '(redacted)'}, body: {'token': '%s'}",
        SLACK,
    )
    logging.getLogger("discord.http").debug("Authorization: Bot %s", DISCORD)
    logging.getLogger("quizbot").info("app token xapp-1-A0123-456-abcdef, user xoxp-9-8-7")
    err = capsys.readouterr().err
    assert SLACK not in err and DISCORD not in err and "abcdef" not in err
    lines = [line.split(": ", 1)[1] for line in err.splitlines()]
    assert lines == [
        "Sending a request - url: https://slack.com/api/auth.test, headers: "
        "{'Authorization': '(redacted)'}, body: {'token': 'xoxb-[redacted]'}",
        "Authorization: Bot [redacted]",
        "app token xapp-[redacted], user xoxp-[redacted]",
    ]


def test_ids_and_ordinary_words_are_left_alone() -> None:
    text = "team T0123ABCD user U0123ABCD channel C0123 run ab12cd34ef56 xox-not-a-token"
    assert logs.redacted(text) == text
