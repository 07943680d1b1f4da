"""A workspace's own banks, kept as their bank source text (the content layer parses it),
and the questions its members propose for them. Both live in the database, so every
process of a shared store sees an upload at once."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from bot.persistence.database import Database
from bot.persistence.dialect import Connection

# What identifies a workspace's banks as they are now: (bank id, revision, updated at)
# for each; a process compares it with what it parsed last to know whether to parse again.
Fingerprint = tuple[tuple[str, int, float], ...]


@dataclass(frozen=True)
class StoredBank:
    bank_id: str
    source: str
    revision: int
    updated_by: str
    updated_at: float


@dataclass(frozen=True)
class Proposal:
    id: int
    platform: str
    workspace_id: str
    bank_id: str
    author_id: str
    question: dict[str, Any]  # the question as a bank file writes it
    status: str  # pending, approved or rejected
    created_at: float


# How a decision went: made; decided by someone else already; or not made because the
# bank changed after its merged text was made (merge again and retry).
Decision = Literal["made", "decided", "changed"]


@dataclass(frozen=True)
class Proposed:
    number: int | None  # the new proposal's, None when a cap refused it
    full: Literal["member", "workspace"] | None = None  # which cap


_PROPOSAL = (
    "SELECT proposal_id, platform, workspace_id, bank_id, author_id, question, status,"
    " created_at FROM proposals"
)


def _proposal(row: Any) -> Proposal:
    pid, platform, workspace, bank_id, author, question, status, created = row
    return Proposal(
        pid, platform, workspace, bank_id, author, json.loads(question), status, created
    )


def _save(db: Connection, key: tuple[str, str, str], source: str, by: str, at: float) -> int:
    row = db.execute(
        "INSERT INTO workspace_banks VALUES (?, ?, ?, ?, 1, ?, ?)"
        " ON CONFLICT (platform, workspace_id, bank_id) DO UPDATE SET"
        " source = excluded.source, revision = workspace_banks.revision + 1,"
        " updated_by = excluded.updated_by, updated_at = excluded.updated_at"
        " RETURNING revision",
        (*key, source, by, at),
    ).fetchone()
    return int(row[0])


class WorkspaceBankRepository:
    def __init__(self, database: Database):
        self._database = database

    async def fingerprint(self, platform: str, workspace_id: str) -> Fingerprint:
        rows = await self._database.read(
            "SELECT bank_id, revision, updated_at FROM workspace_banks"
            " WHERE platform = ? AND workspace_id = ? ORDER BY bank_id",
            (platform, workspace_id),
        )
        return tuple((bank_id, int(rev), float(at)) for bank_id, rev, at in rows)

    async def banks(self, platform: str, workspace_id: str) -> list[StoredBank]:
        rows = await self._database.read(
            "SELECT bank_id, source, revision, updated_by, updated_at FROM workspace_banks"
            " WHERE platform = ? AND workspace_id = ? ORDER BY bank_id",
            (platform, workspace_id),
        )
        return [StoredBank(b, s, int(r), u, float(a)) for b, s, r, u, a in rows]

    async def bank(self, platform: str, workspace_id: str, bank_id: str) -> StoredBank | None:
        rows = await self._database.read(
            "SELECT bank_id, source, revision, updated_by, updated_at FROM workspace_banks"
            " WHERE platform = ? AND workspace_id = ? AND bank_id = ?",
            (platform, workspace_id, bank_id),
        )
        return next((StoredBank(b, s, int(r), u, float(a)) for b, s, r, u, a in rows), None)

    async def sizes(self, platform: str, workspace_id: str) -> dict[str, int]:
        """Each bank's id and the characters of its text, without reading the texts."""
        rows = await self._database.read(
            "SELECT bank_id, LENGTH(source) FROM workspace_banks"
            " WHERE platform = ? AND workspace_id = ?",
            (platform, workspace_id),
        )
        return {bank_id: int(size) for bank_id, size in rows}

    async def save(
        self, platform: str, workspace_id: str, bank_id: str, source: str, by: str, at: float
    ) -> int:
        """Store (or replace) a bank; returns its new revision."""
        key = (platform, workspace_id, bank_id)
        return await self._database.write(lambda db: _save(db, key, source, by, at))

    async def remove(self, platform: str, workspace_id: str, bank_id: str) -> bool:
        """Forget a bank (the answers already given to it stay on the leaderboards)."""

        def work(db: Connection) -> bool:
            gone = db.execute(
                "DELETE FROM workspace_banks WHERE platform = ? AND workspace_id = ?"
                " AND bank_id = ?",
                (platform, workspace_id, bank_id),
            )
            return gone.rowcount > 0

        return await self._database.write(work)

    async def propose(
        self,
        platform: str,
        workspace_id: str,
        bank_id: str,
        author_id: str,
        question: dict[str, Any],
        at: float,
        caps: tuple[int, int],
    ) -> Proposed:
        """Store a pending proposal unless its author, or the workspace, has ``caps``
        (per member, per workspace) pending already: counted in the same transaction."""
        per_member, per_workspace = caps

        def work(db: Connection) -> Proposed:
            mine, everyone = db.execute(
                "SELECT COALESCE(SUM(CASE WHEN author_id = ? THEN 1 ELSE 0 END), 0), COUNT(*)"
                " FROM proposals WHERE platform = ? AND workspace_id = ? AND status = 'pending'",
                (author_id, platform, workspace_id),
            ).fetchone()
            if int(mine) >= per_member:
                return Proposed(None, "member")
            if int(everyone) >= per_workspace:
                return Proposed(None, "workspace")
            row = db.execute(
                "INSERT INTO proposals (platform, workspace_id, bank_id, author_id, question,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING proposal_id",
                (platform, workspace_id, bank_id, author_id, json.dumps(question), at),
            ).fetchone()
            return Proposed(int(row[0]))

        return await self._database.write(work)

    async def pending(self, platform: str, workspace_id: str) -> list[Proposal]:
        rows = await self._database.read(
            f"{_PROPOSAL} WHERE platform = ? AND workspace_id = ? AND status = 'pending'"
            " ORDER BY proposal_id",
            (platform, workspace_id),
        )
        return [_proposal(row) for row in rows]

    async def proposal(self, proposal_id: int) -> Proposal | None:
        rows = await self._database.read(f"{_PROPOSAL} WHERE proposal_id = ?", (proposal_id,))
        return _proposal(rows[0]) if rows else None

    async def decide(
        self,
        proposal: Proposal,
        approve: bool,
        by: str,
        at: float,
        merged: tuple[str, int | None] | None = None,
    ) -> Decision:
        """Approve or reject a pending proposal, once (compare-and-set on its status).
        An approval gives ``merged``: the bank's text with the question in it and the
        revision of the bank it was made from (None: no bank yet), written in the same
        transaction only if the bank is still at that revision."""
        key = (proposal.platform, proposal.workspace_id, proposal.bank_id)

        def work(db: Connection) -> Decision:
            if merged is not None:
                base = merged[1]
                row = db.execute(
                    "SELECT revision FROM workspace_banks WHERE platform = ? AND workspace_id = ?"
                    " AND bank_id = ?",
                    key,
                ).fetchone()
                if (int(row[0]) if row else None) != base:
                    return "changed"
            decided = db.execute(
                "UPDATE proposals SET status = ?, decided_by = ?, decided_at = ?"
                " WHERE proposal_id = ? AND status = 'pending'",
                ("approved" if approve else "rejected", by, at, proposal.id),
            )
            if decided.rowcount != 1:
                return "decided"
            if merged is not None:
                _save(db, key, merged[0], by, at)
            return "made"

        return await self._database.write(work)
