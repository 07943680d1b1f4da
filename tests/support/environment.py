"""The repository's paths, the quizbot command as a separate process, immutable files."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


REPO = Path(__file__).resolve().parents[2]


def run_quizbot(
    *args: str, stdin: str = "", env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The ``quizbot`` command as a user runs it: a separate process."""
    return subprocess.run(
        [sys.executable, "-m", "adapters.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
        check=False,
    )


def make_immutable(paths: list[Path], *files: Path) -> None:
    """chattr +i, even root cannot write them; skips where the filesystem cannot."""
    for path in files:
        if subprocess.run(["chattr", "+i", str(path)], check=False).returncode != 0:
            pytest.skip("this filesystem cannot make files immutable")
        paths.append(path)
