"""Settings: one clear line per missing or wrong variable, never a secret, never a
traceback, through the real `quizbot run slack` entry point."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
import yaml

from adapters import cli
from adapters.settings import load
from adapters.slack import parse
from adapters.slack.runtime import BOT_SCOPES

from ..support.environment import REPO
from ..support.settings import problems


def args(http: bool = False, port: int = 3000) -> dict[str, object]:
    """The command line's options, as `quizbot run slack [--http] [--port N]` gives them."""
    return {"--http": http, "--port": port}


def settings_problems(environ: Mapping[str, str], options: Mapping[str, object]) -> list[str]:
    return problems(environ, options, platforms=("slack",))


def configured(environ: Mapping[str, str]) -> bool:
    return load(environ).slack.configured


def test_socket_mode_needs_the_bot_and_app_tokens() -> None:
    assert not configured({})
    problems = settings_problems({}, args())
    assert problems == [
        "SLACK_BOT_TOKEN is not set: find the Bot User OAuth Token (xoxb-…) under"
        " OAuth & Permissions → OAuth Tokens",
        "SLACK_APP_TOKEN is not set (Socket Mode needs it): run with --http for HTTP mode,"
        " or create an app-level token (xapp-…) with the connections:write scope under"
        " Basic Information → App-Level Tokens",
    ]
    env = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}
    assert configured(env) and settings_problems(env, args()) == []


def test_http_mode_needs_the_signing_secret() -> None:
    env = {"SLACK_BOT_TOKEN": "xoxb-1"}
    assert settings_problems(env, args(http=True)) == [
        "SLACK_SIGNING_SECRET is not set (HTTP mode needs it): find it under"
        " Basic Information → App Credentials → Signing Secret"
    ]
    assert settings_problems({**env, "SLACK_SIGNING_SECRET": "s"}, args(http=True)) == []


def test_wrong_values_are_named_without_echoing_them() -> None:
    env = {
        "SLACK_BOT_TOKEN": "xapp-secret-value",
        "SLACK_APP_TOKEN": "xoxb-other-secret",
        "SLACK_API_URL": "slack.example/api",
    }
    problems = settings_problems(env, args())
    assert [p.split(" ", 1)[0] for p in problems] == [
        "SLACK_BOT_TOKEN",
        "SLACK_APP_TOKEN",
        "SLACK_API_URL",
    ]
    assert not any("secret" in p for p in problems)
    assert settings_problems(
        {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"}, args(http=True, port=70000)
    ) == ["--port 70000 is not a TCP port (0-65535)"]


def test_extra_admins_are_member_ids() -> None:
    env = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}
    listed = {**env, "QUIZBOT_SLACK_ADMINS": " U0123ABCD, W0456EFGH ,,"}
    assert load(listed, args()).slack.admins == {"U0123ABCD", "W0456EFGH"}
    assert settings_problems(listed, args()) == []
    assert load(env, args()).slack.admins == frozenset()
    handles = {**env, "QUIZBOT_SLACK_ADMINS": "U0123ABCD,@alice"}
    assert settings_problems(handles, args()) == [
        "QUIZBOT_SLACK_ADMINS must list Slack member ids (like U0123ABCD), comma-separated,"
        " not @alice: copy one from the member's profile → ⋮ → Copy member ID"
    ]


