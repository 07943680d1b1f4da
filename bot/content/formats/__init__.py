"""Import and export formats of question banks: one module per format, each reading a
file into ``model.Draft`` questions and writing a bank back (see docs/IMPORT.md)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from bot.content.formats import aiken, csv_format, gift, moodle_xml, opentdb
from bot.content.formats.model import Format

FORMATS: Mapping[str, Format] = {
    f.name: f
    for f in (gift.FORMAT, aiken.FORMAT, moodle_xml.FORMAT, opentdb.FORMAT, csv_format.FORMAT)
}


class UnknownFormat(ValueError):
    pass


def known_extensions() -> str:
    """The extensions that say a file's format, for a message: ".gift (gift), …"."""
    return ", ".join(f"{f.extension} ({f.name})" for f in FORMATS.values() if f.extension)


def format_for(path: Path, name: str | None = None) -> Format:
    """The format named, else the one the file's extension says."""
    if name:
        return FORMATS[name]
    found = next((f for f in FORMATS.values() if f.extension == path.suffix.lower()), None)
    if found is None:
        raise UnknownFormat(
            f"{path}: cannot tell the format from the extension '{path.suffix}' (known:"
            f" {known_extensions()}): name it with --format {'|'.join(FORMATS)}"
        )
    return found
