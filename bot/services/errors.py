"""The failure any service call may raise, for the adapters to catch by name: the store's
own error type, so a database that is down reads the same wherever it surfaces, without a
platform adapter importing the persistence layer (an import-linter contract forbids it)."""

from __future__ import annotations

from bot.persistence import StoreError

__all__ = ["StoreError"]
