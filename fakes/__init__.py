"""What the bot talks to, stood up on 127.0.0.1 for the tests and the benchmarks: a fake
Discord and a fake Slack that the real client libraries run against, a throwaway
PostgreSQL server, and free ports. Not shipped: setup.py packages only bot and adapters."""
