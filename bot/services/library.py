"""Which banks a workspace plays: the shipped catalog plus the workspace's own banks,
stored in the database as bank text and parsed here.

Each workspace's parsed catalog is cached. With a store of its own (SQLite) this process
is the only writer, so its own writes invalidate the cache and it cannot go stale. With a
shared store (PostgreSQL) another process may upload or remove a bank: the cache is
trusted for ``recheck`` seconds, then the banks' fingerprint (ids and revisions, one
small read) is compared; a topic the cache does not know is always checked at once, so a
bank uploaded through another worker plays on the next click.

A workspace's banks of more than a few kB are parsed off the event loop (``Offload``),
once however many clicks are waiting for them."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from cachetools import LRUCache

from bot.content.banks import Bank, Catalog
from bot.content.workspace import parsed
from bot.domain.identities import ScopeRef
from bot.operations.offload import Offload, Refused
from bot.persistence.workspace_banks import Fingerprint, WorkspaceBankRepository

log = logging.getLogger(__name__)

RECHECK_SECONDS = 1.0
WORKSPACES_CACHED = 1024


@dataclass(frozen=True)
class _Parsed:
    fingerprint: Fingerprint
    shipped: Catalog  # the shipped catalog it was built on (SIGHUP replaces that one)
    catalog: Catalog
    checked_at: float


class Library:
    def __init__(
        self,
        shipped: Catalog,
        banks: WorkspaceBankRepository,
        *,
        shared: bool,
        offload: Offload,
        recheck: float = RECHECK_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.shipped = shipped
        self._banks = banks
        self._offload = offload
        # Parses under way, so that clicks arriving together wait for one.
        self._loading: dict[tuple[str, str, Fingerprint], asyncio.Task[list[Bank] | None]] = {}
        self._checking: dict[tuple[str, str], asyncio.Future[Fingerprint]] = {}
        self._shared = shared
        self._recheck = recheck
        self._clock = clock
        self._cache: LRUCache[tuple[str, str], _Parsed] = LRUCache(WORKSPACES_CACHED)

    def replace_shipped(self, catalog: Catalog) -> None:
        self.shipped = catalog

    def forget(self, platform: str, workspace_id: str) -> None:
        """This process changed the workspace's banks."""
        self._cache.pop((platform, workspace_id), None)

    async def saved(
        self, platform: str, workspace_id: str, bank: Bank, revision: int, at: float
    ) -> None:
        """This process stored ``bank`` (parsed already) as ``revision`` at ``at``: the
        cached catalog takes it as is, rather than parsing every bank again on the next
        click, when the store's fingerprint shows that nothing else changed meanwhile."""
        key = (platform, workspace_id)
        cached = self._cache.pop(key, None)
        if cached is None or cached.shipped is not self.shipped:
            return
        expected = tuple(
            sorted((*(f for f in cached.fingerprint if f[0] != bank.id), (bank.id, revision, at)))
        )
        if await self._banks.fingerprint(platform, workspace_id) != expected:
            return  # another process changed a bank too: parse them all on the next click
        shipped = {id(b) for b in cached.shipped.banks}
        own = [b for b in cached.catalog.banks if id(b) not in shipped and b.id != bank.id]
        catalog = Catalog((*cached.shipped.banks, *sorted((*own, bank), key=lambda b: b.id)))
        self._cache[key] = _Parsed(expected, cached.shipped, catalog, self._clock())

    async def of(self, scope: ScopeRef, wanted: str = "") -> Catalog:
        return await self.catalog(scope.platform, scope.workspace_id, wanted)

    async def catalog(self, platform: str, workspace_id: str, wanted: str = "") -> Catalog:
        """The workspace's catalog; ``wanted``: a bank id the caller needs (a run's or a
        post's), which, when missing from the cache, sends it to the store at once."""
        key, now = (platform, workspace_id), self._clock()
        cached = self._cache.get(key)
        if cached is not None and cached.shipped is not self.shipped:
            cached = None  # built on banks SIGHUP has replaced
        missing = bool(wanted) and (cached is None or cached.catalog.get(wanted) is None)
        fresh = cached is not None and (not self._shared or now - cached.checked_at < self._recheck)
        if fresh and not missing:
            assert cached is not None
            return cached.catalog
        if missing:
            # A bank the caller needs is not cached: a read that starts now.
            fingerprint = await self._banks.fingerprint(platform, workspace_id)
        else:
            # Stale or not cached yet: callers arriving together (clicks at a few hundred
            # a second, a restart under load) share one read of the fingerprint.
            fingerprint = await self._shared_fingerprint(key)
        if cached is not None and cached.fingerprint == fingerprint:
            self._cache[key] = replace(cached, checked_at=now)
            return cached.catalog
        shipped = self.shipped
        loaded = await self._load(platform, workspace_id, fingerprint) if fingerprint else []
        taken = {name for bank in shipped.banks for name in (bank.id, *bank.aliases)}
        own = tuple(b for b in loaded or () if b.id not in taken)
        # No banks of its own: the shipped catalog itself, whose name index is built once.
        catalog = Catalog((*shipped.banks, *own)) if own else shipped
        if loaded is not None:  # else tried again on the next click
            self._cache[key] = _Parsed(fingerprint, shipped, catalog, now)
        return catalog

    async def _shared_fingerprint(self, key: tuple[str, str]) -> Fingerprint:
        """The workspace's fingerprint, read once for every caller that asks while the
        read is under way (at 600 clicks/s each would otherwise send its own)."""
        task = self._checking.get(key)
        if task is None:
            task = asyncio.ensure_future(self._banks.fingerprint(*key))
            self._checking[key] = task
            task.add_done_callback(lambda _: self._checking.pop(key, None))
        # One caller cancelled (its request timed out) must not cancel the others' read.
        return await asyncio.shield(task)

    async def own_banks(self, platform: str, workspace_id: str) -> list[Bank]:
        """The workspace's own banks only (for ``/quiz bank list``)."""
        catalog = await self.catalog(platform, workspace_id)
        shipped = {id(bank) for bank in self.shipped.banks}
        return [bank for bank in catalog.banks if id(bank) not in shipped]

    async def _load(
        self, platform: str, workspace_id: str, fingerprint: Fingerprint
    ) -> list[Bank] | None:
        key = (platform, workspace_id, fingerprint)
        task = self._loading.get(key)
        if task is None:
            task = asyncio.ensure_future(self._parsed_banks(platform, workspace_id))
            self._loading[key] = task
            task.add_done_callback(lambda _: self._loading.pop(key, None))
        return await asyncio.shield(task)

    async def _parsed_banks(self, platform: str, workspace_id: str) -> list[Bank] | None:
        """The workspace's banks that load; None when they could not be parsed now."""
        sources = [(s.bank_id, s.source) for s in await self._banks.banks(platform, workspace_id)]
        size = sum(len(text) for _, text in sources)
        try:
            results = await self._offload.run_sized(size, parsed, sources)
        except Refused as refused:
            log.warning("workspace %s's banks not parsed (%s)", workspace_id, refused.reason)
            return None
        banks = []
        for (bank_id, _), (bank, errors) in zip(sources, results, strict=True):
            if bank is None:  # checked at upload; a newer quizbot may be stricter
                log.warning(
                    "workspace %s's bank %s no longer loads: %s",
                    workspace_id,
                    bank_id,
                    "; ".join(str(e) for e in errors[:3]),
                )
                continue
            banks.append(bank)
        return banks
