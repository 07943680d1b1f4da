"""Signed, expiring dashboard links: the link itself is the key to one workspace's
pages (HMAC-SHA256 over what it grants, with the operator's secret), so the dashboard
needs no accounts and shows nothing of a workspace without its link."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass

from bot.domain.identities import ScopeRef

LIFETIME = 24 * 3600.0  # seconds a link works
# What ``token`` makes, and nothing else: the grant in lowercase hex (a few dozen bytes;
# 512 is far more than any), a dot, the 32-byte MAC in lowercase hex. No whitespace, no
# other alphabet: ``bytes.fromhex`` alone would take spaces, and a MAC that is not ASCII
# would make ``compare_digest`` raise.
_TOKEN = re.compile(r"((?:[0-9a-f]{2}){1,512})\.([0-9a-f]{64})")


@dataclass(frozen=True)
class Access:
    """What a valid link grants: one workspace's dashboard, in a language, until then."""

    scope: ScopeRef
    locale: str
    expires: float


# Tokens are hex: no character a chat platform's markup could take for styling (Slack
# reads _x_ as italics) or a URL's punctuation.
def _hex(data: bytes) -> str:
    return data.hex()


class Signer:
    def __init__(self, secret: str, base_url: str, lifetime: float = LIFETIME):
        self._key = hashlib.sha256(secret.encode()).digest()
        self.base_url = base_url.rstrip("/")
        self.lifetime = lifetime

    def _mac(self, payload: bytes) -> bytes:
        return hmac.new(self._key, payload, hashlib.sha256).digest()

    def token(self, scope: ScopeRef, locale: str, now: float) -> str:
        grant = [scope.platform, scope.workspace_id, locale, int(now + self.lifetime)]
        payload = json.dumps(grant, separators=(",", ":")).encode()
        return f"{_hex(payload)}.{_hex(self._mac(payload))}"

    def link(self, scope: ScopeRef, locale: str, now: float) -> str:
        return f"{self.base_url}/dashboard/{self.token(scope, locale, now)}/"

    def check(self, token: str, now: float) -> Access | str:
        """The access a token grants, else why not: ``forged`` or ``expired``."""
        matched = _TOKEN.fullmatch(token)
        if matched is None:
            return "forged"
        payload = bytes.fromhex(matched[1])
        if not hmac.compare_digest(bytes.fromhex(matched[2]), self._mac(payload)):
            return "forged"
        platform, workspace, locale, expires = json.loads(payload)
        if now >= expires:
            return "expired"
        return Access(ScopeRef(platform, workspace), locale, float(expires))
