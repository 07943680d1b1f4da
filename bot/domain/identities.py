"""Who is playing and where: the neutral identities every adapter maps onto."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlayerRef:
    platform: str  # "slack", "discord", "terminal"
    id: str  # the platform's user id
    name: str = ""  # display name, refreshed from the platform


@dataclass(frozen=True)
class ScopeRef:
    """Where a quiz is played. Points and leaderboards are per workspace (Slack team or
    Discord server); the channel says where a run was started and where to post."""

    platform: str
    workspace_id: str
    channel_id: str = ""
