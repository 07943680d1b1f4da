"""The ``quizbot`` command line: one module per group of commands (``player``, ``run``,
``banks``, ``db``, …), the parser made of them in ``commands``; ``main`` is the console
script."""

from .commands import parser
from .main import main
from .workers import SETUP_FAILED

__all__ = ["SETUP_FAILED", "main", "parser"]
