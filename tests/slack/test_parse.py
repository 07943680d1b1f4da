"""Parsing ``/quiz`` text and Slack payloads (pure)."""

from __future__ import annotations

import pytest

from adapters.slack import parse
from bot.domain.actions import NextAction
from bot.services.requests import (
    CompetitionEnd,
    CompetitionStandings,
    CompetitionStart,
    DailyOff,
    DailyOn,
    DailyStatus,
    ListBanks,
    RaceStart,
    RaceStop,
    RemindOff,
    RemindOn,
    RemindStatus,
    RemoveBank,
    Request,
    SetLanguage,
    ShowLeaderboard,
    ShowProposals,
    ShowStats,
    ShowTopics,
    StartQuiz,
    StartReview,
    UnknownButton,
    Usage,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ShowTopics()),
        ("  help ", ShowTopics()),
        ("topics", ShowTopics()),
        ("offloading", StartQuiz("offloading")),
        ("Mixed Precision", StartQuiz("Mixed Precision")),
        ("leaderboard", ShowLeaderboard()),
        ("leaderboard WEEK", ShowLeaderboard("week")),
        ("leaderboard month offloading", ShowLeaderboard("month", "offloading")),
        ("leaderboard offloading all", ShowLeaderboard("all", "offloading")),
        ("stats", ShowStats()),
        ("lang hi", SetLanguage("hi")),
        ("lang", SetLanguage("")),
        ("a &amp; b &lt;x&gt;", StartQuiz("a & b <x>")),
        ("leaderboard competition", CompetitionStandings()),
    ],
)
def test_invocation(text: str, expected: Request) -> None:
    assert parse.request(text) == expected


DAILY_USAGE, RACE_USAGE, COMPETITION_USAGE = Usage("daily"), Usage("race"), Usage("competition")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("daily on offloading 09:30 UTC", DailyOn("offloading", "09:30", "UTC")),
        (
            "Daily ON offloading,amp 9.30 Europe/Berlin 0.02",
            DailyOn("offloading,amp", "9.30", "Europe/Berlin", 0.02),
        ),
        (
            "daily on offloading, amp 09:30 Asia/Kolkata 2,5",
            DailyOn("offloading, amp", "09:30", "Asia/Kolkata", 2.5),
        ),
        # The core names a bad time or timezone; the parser only finds their places.
        ("daily on offloading 9h30 Mars/Olympus", DailyOn("offloading", "9h30", "Mars/Olympus")),
        (
            "daily on offloading 09:30 UTC missed",
            DailyOn("offloading", "09:30", "UTC", prefer_missed=True),
        ),
        (
            "daily on offloading,amp 09:30 UTC 2 MISSED",
            DailyOn("offloading,amp", "09:30", "UTC", 2.0, prefer_missed=True),
        ),
        (
            "daily on offloading 09:30 UTC missed 2",  # the two options in either order
            DailyOn("offloading", "09:30", "UTC", 2.0, prefer_missed=True),
        ),
        ("daily on offloading 09:30 missed", DAILY_USAGE),  # no timezone
        ("daily off", DailyOff()),
        ("daily status", DailyStatus()),
        ("daily", DAILY_USAGE),
        ("daily on", DAILY_USAGE),
        ("daily on offloading 09:30", DAILY_USAGE),
        ("daily on offloading 09:30 UTC 0", DAILY_USAGE),
        ("daily off now", DAILY_USAGE),
        ("daily sometimes", DAILY_USAGE),
        ("race offloading", RaceStart("offloading")),
        ("race offloading 3", RaceStart("offloading", 3)),
        ("race Mixed precision 3 15", RaceStart("Mixed precision", 3, 15)),
        ("race 2020 5", RaceStart("2020", 5)),  # a topic is never taken for a number
        ("race stop", RaceStop()),
        ("race", RACE_USAGE),
        (
            'competition start "Q4 systems cup" until 2026-12-31',
            CompetitionStart("Q4 systems cup", "2026-12-31"),
        ),
        (
            "competition START “Q4 cup” UNTIL 2026-12-31 topics offloading, amp",
            CompetitionStart("Q4 cup", "2026-12-31", "offloading, amp"),
        ),
        (
            "competition start „Pokal“ until 2026-12-31 topic amp",
            CompetitionStart("Pokal", "2026-12-31", "amp"),
        ),
        ("competition end", CompetitionEnd()),
        ("competition standings", CompetitionStandings()),
        ("competition", COMPETITION_USAGE),
        ("competition start Q4 cup until 2026-12-31", COMPETITION_USAGE),  # no quotes
        ('competition start "  " until 2026-12-31', COMPETITION_USAGE),
        ('competition start "Cup" 2026-12-31', COMPETITION_USAGE),
        ('competition start "Cup" until', COMPETITION_USAGE),
    ],
)
def test_channel_commands(text: str, expected: Request) -> None:
    assert parse.request(text) == expected


