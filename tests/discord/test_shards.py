"""Sharding: one process runs a range of the shard space; Discord delivers each server's
events on its shard and direct messages on shard 0."""

from __future__ import annotations

from bot.content.banks import Catalog
from bot.persistence import Store
from bot.services.engine import Engine
from fakes.discord import FakeDiscord

from ..support.cli import run_quizbot
from .support import running_bot


async def test_two_shards_in_one_process_serve_a_server_and_direct_messages(
    fake: FakeDiscord, engine: Engine
) -> None:
    async with running_bot(fake, engine, shard_count=2):
        assert sorted(fake.shards_identified) == [0, 1]
        in_server = await fake.slash("quiz", topic="tiny")  # the server is on shard 1
        assert "Question 1 of 2 · Tiny test bank" in in_server.text()
        in_dm = await fake.slash("quiz-topics", guild=False)  # direct messages: shard 0
        assert "Quiz topics" in in_dm.text()
    assert fake.undelivered == []


async def test_a_process_runs_only_its_own_range(fake: FakeDiscord, engine: Engine) -> None:
    async with running_bot(fake, engine, shards=(1, 1), shard_count=2):
        assert fake.shards_identified == [1]
        outcome = await fake.slash("quiz", topic="tiny")
        assert "Question 1 of 2 · Tiny test bank" in outcome.text()
        await fake.dispatch("TYPING_START", {"channel_id": "1"})  # no server: shard 0's
    assert fake.undelivered == ["TYPING_START"]  # another process runs shard 0


def test_a_shard_range_needs_the_shard_count_and_must_fit_in_it() -> None:
    env = {"DISCORD_TOKEN": "x" * 59 + ".a"}
    alone = run_quizbot("run", "discord", "--shards", "0-1", env=env)
    assert alone.returncode == 2
    assert "--shards needs --shard-count N: the shard space the range is part of" in alone.stderr
    outside = run_quizbot("run", "discord", "--shards", "2-4", "--shard-count", "4", env=env)
    assert outside.returncode == 2
    assert "--shards 2-4 must lie within 0-3 (--shard-count 4)" in outside.stderr
    garbled = run_quizbot("run", "discord", "--shards", "a-b", env=env)
    assert garbled.returncode == 2 and "is not a shard range such as 0-3" in garbled.stderr


async def test_two_processes_cover_the_shards_and_a_click_after_a_reshard_finds_its_quiz(
    fake: FakeDiscord, catalog: Catalog, postgres_url: str
) -> None:
    """Shard 0 in one process and shard 1 in another, on one PostgreSQL database; then one
    process takes over every shard (a reshard) and serves the clicks on quizzes the other
    process started."""
    first, second = [Engine(catalog, await Store.open(postgres_url)) for _ in range(2)]
    try:
        async with (
            running_bot(fake, first, shards=(0, 0), shard_count=2),
            running_bot(fake, second, shards=(1, 1), shard_count=2),
        ):
            assert sorted(fake.shards_identified) == [0, 1]
            started = await fake.slash("quiz", topic="tiny")  # the server is on shard 1
            assert "Question 1 of 2 · Tiny test bank" in started.text()
            in_dm = await fake.slash("quiz-topics", guild=False)  # shard 0, the other process
            assert "Quiz topics" in in_dm.text()
        async with running_bot(fake, first, shard_count=2):  # every shard in one process now
            assert started.message is not None
            button = started.buttons[0]["custom_id"]
            clicked = await fake.click(started.message["id"], button)
            assert clicked.callback_type == 7  # the quiz's own message, edited in place
            assert "Question 1 of 2" in clicked.text()
            assert ("Right!" in clicked.text()) or ("Not quite." in clicked.text())
    finally:
        await first.store.close()
        await second.store.close()
    assert fake.undelivered == []
