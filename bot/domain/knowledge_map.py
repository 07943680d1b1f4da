"""The team's knowledge map: per topic, how many members know it solidly, are shaky, or
have not started, from their FSRS cards; with a privacy floor.

- A member's **recall** of a topic is the mean, over their cards in it (the questions
  they have met), of the chance they would answer each right now (``Memory.recall``).
- **Solid**: recall ≥ ``SOLID`` (0.9, FSRS's default desired retention); **shaky**: a
  card or more, below that; **not started**: no card in the topic.
- **The floor**: the solid/shaky split of a topic is shown only when at least ``FLOOR``
  members have started it, so that no one's standing can be read off a count. A member
  is named only if they opted in (``/quiz share on``); the viewer always sees their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from dataclasses import dataclass

SOLID = 0.9
FLOOR = 5


@dataclass(frozen=True)
class TopicKnowledge:
    bank_id: str
    members: int  # everyone seen in the workspace (or started here)
    started: int
    solid: int | None  # None: fewer than FLOOR started, the split is not shown
    shaky: int | None
    solid_names: tuple[str, ...]  # player ids of those named: opted in, or the viewer
    shaky_names: tuple[str, ...]
    mine: str | None  # the viewer's own: "solid", "shaky", or None (not started)

    @property
    def not_started(self) -> int:
        return self.members - self.started


def recall_by_topic(cards: Iterable[tuple[str, str, float]]) -> dict[str, dict[str, float]]:
    """(player, bank, recall now) per card → bank → player → mean recall."""
    sums: dict[str, dict[str, list[float]]] = {}
    for player, bank, recall in cards:
        total = sums.setdefault(bank, {}).setdefault(player, [0.0, 0.0])
        total[0] += recall
        total[1] += 1
    return {
        bank: {player: total / count for player, (total, count) in players.items()}
        for bank, players in sums.items()
    }


def knowledge_map(
    recalls: dict[str, dict[str, float]],
    members: Set[str],
    named: Set[str],
    viewer: str | None = None,
    floor: int = FLOOR,
) -> tuple[TopicKnowledge, ...]:
    """Each topic anyone has started, the most started first (then by id)."""
    found = []
    for bank, players in recalls.items():
        solid = sorted(p for p, r in players.items() if r >= SOLID)
        shaky = sorted(p for p, r in players.items() if r < SOLID)
        shown = len(players) >= floor
        mine = None if viewer not in players else "solid" if viewer in solid else "shaky"
        found.append(
            TopicKnowledge(
                bank, len(members | players.keys()), len(players),
                len(solid) if shown else None, len(shaky) if shown else None,
                tuple(p for p in solid if p in named or p == viewer),
                tuple(p for p in shaky if p in named or p == viewer), mine,
            )
        )  # fmt: skip
    return tuple(sorted(found, key=lambda t: (-t.started, t.bank_id)))
