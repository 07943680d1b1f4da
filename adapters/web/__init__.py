"""The dashboard: read-only pages in the browser, served by the bot itself (aiohttp),
opened by a signed, expiring link. Charts are SVG drawn on the server: no JavaScript,
nothing loaded from elsewhere."""
