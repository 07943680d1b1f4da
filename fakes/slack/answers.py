"""The objects the fake Slack's Web API answers with, shaped as Slack's: auth.test, a
users.info member, oauth.v2.access, a file as view.state holds it, an opened modal."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from .world import APP_ID, User, bot_user


def auth_test(team: str, team_name: str) -> dict[str, Any]:
    return {
        "ok": True,
        "url": "https://fake.slack.test/",
        "team": team_name,
        "user": "quizbot",
        "team_id": team,
        "user_id": bot_user(team),
        "bot_id": "B" + bot_user(team)[1:],
        "is_enterprise_install": False,
    }


def member(user_id: str, user: User, with_locale: bool) -> dict[str, Any]:
    found: dict[str, Any] = {
        "id": user_id,
        "name": user_id.lower(),
        "real_name": user.real_name,
        "is_admin": user.admin,
        "is_owner": user.owner,
        "profile": {"display_name": user.display_name, "real_name": user.real_name},
    }
    if with_locale:
        found["locale"] = user.locale
    return found


def oauth_access(
    token: str, team: str, team_name: str, installer: str, scopes: str
) -> dict[str, Any]:
    """A bot token issued for an install of the app in ``team``."""
    return {
        "ok": True,
        "access_token": token,
        "token_type": "bot",
        "scope": scopes,
        "bot_user_id": bot_user(team),
        "app_id": APP_ID,
        "team": {"id": team, "name": team_name},
        "enterprise": None,
        "is_enterprise_install": False,
        "authed_user": {"id": installer},
    }


def uploaded_file(file_id: str, name: str, size: int, url: str) -> dict[str, Any]:
    """A file a member uploaded in a modal, as view.state has it."""
    return {
        "id": file_id,
        "created": int(time.time()),
        "timestamp": int(time.time()),
        "name": name,
        "title": name,
        "mimetype": "text/plain",
        "filetype": name.rsplit(".", 1)[-1],
        "pretty_type": "Plain Text",
        "user": "U1",
        "size": size,
        "mode": "hosted",
        "is_external": False,
        "is_public": False,
        "url_private": url,
        "url_private_download": url + "?download=1",
        "permalink": f"https://fake.slack.test/files/U1/{file_id}/{name}",
    }


def opened_view(view: Mapping[str, Any], number: int) -> dict[str, Any]:
    """A modal as views.open answers it: the app's view with Slack's id, state and hash."""
    return {
        **view,
        "id": f"V{number:08d}",
        "team_id": "T1",
        "state": {"values": {}},
        "hash": f"{time.time():.6f}.fake",
        "app_id": APP_ID,
        "bot_id": "BQUIZBOT",
    }
