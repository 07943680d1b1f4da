"""The repository's paths, and files made immutable for a test."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


REPO = Path(__file__).resolve().parents[2]


def make_immutable(paths: list[Path], *files: Path) -> None:
    """chattr +i, even root cannot write them; skips where the filesystem cannot."""
    for path in files:
        if subprocess.run(["chattr", "+i", str(path)], check=False).returncode != 0:
            pytest.skip("this filesystem cannot make files immutable")
        paths.append(path)
