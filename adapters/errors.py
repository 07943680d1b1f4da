"""Errors the adapters raise at start-up, shown to the operator as one line."""


class SetupError(Exception):
    """A setting is missing or wrong, or the platform refused it: the message says which
    and where to fix it, never a secret. ``exit_code`` 2 is for a setup that cannot run at
    all (no banks), 1 for a refusal."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code
