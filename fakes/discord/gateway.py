"""The fake Discord's gateway: the websocket a bot identifies or resumes its session on,
its heartbeats, and events sent on the connection of the shard they belong to. After
READY it sends the server (GUILD_CREATE) with its roles, as Discord does for the guilds
intent."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

import aiohttp
from aiohttp import web

from ..serving import LocalServer
from . import payloads
from .world import GUILD_ID, shard_of

HEARTBEAT_ACK_DELAY = 0.05  # seconds


class Gateway(LocalServer):
    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token
        self.identifies = 0
        self.resumes = 0
        self.connected = asyncio.Event()
        self.shards_identified: list[int] = []
        self.undelivered: list[str] = []  # events for a shard no bot runs
        self._sessions: set[str] = set()
        self._seq = 0
        self._sockets: set[web.WebSocketResponse] = set()
        # Each connection's shard (id, count), and each session's, so a resume keeps it.
        self._shard_of: dict[web.WebSocketResponse, tuple[int, int]] = {}
        self._session_shard: dict[str, tuple[int, int]] = {}

    @property
    def gateway_url(self) -> str:
        return self.ws_url + "/gateway"

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        await super().stop()

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type is not aiohttp.WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                if data["op"] == 1:  # heartbeat
                    # Not instantly: discord.py notes the send time in its keep-alive thread
                    # only after the send completes, and an ack that beats it reads as a
                    # heartbeat interval of lag ("Can't keep up" warnings).
                    await asyncio.sleep(HEARTBEAT_ACK_DELAY)
                    await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
                elif data["op"] == 2:  # identify
                    if not await self._identify(ws, data["d"]):
                        break
                elif data["op"] == 6:  # resume
                    await self._resume(ws, data["d"])
        finally:
            self._sockets.discard(ws)
            if not self._sockets:
                self.connected.clear()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, identify: dict[str, Any]) -> bool:
        """A new session, on the shard the bot names; False when its token is wrong."""
        if identify.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return False
        self.identifies += 1
        shard_id, count = identify.get("shard") or (0, 1)
        self.shards_identified.append(shard_id)
        self._shard_of[ws] = (shard_id, count)
        self._sockets.add(ws)
        session = secrets.token_hex(16)
        self._sessions.add(session)
        self._session_shard[session] = (shard_id, count)
        await self._send(ws, "READY", payloads.ready(session, (shard_id, count), self.gateway_url))
        if shard_of(GUILD_ID, count) == shard_id:
            await self._send(ws, "GUILD_CREATE", payloads.guild())
        self.connected.set()
        return True

    async def _resume(self, ws: web.WebSocketResponse, resume: dict[str, Any]) -> None:
        """A session of ours goes on; any other must start anew (op 9)."""
        if resume.get("token") != self.token or resume.get("session_id") not in self._sessions:
            await ws.send_json({"op": 9, "d": False, "s": None, "t": None})
            return
        self.resumes += 1
        self._shard_of[ws] = self._session_shard[resume["session_id"]]
        self._sockets.add(ws)
        await self._send(ws, "RESUMED", {})
        self.connected.set()

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close every gateway connection, as Discord does on an error (4000) or a
        restart (1001); the client resumes its session."""
        for ws in list(self._sockets):
            self._sockets.discard(ws)
            await ws.close(code=code, message=b"fake outage")
        self.connected.clear()

    async def send_op(self, op: int, d: Any = None) -> None:
        """Send op 7 RECONNECT or op 9 INVALID SESSION (``d``: resumable) to every bot;
        the connection counts as gone until the bot resumes or identifies again."""
        sockets = list(self._sockets)
        self._sockets.clear()
        self.connected.clear()
        for ws in sockets:
            await ws.send_json({"op": op, "d": d, "s": None, "t": None})

    async def _send(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        self._seq += 1
        await ws.send_json({"op": 0, "t": event, "s": self._seq, "d": data})

    async def dispatch(self, event: str, data: Any) -> None:
        """Send an event on the connection of the shard it belongs to, as Discord does:
        a server's events by (server id >> 22) % shard count, direct messages on shard 0."""
        if not self._sockets:
            raise RuntimeError("no bot is connected to the fake gateway")
        guild = data.get("guild_id") if isinstance(data, dict) else None
        targets = [
            ws
            for ws in list(self._sockets)
            if self._shard_of.get(ws, (0, 1))[0]
            == (shard_of(guild, self._shard_of.get(ws, (0, 1))[1]) if guild else 0)
        ]
        if not targets:
            self.undelivered.append(event)
        for ws in targets:
            await self._send(ws, event, data)
