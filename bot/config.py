"""Settings shared by every entry point."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def default_db_path(environ: Mapping[str, str] = os.environ) -> Path:
    """QUIZBOT_DB, else quizbot.db in the user's data directory (XDG)."""
    if environ.get("QUIZBOT_DB"):
        return Path(environ["QUIZBOT_DB"])
    data_home = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "quizbot" / "quizbot.db"
