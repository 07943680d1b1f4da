"""A workspace's own banks and proposals in the store, on SQLite and on PostgreSQL:
revisions, removal, one workspace never reading another's, a proposal decided once."""

from __future__ import annotations

import asyncio

import pytest

from bot.persistence import Proposal, Store


@pytest.fixture
def store(store_on_each_backend: Store) -> Store:
    return store_on_each_backend


async def test_a_bank_is_saved_revised_listed_and_removed_per_workspace(store: Store) -> None:
    banks = store.workspace_banks
    assert await banks.save("slack", "T1", "team", "id: team\n", "UADMIN", 100.0) == 1
    assert await banks.save("slack", "T1", "team", "id: team  # v2\n", "UADMIN", 200.0) == 2
    assert await banks.save("slack", "T2", "team", "id: team  # theirs\n", "UOTHER", 150.0) == 1
    mine = await banks.banks("slack", "T1")
    assert [(b.bank_id, b.source, b.revision, b.updated_by) for b in mine] == [
        ("team", "id: team  # v2\n", 2, "UADMIN")
    ]
    assert await banks.fingerprint("slack", "T1") == (("team", 2, 200.0),)
    assert await banks.fingerprint("discord", "T1") == ()  # another platform's workspace
    assert await banks.remove("slack", "T1", "team") is True
    assert await banks.remove("slack", "T1", "team") is False
    assert await banks.banks("slack", "T1") == []
    assert [b.source for b in await banks.banks("slack", "T2")] == ["id: team  # theirs\n"]


async def test_a_proposal_is_decided_once_and_an_approval_writes_the_bank(store: Store) -> None:
    banks = store.workspace_banks
    question = {"id": "q1", "prompt": {"en": "Which?"}}
    first = await banks.propose("slack", "T1", "team", "U1", question, 10.0)
    second = await banks.propose("slack", "T1", "team", "U2", {"id": "q2"}, 11.0)
    await banks.propose("slack", "T2", "team", "U3", {"id": "q3"}, 12.0)
    pending = await banks.pending("slack", "T1")
    assert [(p.id, p.author_id, p.question, p.status) for p in pending] == [
        (first, "U1", question, "pending"),
        (second, "U2", {"id": "q2"}, "pending"),
    ]
    proposal = await banks.proposal(first)
    assert proposal is not None

    def merged(source: str | None, p: Proposal) -> str:
        return (source or "questions:\n") + f"- {p.question['id']}\n"

    decisions = await asyncio.gather(  # two admins click Approve at once
        banks.decide(proposal, True, "UADMIN", 20.0, merged),
        banks.decide(proposal, True, "UBOSS", 20.5, merged),
    )
    assert sorted(decisions) == [False, True]
    assert [b.source for b in await banks.banks("slack", "T1")] == ["questions:\n- q1\n"]
    other = await banks.proposal(second)
    assert other is not None
    assert await banks.decide(other, False, "UADMIN", 21.0, merged) is True
    assert [b.source for b in await banks.banks("slack", "T1")] == ["questions:\n- q1\n"]
    assert await banks.pending("slack", "T1") == []
    assert [p.question for p in await banks.pending("slack", "T2")] == [{"id": "q3"}]
    decided = await banks.proposal(first)
    assert decided is not None and decided.status == "approved"
