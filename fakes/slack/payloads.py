"""What Slack sends the app, shaped as Slack's: a slash command's form fields, a button
click (block_actions) on a message or on the App Home, a modal submission
(view_submission) and an Events API event, each with the trigger id Slack issues."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

from .world import APP_ID, VERIFICATION_TOKEN

_TRIGGER = re.compile(r"trigger\.[\w.-]+\.(\d+)")


def trigger_id(key: str) -> str:
    """A trigger id as Slack issues one: views.open takes it once, within 3 s."""
    return f"trigger.{key}.{int(time.time() * 1000)}"


def trigger_age(trigger: str) -> float | None:
    """Seconds since ``trigger_id`` issued ``trigger``; None if it did not."""
    issued = _TRIGGER.fullmatch(trigger)
    return None if issued is None else time.time() - int(issued[1]) / 1000


def _member(user: str, team: str) -> dict[str, str]:
    return {"id": user, "username": user.lower(), "name": user.lower(), "team_id": team}


def slash_command(
    team: str, channel: str, text: str, user: str, response_url: str, key: str
) -> dict[str, str]:
    """``/quiz <text>``'s form fields."""
    return {
        "token": VERIFICATION_TOKEN,
        "team_id": team,
        "team_domain": "fake",
        "channel_id": channel,
        "channel_name": "general",
        "user_id": user,
        "user_name": user.lower(),
        "command": "/quiz",
        "text": text,
        "api_app_id": APP_ID,
        "is_enterprise_install": "false",
        "response_url": response_url,
        "trigger_id": trigger_id(key),
    }


def block_actions(
    team: str,
    channel: str,
    action_id: str,
    user: str,
    response_url: str,
    key: str,
    message_ts: str | None = None,
) -> dict[str, Any]:
    """A click on an ephemeral message (a personal quiz), or with ``message_ts`` on that
    public channel message."""
    return {
        "type": "block_actions",
        "user": _member(user, team),
        "api_app_id": APP_ID,
        "token": VERIFICATION_TOKEN,
        "container": {
            "type": "message",
            "message_ts": message_ts or "1.0001",
            "channel_id": channel,
            "is_ephemeral": message_ts is None,
        },
        "trigger_id": trigger_id(key),
        "team": {"id": team, "domain": "fake"},
        "enterprise": None,
        "is_enterprise_install": False,
        "channel": {"id": channel, "name": "general"},
        "state": {"values": {}},
        "response_url": response_url,
        "actions": [
            {
                "action_id": action_id,
                "block_id": "b1",
                "text": {"type": "plain_text", "text": "A"},
                "type": "button",
                "action_ts": f"{time.time():.6f}",
            }
        ],
    }


def home_block_actions(
    team: str, action_id: str, user: str, key: str, view: Mapping[str, Any]
) -> dict[str, Any]:
    """A click on the member's App Home tab (``view``, as Slack keeps it): unlike a
    message's, it carries neither a channel nor a response_url."""
    return {
        "type": "block_actions",
        "user": _member(user, team),
        "api_app_id": APP_ID,
        "token": VERIFICATION_TOKEN,
        "container": {"type": "view", "view_id": view.get("id", "VHOME")},
        "trigger_id": trigger_id(key),
        "team": {"id": team, "domain": "fake"},
        "enterprise": None,
        "is_enterprise_install": False,
        "view": dict(view),
        "actions": [
            {
                "action_id": action_id,
                "block_id": "b1",
                "text": {"type": "plain_text", "text": "Review now"},
                "type": "button",
                "action_ts": f"{time.time():.6f}",
            }
        ],
    }


def app_home_opened(user: str, tab: str) -> dict[str, Any]:
    """The ``app_home_opened`` event: ``user`` opened the App Home's ``tab`` (``home`` or
    ``messages``); the channel is the app's DM with them."""
    return {
        "type": "app_home_opened",
        "user": user,
        "channel": f"D{user}",
        "tab": tab,
        "event_ts": f"{time.time():.6f}",
    }


def view_submission(
    team: str, view: Mapping[str, Any], answers: Mapping[str, object], user: str, key: str
) -> dict[str, Any]:
    """The member submits the modal ``view`` with ``answers`` (by action id)."""
    return {
        "type": "view_submission",
        "team": {"id": team, "domain": "fake"},
        "user": _member(user, team),
        "api_app_id": APP_ID,
        "token": VERIFICATION_TOKEN,
        "trigger_id": trigger_id(key),
        "view": submitted_view(view, answers),
        "response_urls": [],
        "is_enterprise_install": False,
        "enterprise": None,
    }


def event_callback(team: str, event: Mapping[str, Any]) -> dict[str, Any]:
    """An Events API event of ``team``."""
    return {
        "token": VERIFICATION_TOKEN,
        "team_id": team,
        "api_app_id": APP_ID,
        "event": dict(event),
        "type": "event_callback",
        "event_id": f"Ev{time.time_ns()}",
        "event_time": int(time.time()),
        "authorizations": [],
        "is_ext_shared_channel": False,
    }


def _state(element: Mapping[str, Any], answer: object) -> dict[str, Any]:
    """What view.state.values holds for one input element given a member's answer: a
    text, a select's value, the values of ticked checkboxes, or a file_input's files."""
    kind = element["type"]
    options = element.get("options", [])
    many = list(answer) if isinstance(answer, list | tuple) else []
    if kind == "plain_text_input":
        assert answer is None or len(str(answer)) <= element.get("max_length", 3000)
        return {"type": kind, "value": answer}
    if kind == "static_select":
        chosen = next((o for o in options if o["value"] == answer), element.get("initial_option"))
        return {"type": kind, "selected_option": chosen}
    if kind == "checkboxes":
        ticked = [o for o in options if o["value"] in many]
        return {"type": kind, "selected_options": ticked}
    if kind == "file_input":
        assert len(many) <= element.get("max_files", 10)
        return {"type": kind, "files": many}
    raise AssertionError(f"the fake cannot fill a {kind} input")


def submitted_view(view: Mapping[str, Any], answers: Mapping[str, object]) -> dict[str, Any]:
    """The view as a view_submission carries it: ``answers`` by action id. As Slack's
    client, it refuses to submit a required input left empty or an unknown action id."""
    values: dict[str, Any] = {}
    for block in view["blocks"]:
        if block["type"] != "input":
            continue
        element = block["element"]
        answer = answers.get(element["action_id"])
        empty = answer in (None, "", [], ()) and element["type"] != "static_select"
        assert not (empty and not block.get("optional")), f"{element['action_id']} is required"
        values[block["block_id"]] = {element["action_id"]: _state(element, answer)}
    known = {a for inputs in values.values() for a in inputs}
    assert set(answers) <= known, f"no inputs {set(answers) - known} in the view"
    return {**view, "state": {"values": values}}