REMIND_USAGE = Usage("remind")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("review", StartReview()),
        ("Review", StartReview()),
        ("remind on 09:00 Europe/Berlin", RemindOn("09:00", "Europe/Berlin")),
        ("REMIND ON 9.00 Asia/Kolkata", RemindOn("9.00", "Asia/Kolkata")),
        # The core names a bad time or timezone; the parser only finds their places.
        ("remind on 25:00 Mars/Olympus", RemindOn("25:00", "Mars/Olympus")),
        ("remind off", RemindOff()),
        ("remind", RemindStatus()),
        ("remind status", RemindStatus()),
        ("remind on", REMIND_USAGE),
        ("remind on 09:00", REMIND_USAGE),
        ("remind on 09:00 Europe/Berlin daily", REMIND_USAGE),
        ("remind off now", REMIND_USAGE),
        ("remind sometimes", REMIND_USAGE),
    ],
)
def test_review_commands(text: str, expected: Request) -> None:
    assert parse.request(text) == expected


COMMAND = {
    "team_id": "T1",
    "channel_id": "C1",
    "user_id": "U1",
    "user_name": "ada",
    "command": "/quiz",
    "text": "offloading",
    "response_url": "https://hooks.slack.com/commands/1/2/3",
}


def test_command() -> None:
    assert parse.command(COMMAND) == parse.Command(
        "T1", "C1", "U1", "ada", "offloading", COMMAND["response_url"]
    )
    assert parse.command({**COMMAND, "user_name": ""}).user_name == "U1"  # type: ignore[union-attr]
    for broken in ({"user_id": ""}, {"response_url": "ftp://x"}, {"type": "shortcut"}):
        assert parse.command({**COMMAND, **broken}) is None
    assert parse.read({**COMMAND, "event": {}}) is None


def test_click() -> None:
    body = {
        "type": "block_actions",
        "user": {"id": "U1", "team_id": "T1"},
        "container": {"channel_id": "C1"},
        "response_url": "https://hooks.slack.com/actions/1/2/3",
        "actions": [{"action_id": "qz:n:0123456789abcdef:1"}],
    }
    assert parse.click(body) == parse.Click(
        "T1", "C1", "U1", NextAction("0123456789abcdef", 1), body["response_url"], "U1"
    )
    for broken in ({"actions": []}, {"user": "U1"}, {"type": "view_submission"}):
        assert parse.click({**body, **broken}) is None
    assert parse.read(body) == parse.click(body) and parse.read([body]) is None
    # A button id that stands for nothing is read as such, to be refused as "invalid".
    forged = parse.click({**body, "actions": [{"action_id": "qz:n:forged"}]})
    assert forged is not None and forged.request == UnknownButton()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("bank upload", parse.OpenForm(parse.UPLOAD_FORM)),
        ("Bank UPLOAD", parse.OpenForm(parse.UPLOAD_FORM)),
        ("bank list", ListBanks()),
        ("bank remove On-Call", RemoveBank("On-Call")),
        ("bank", Usage("bank")),
        ("bank remove", Usage("bank")),
        ("bank remove a b", Usage("bank")),
        ("bank upload now", Usage("bank")),
        ("propose", parse.OpenForm(parse.PROPOSAL_FORM)),
        ("proposals", ShowProposals()),
    ],
)
def test_bank_commands(text: str, expected: Request | parse.OpenForm) -> None:
    assert parse.request(text) == expected


