"""The contract every chat platform adapter keeps, so the command line runs any of them
the same way."""

from __future__ import annotations

from typing import Protocol

from bot.services.engine import Engine


class Platform(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def configured(self) -> bool:
        """Whether its tokens are set (its settings' problems come with the settings)."""
        ...

    async def serve(self, engine: Engine) -> None:
        """Run until cancelled: connect, register its channel publisher with the engine,
        answer every request. Raises SetupError with one line for the operator."""
        ...
