"""Discord's error answers: an HTTP status with Discord's JSON error code and message."""

from __future__ import annotations

from aiohttp import web

from ..serving import json_response


def error(status: int, code: int, message: str) -> web.Response:
    return json_response({"code": code, "message": message}, status)


def invalid_form(problems: list[str]) -> web.Response:
    """What Discord answers to a payload that breaks its limits."""
    return json_response({"code": 50035, "message": "Invalid Form Body", "errors": problems}, 400)


def rate_limited(retry_after: float) -> web.Response:
    headers = {
        "Retry-After": str(retry_after),
        "Via": "1.1 google",  # discord.py tells a Cloudflare ban by its absence
        "X-RateLimit-Scope": "user",
    }
    body = {"message": "You are being rate limited.", "retry_after": retry_after}
    return json_response({**body, "global": False}, 429, headers)
