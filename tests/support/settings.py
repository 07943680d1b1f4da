"""The settings as quizbot reads them, and the problems it would report."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from adapters.settings import SECTIONS, load
from bot.operations.settings import InvalidSettings, declared

# Environment variable -> its one-line help, for every section: deploy/.env.example and
# the compose files are checked against it.
SETTINGS = {s.env: s.help for model in SECTIONS for _, s in declared(model) if s.env}


def problems(
    environ: Mapping[str, str],
    overrides: Mapping[str, object] | None = None,
    platforms: Iterable[str] | None = (),
) -> list[str]:
    """The lines `load` raises (none when the settings are valid)."""
    try:
        load(environ, overrides, platforms)
    except InvalidSettings as invalid:
        return list(invalid.problems)
    return []