def test_quizbot_run_slack_prints_the_problems(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-1")
    assert cli.main(["run", "slack", "--http"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("quizbot: SLACK_SIGNING_SECRET is not set (HTTP mode needs it)")
    assert "Traceback" not in err and "xoxb-1" not in err


def test_the_manifest_creates_the_app_in_one_paste() -> None:
    manifest = yaml.safe_load((REPO / "deploy/slack/manifest.yaml").read_text(encoding="utf-8"))
    (command,) = manifest["features"]["slash_commands"]
    assert command["command"] == "/quiz" and "leaderboard" in command["usage_hint"]
    for word in (
        "daily on",
        "[reveal-hours] [missed]",
        "race",
        "competition start",
        "leaderboard [week|month|all|comp",
        "review",
        "remind on <HH:MM> <timezone>",
        "insights [topic] [week|month|all]",
        "dashboard",
    ):
        assert word in command["usage_hint"]
    # Slack's manifest schema: usage_hint ≤ 1000, description ≤ 2000, long_description 175-4000.
    assert len(command["usage_hint"]) <= 1000 and len(command["description"]) <= 2000
    assert 175 <= len(manifest["display_information"]["long_description"]) <= 4000
    assert manifest["oauth_config"]["scopes"]["bot"] == [
        "commands",
        "chat:write",
        "users:read",
        "files:read",
    ]
    # Each member's own page is the Home tab; reminders, reviews started there and
    # proposal decisions come in the app's DM: its Messages tab, read-only.
    home = manifest["features"]["app_home"]
    assert home == {
        "home_tab_enabled": True,
        "messages_tab_enabled": True,
        "messages_tab_read_only_enabled": True,
    }
    assert manifest["settings"]["socket_mode_enabled"] is True
    assert manifest["settings"]["interactivity"]["is_enabled"] is True
    assert len(manifest["display_information"]["description"]) <= 140
    assert manifest["settings"]["event_subscriptions"]["bot_events"] == list(parse.EVENTS)


def test_the_distribution_manifest_installs_over_http_with_oauth() -> None:
    single = yaml.safe_load((REPO / "deploy/slack/manifest.yaml").read_text(encoding="utf-8"))
    text = (REPO / "deploy/slack/manifest.distribution.yaml").read_text(encoding="utf-8")
    manifest = yaml.safe_load(text)
    settings = manifest["settings"]
    assert settings["socket_mode_enabled"] is False  # the Marketplace allows no Socket Mode
    assert settings["org_deploy_enabled"] is False
    assert settings["interactivity"]["request_url"] == "https://quizbot.example.com/slack/events"
    assert settings["event_subscriptions"] == {
        "request_url": "https://quizbot.example.com/slack/events",
        "bot_events": list(parse.EVENTS),
    }
    assert manifest["oauth_config"]["redirect_urls"] == [
        "https://quizbot.example.com/slack/oauth_redirect"
    ]
    (command,) = manifest["features"]["slash_commands"]
    assert command["url"] == "https://quizbot.example.com/slack/events"
    # The same app otherwise, asking for what an install grants (runtime.BOT_SCOPES).
    assert manifest["oauth_config"]["scopes"]["bot"] == list(BOT_SCOPES)
    assert single["oauth_config"]["scopes"]["bot"] == list(BOT_SCOPES)
    assert manifest["display_information"] == single["display_information"]
    assert {**command, "url": None} == {**single["features"]["slash_commands"][0], "url": None}
    for word in ("SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET", "QUIZBOT_TOKEN_KEY", "/slack/install"):
        assert word in text


OAUTH = {
    "SLACK_CLIENT_ID": "1111.2222",
    "SLACK_CLIENT_SECRET": "client-secret-value",
    "SLACK_SIGNING_SECRET": "signing-secret-value",
    "QUIZBOT_TOKEN_KEY": "k" * 32,
}


def test_add_to_slack_needs_its_credentials_http_and_a_token_key() -> None:
    assert configured(OAUTH) and settings_problems(OAUTH, args(http=True)) == []
    assert load(OAUTH, args(http=True)).slack.oauth
    only_id = {"SLACK_CLIENT_ID": "1111.2222", "SLACK_SIGNING_SECRET": "s"}
    assert configured(only_id)
    assert settings_problems(only_id, args(http=True)) == [
        "SLACK_CLIENT_SECRET is not set (SLACK_CLIENT_ID is): find it under"
        " Basic Information → App Credentials → Client Secret"
    ]
    only_secret = {"SLACK_CLIENT_SECRET": "client-secret-value", "SLACK_SIGNING_SECRET": "s"}
    assert settings_problems(only_secret, args(http=True)) == [
        "SLACK_CLIENT_ID is not set (SLACK_CLIENT_SECRET is): find it under"
        " Basic Information → App Credentials → Client ID"
    ]
    no_key = {k: v for k, v in OAUTH.items() if k != "QUIZBOT_TOKEN_KEY"}
    assert settings_problems(no_key, args(http=True)) == [
        "QUIZBOT_TOKEN_KEY is not set (it seals the installed workspaces' tokens in the"
        " database): set 32 or more random characters, e.g. the output of"
        " `openssl rand -hex 32`"
    ]
    short = {**OAUTH, "QUIZBOT_TOKEN_KEY": f"{'k' * 32},short-old-key"}
    assert settings_problems(short, args(http=True)) == [
        "QUIZBOT_TOKEN_KEY must be at least 32 characters (each, when several)"
    ]
    socket = settings_problems(OAUTH, args())
    assert socket[0] == "SLACK_CLIENT_ID installs the app over HTTP (/slack/install): add --http"
    both = settings_problems({**OAUTH, "SLACK_BOT_TOKEN": "xoxb-1"}, args(http=True))
    assert both == [
        "SLACK_BOT_TOKEN is one workspace's token, but SLACK_CLIENT_ID and SLACK_CLIENT_SECRET"
        " install the app in many (each workspace's token comes from its installation):"
        " unset one or the other"
    ]
    for problem in [*socket, *both]:
        assert "secret-value" not in problem and "kkkk" not in problem
