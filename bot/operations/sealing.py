"""Secrets at rest. What the store keeps of a platform's tokens is sealed with Fernet
(AES-128-CBC with HMAC-SHA256, from the maintained ``cryptography`` package) under a
key derived from a setting, so a copy of the database (a backup, a dump, a migration's
source file) holds no usable token without that setting. Several keys, comma-separated,
rotate one: the first seals, any of them opens."""

from __future__ import annotations

import base64
from collections.abc import Sequence

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

MIN_KEY_CHARS = 32  # a passphrase this long from a generator has ample entropy


class SealError(Exception):
    """A sealed value no configured key opens (the key changed) or that was altered."""


def _fernet(secret: str) -> Fernet:
    # HKDF turns any long random text into Fernet's 32-byte key; no salt is needed
    # for a high-entropy secret, and ``info`` keeps this key apart from other uses.
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"quizbot tokens").derive(
        secret.encode()
    )
    return Fernet(base64.urlsafe_b64encode(key))


def keys_of(raw: str) -> tuple[str, ...]:
    """The keys of a setting: comma-separated, the newest first."""
    return tuple(k.strip() for k in raw.split(",") if k.strip())


class Sealer:
    def __init__(self, keys: Sequence[str]):
        if not keys:
            raise ValueError("a sealer needs at least one key")
        self._fernet = MultiFernet([_fernet(k) for k in keys])

    def seal(self, text: str) -> str:
        return self._fernet.encrypt(text.encode()).decode("ascii")

    def open(self, sealed: str) -> str:
        try:
            return self._fernet.decrypt(sealed.encode("ascii")).decode()
        except (InvalidToken, UnicodeError):
            raise SealError("sealed with another key, or altered") from None
