"""Platform adapters: translate Discord, Slack and terminal events into engine calls."""
