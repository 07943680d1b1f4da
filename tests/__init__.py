"""The test suite. Imported before any test module or the code they test, so the bytecode
cache below applies to them all."""

import os
import sys
import tempfile
from pathlib import Path


def _compile_each_module_once() -> None:
    """A run starts two workers and dozens of ``quizbot`` processes: where the environment
    says not to write bytecode (PYTHONDONTWRITEBYTECODE) each would compile every module
    again. They share one cache instead, outside the repository."""
    cache = Path(tempfile.gettempdir()) / f"quizbot-pycache-{os.getuid()}"
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(cache))
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
    sys.dont_write_bytecode = False


_compile_each_module_once()
