"""A workspace's own banks as the offload runs them, in a child process: an uploaded file
checked into a bank, and stored bank texts parsed (see bot/operations/offload.py)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.content.banks import Bank, BankError, parse_bank
from bot.content.formats.importer import Imported, Options, bank_from_upload


def source_name(bank_id: str) -> str:
    """How a stored bank is named in its errors (it has no file)."""
    return f"workspace bank {bank_id}"


def checked_upload(
    name: str, data: bytes, options: Options, taken: Collection[str]
) -> tuple[Imported | None, list[BankError]]:
    """The bank a file makes, or its problems; ``taken``: the shipped banks' ids and
    aliases, which answers and leaderboards already refer to."""
    imported, errors = bank_from_upload(name, data, options)
    if imported is None or errors:
        return None, errors
    bank = imported.bank
    clashes = [
        BankError(name, 1, f"'{n}' is the id of a built-in topic: choose another id", bank.id)
        for n in (bank.id, *bank.aliases)
        if n in taken
    ]
    return (None, clashes) if clashes else (imported, [])


def parsed(sources: Sequence[tuple[str, str]]) -> list[tuple[Bank | None, list[BankError]]]:
    """Stored banks, (bank id, text) each, parsed."""
    return [parse_bank(text, source_name(bank_id)) for bank_id, text in sources]