SUBMISSION = {
    "type": "view_submission",
    "team": {"id": "T1"},
    "user": {"id": "U1", "username": "ada", "team_id": "T1"},
    "view": {
        "callback_id": parse.UPLOAD_FORM,
        "private_metadata": parse.metadata("C1", "hi"),
        "state": {
            "values": {
                "file": {
                    "file": {
                        "type": "file_input",
                        "files": [
                            {
                                "id": "F1",
                                "name": "team.gift",
                                "url_private_download": "https://files.slack.com/x",
                            },
                            {"id": "F2", "name": "no-url.gift"},
                        ],
                    }
                },
                "pasted": {"pasted": {"type": "plain_text_input", "value": None}},
                "format": {
                    "format": {"type": "static_select", "selected_option": {"value": "gift"}}
                },
                "options": {
                    "options": {
                        "type": "checkboxes",
                        "selected_options": [{"value": "allow_missing"}],
                    }
                },
                "odd": {"odd": {"type": "datepicker", "selected_date": "2026-01-01"}},
            }
        },
    },
}


def test_submission() -> None:
    sent = parse.submission(SUBMISSION)
    assert sent == parse.Submission(
        "T1",
        "C1",
        "U1",
        "ada",
        parse.UPLOAD_FORM,
        "hi",
        {
            "file": (parse.SlackFile("team.gift", "https://files.slack.com/x"),),
            "pasted": "",
            "format": "gift",
            "options": ("allow_missing",),
        },
    )
    assert parse.read(SUBMISSION) == sent
    view = SUBMISSION["view"]
    forgeries: list[dict[str, object]] = [
        {"callback_id": "someone_elses_form"},
        {"private_metadata": "C1"},
        {"private_metadata": parse.metadata("", "en")},
        {"state": {"values": []}},
    ]
    for broken in forgeries:
        forged = {**SUBMISSION, "view": {**view, **broken}}  # type: ignore[dict-item]
        assert parse.submission(forged) is None and parse.read(forged) is None
    assert parse.submission({**SUBMISSION, "user": "U1"}) is None
    assert parse.submission({**SUBMISSION, "type": "view_closed"}) is None


def test_the_app_lifecycle_events_are_read() -> None:
    uninstalled = {"type": "event_callback", "team_id": "T2", "event": {"type": "app_uninstalled"}}
    assert parse.read(uninstalled) == parse.AppEvent("T2", "app_uninstalled", removal=True)
    bot = {**uninstalled, "event": {"type": "tokens_revoked", "tokens": {"bot": ["UB"]}}}
    assert parse.read(bot) == parse.AppEvent("T2", "tokens_revoked", removal=True)
    user = {**uninstalled, "event": {"type": "tokens_revoked", "tokens": {"oauth": ["U1"]}}}
    assert parse.read(user) == parse.AppEvent("T2", "tokens_revoked", removal=False)
    for odd in (
        {**uninstalled, "event": {"type": "message", "text": "hi"}},  # not subscribed
        {**uninstalled, "event": "app_uninstalled"},
        {**uninstalled, "team_id": 7},
        {**uninstalled, "type": "block_actions"},
    ):
        assert parse.read(odd) is None
    assert parse.read({"type": "url_verification", "challenge": "c"}) == parse.Verification()
    assert parse.read({"type": "url_verification", "challenge": ["c"]}) is None
