"""Slack's request signing, as an app verifies it."""

from __future__ import annotations

import hashlib
import hmac
import time

FORM = "application/x-www-form-urlencoded"


def sign(secret: str, timestamp: str, body: str | bytes) -> str:
    """Slack's request signature: v0= + HMAC-SHA256(secret, "v0:{timestamp}:{body}")."""
    raw = body if isinstance(body, bytes) else body.encode()
    base = f"v0:{timestamp}:".encode() + raw
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


def signed_headers(
    secret: str, body: str | bytes, content_type: str = FORM, timestamp: str | None = None
) -> dict[str, str]:
    """The headers Slack sends with ``body``, signed at ``timestamp`` (now by default)."""
    ts = str(int(time.time())) if timestamp is None else timestamp
    return {
        "Content-Type": content_type,
        "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": sign(secret, ts, body),
    }
