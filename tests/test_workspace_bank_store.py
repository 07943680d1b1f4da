"""A workspace's own banks and proposals in the store, on SQLite and on PostgreSQL:
revisions, removal, one workspace never reading another's, a proposal decided once."""

from __future__ import annotations

import asyncio

import pytest

from bot.persistence import Store


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


CAPS = (10, 200)


async def test_a_proposal_is_decided_once_and_an_approval_writes_the_bank(store: Store) -> None:
    banks = store.workspace_banks
    question = {"id": "q1", "prompt": {"en": "Which?"}}
    first = (await banks.propose("slack", "T1", "team", "U1", question, 10.0, CAPS)).number
    second = (await banks.propose("slack", "T1", "team", "U2", {"id": "q2"}, 11.0, CAPS)).number
    await banks.propose("slack", "T2", "team", "U3", {"id": "q3"}, 12.0, CAPS)
    pending = await banks.pending("slack", "T1")
    assert [(p.id, p.author_id, p.question, p.status) for p in pending] == [
        (first, "U1", question, "pending"),
        (second, "U2", {"id": "q2"}, "pending"),
    ]
    proposal = await banks.proposal(first or 0)
    assert proposal is not None
    merged = ("questions:\n- q1\n", None)  # made when the bank did not exist yet

    decisions = await asyncio.gather(  # two admins click Approve at once
        banks.decide(proposal, True, "UADMIN", 20.0, merged),
        banks.decide(proposal, True, "UBOSS", 20.5, merged),
    )
    # The second finds the bank changed (or the proposal decided): never written twice.
    assert sorted(decisions) in (["changed", "made"], ["decided", "made"])
    assert [b.source for b in await banks.banks("slack", "T1")] == ["questions:\n- q1\n"]
    other = await banks.proposal(second or 0)
    assert other is not None
    assert await banks.decide(other, False, "UADMIN", 21.0) == "made"
    assert await banks.decide(other, False, "UADMIN", 21.0) == "decided"
    assert [b.source for b in await banks.banks("slack", "T1")] == ["questions:\n- q1\n"]
    assert await banks.pending("slack", "T1") == []
    assert [p.question for p in await banks.pending("slack", "T2")] == [{"id": "q3"}]
    decided = await banks.proposal(first or 0)
    assert decided is not None and decided.status == "approved"


async def test_an_approval_merged_from_an_older_revision_writes_nothing(store: Store) -> None:
    banks = store.workspace_banks
    await banks.save("slack", "T1", "team", "v1\n", "UADMIN", 1.0)
    number = (await banks.propose("slack", "T1", "team", "U1", {"id": "q"}, 2.0, CAPS)).number
    proposal = await banks.proposal(number or 0)
    assert proposal is not None
    await banks.save("slack", "T1", "team", "v2\n", "UADMIN", 3.0)  # an upload meanwhile
    assert await banks.decide(proposal, True, "UADMIN", 4.0, ("v1 + q\n", 1)) == "changed"
    assert [(b.source, b.revision) for b in await banks.banks("slack", "T1")] == [("v2\n", 2)]
    assert (await banks.proposal(proposal.id)) == proposal  # still pending
    assert await banks.decide(proposal, True, "UADMIN", 5.0, ("v2 + q\n", 2)) == "made"
    assert [b.source for b in await banks.banks("slack", "T1")] == ["v2 + q\n"]


async def test_pending_proposals_are_capped_per_member_and_per_workspace(store: Store) -> None:
    banks = store.workspace_banks
    caps = (2, 3)
    results = [
        await banks.propose("slack", "T1", "team", author, {"id": "q"}, 1.0, caps)
        for author in ("U1", "U1", "U1", "U2", "U3")
    ]
    assert [(r.number is not None, r.full) for r in results] == [
        (True, None),
        (True, None),
        (False, "member"),
        (True, None),
        (False, "workspace"),
    ]
    # Another workspace has its own count; a decided proposal no longer counts.
    assert (await banks.propose("slack", "T2", "team", "U1", {"id": "q"}, 1.0, caps)).full is None
    first = await banks.proposal(results[0].number or 0)
    assert first is not None and await banks.decide(first, False, "UADMIN", 2.0) == "made"
    assert (await banks.propose("slack", "T1", "team", "U1", {"id": "q"}, 3.0, caps)).full is None
    assert await banks.sizes("slack", "T1") == {}
