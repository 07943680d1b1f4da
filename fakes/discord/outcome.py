"""What a user saw after one interaction, read as a player reads it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .world import EPHEMERAL


@dataclass(frozen=True)
class Outcome:
    interaction_id: str
    callback_type: int  # 4 message, 5/6 deferred, 7 update, 8 autocomplete, 9 modal
    message: dict[str, Any] | None = None  # the message created or edited
    new_message: bool = False  # False: the clicked message was edited in place
    choices: list[dict[str, Any]] | None = None  # autocomplete
    modal: dict[str, Any] | None = None  # the form opened (type 9)
    # Seconds from dispatching the interaction to its first response reaching the fake.
    latency: float | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.get("flags", 0) & EPHEMERAL)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return (self.message or {}).get("embeds", [])

    @property
    def content(self) -> str:
        return (self.message or {}).get("content", "")

    @property
    def buttons(self) -> list[dict[str, Any]]:
        rows = (self.message or {}).get("components", [])
        return [c for row in rows for c in row.get("components", [])]

    def button(self, label: str) -> dict[str, Any]:
        return next(b for b in self.buttons if b.get("label") == label)

    def text(self) -> str:
        """Everything readable in the message, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
            parts.append(embed.get("footer", {}).get("text", ""))
        return "\n".join(p for p in parts if p)

    def to_dict(self) -> dict[str, Any]:
        return {
            "interaction_id": self.interaction_id,
            "callback_type": self.callback_type,
            "message": self.message,
            "new_message": self.new_message,
            "choices": self.choices,
        }
