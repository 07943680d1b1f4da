"""Exactly one process runs the scheduler: a PostgreSQL session advisory lock, tried by
every process on a dedicated connection, against a real server."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import psycopg

from bot.operations.leadership import SCHEDULER_LOCK, AdvisoryLock, SoleProcess
from bot.services.scheduler import Duty, Scheduler


async def test_one_connection_holds_the_lock_until_it_lets_go(postgres_url: str) -> None:
    first, second = AdvisoryLock(postgres_url), AdvisoryLock(postgres_url)
    try:
        assert await first.lead() is True
        assert await second.lead() is False
        assert await first.lead() is True  # kept, not asked for again (locks are re-entrant)
        assert await second.lead() is False
        await first.close()
        assert await second.lead() is True
        assert await first.lead() is False
    finally:
        await first.close()
        await second.close()


async def test_a_dead_leaders_lock_passes_to_another_process(postgres_url: str) -> None:
    leader, standby = AdvisoryLock(postgres_url), AdvisoryLock(postgres_url)
    try:
        assert await leader.lead() and not await standby.lead()
        # The leader's process dies: the server ends its session, and with it the lock.
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            killed = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_locks"
                " WHERE locktype = 'advisory' AND objid = %s",
                (SCHEDULER_LOCK,),
            ).fetchall()
        assert killed == [(True,)]
        # The signal is sent; the backend exits (and frees the lock) a moment later: the
        # standby takes it at one of its next tries, as a process does at its next tick.
        took = False
        for _ in range(40):
            if took := await standby.lead():
                break
            await asyncio.sleep(0.05)
        assert took is True
        assert await leader.lead() is False  # it notices, and does not lead any more
    finally:
        await leader.close()
        await standby.close()


async def until(done: Callable[[], bool], timeout: float = 20) -> None:
    async with asyncio.timeout(timeout):
        while not done():
            await asyncio.sleep(0.02)


async def test_two_schedulers_on_one_database_run_each_duty_once(postgres_url: str) -> None:
    ran: list[str] = []

    def scheduler(name: str) -> Scheduler:
        async def due() -> list[str]:
            return [name]

        async def do(item: str) -> bool:
            ran.append(item)
            return True

        return Scheduler([Duty("the test duty", due, do)])

    first = asyncio.create_task(scheduler("a").serve(0.02, AdvisoryLock(postgres_url)))
    await until(lambda: bool(ran))  # "a" leads before "b" starts (however slow its connect)
    second = asyncio.create_task(scheduler("b").serve(0.02, AdvisoryLock(postgres_url)))
    await asyncio.sleep(0.3)
    assert set(ran) == {"a"}
    first.cancel()  # the leader stops; its connection closes
    await asyncio.gather(first, return_exceptions=True)
    ran.clear()
    await until(lambda: bool(ran))  # "b" takes over at one of its next ticks
    second.cancel()
    await asyncio.gather(second, return_exceptions=True)
    assert ran and set(ran) == {"b"}


async def test_with_sqlite_the_only_process_leads() -> None:
    assert await SoleProcess().lead() is True
