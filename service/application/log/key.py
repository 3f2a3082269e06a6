"""The log's signing key: an Ed25519 private key in a PEM file (PKCS #8), made on first start.

Every process of one deployment must sign with the same key, so the file is created with
O_EXCL: of two processes starting together, one writes it and the other reads that one.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from projections.transparency.notes import Signer
from service.settings import Settings

KEY_FILE = "log-key.pem"

log = logging.getLogger("cardledger.log")


def key_path(settings: Settings) -> Path:
    return settings.log_key or settings.data_dir / KEY_FILE


def log_signer(settings: Settings) -> Signer:
    """The log's signer, named after its origin (a private in-memory store: a key of its own)."""
    if settings.in_memory:
        return Signer(settings.log_origin, Ed25519PrivateKey.generate())
    path = key_path(settings)
    return Signer(settings.log_origin, _load_or_make(path, settings.log_origin))


def _load_or_make(path: Path, origin: str) -> Ed25519PrivateKey:
    key, made = ed25519_key(path)
    if made:
        verifier = Signer(origin, key).verifier().text()
        log.warning("made the log's signing key %s; its verifier key: %s", path, verifier)
    return key


def ed25519_key(path: Path) -> tuple[Ed25519PrivateKey, bool]:
    """The Ed25519 private key in ``path``, and whether it was made now (the file did not
    exist: made exclusively, so of two processes one writes it and the other reads it)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        made = Ed25519PrivateKey.generate()
        pem = made.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process made it first: use that one
        else:
            with os.fdopen(fd, "wb") as file:
                file.write(pem)
                file.flush()
                os.fsync(file.fileno())
            return made, True
    key = load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} holds no Ed25519 private key")
    return key, False
