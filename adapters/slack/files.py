"""Downloading a file a member chose in a modal: its ``url_private_download`` with the
bot token (the ``files:read`` scope). The token goes only to Slack's file host or to the
Web API's own host (a proxy or a test fake at SLACK_API_URL), never to a URL a payload
names elsewhere."""

from __future__ import annotations

from urllib.parse import urlsplit

import aiohttp

SLACK_FILES = "https://files.slack.com"


class DownloadError(Exception):
    """The file could not be read; the message says why, for the member."""


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def trusted(url: str, api_url: str) -> bool:
    return _origin(url) in (SLACK_FILES, _origin(api_url))


async def download(
    session: aiohttp.ClientSession, url: str, token: str, api_url: str, limit: int
) -> bytes:
    """The file's bytes, at most ``limit`` + 1 of them (so a larger file is told apart
    without reading all of it)."""
    if not trusted(url, api_url):
        raise DownloadError("not a Slack file address")
    try:
        # No redirects: Slack sends a request without files:read to its login page, and
        # the token must not follow a redirect anywhere.
        async with session.get(
            url, headers={"Authorization": f"Bearer {token}"}, allow_redirects=False
        ) as response:
            if response.status != 200 or response.content_type == "text/html":
                raise DownloadError(f"HTTP {response.status}, {response.content_type}")
            data = bytearray()
            async for chunk in response.content.iter_chunked(64 * 1024):
                data += chunk
                if len(data) > limit:
                    break
            return bytes(data[: limit + 1])
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise DownloadError(type(exc).__name__) from None
