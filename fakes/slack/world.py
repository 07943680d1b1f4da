"""The fake Slack's fixed world: its home workspace, the app's credentials and ids, and
the members users.info describes."""

from __future__ import annotations

from dataclasses import dataclass

HOME = "T1"  # the team of every token, channel and user not said otherwise
CLIENT_ID, CLIENT_SECRET = "1111.2222", "fake-client-secret"  # the app's credentials
APP_ID = "AQUIZBOT"
VERIFICATION_TOKEN = "deprecated-verification-token"  # still in Slack's payloads


def bot_user(team: str) -> str:
    """The app's bot user in a team."""
    return "UQUIZBOT" if team == HOME else f"UQUIZBOT{team}"


@dataclass(frozen=True)
class User:
    locale: str = "en-US"
    display_name: str = ""
    real_name: str = ""
    admin: bool = False  # users.info's is_admin
    owner: bool = False  # users.info's is_owner
