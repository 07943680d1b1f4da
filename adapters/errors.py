"""Errors the adapters raise at start-up, shown to the operator as one line."""


class SetupError(Exception):
    """A setting is missing or wrong, or the platform refused it: the message says which
    and where to fix it, never a secret."""
