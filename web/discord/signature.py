"""Ed25519 verification of Discord interaction requests (Discord docs: Receiving and
Responding > Security and Authorization): the signature in ``X-Signature-Ed25519`` covers
``X-Signature-Timestamp`` + the raw body, checked against the application's public key."""

from __future__ import annotations

import time

from nacl.exceptions import BadSignatureError, CryptoError
from nacl.signing import VerifyKey

from ingest.errors import ArbiterError

SIGNATURE_HEADER = "X-Signature-Ed25519"
TIMESTAMP_HEADER = "X-Signature-Timestamp"


class SignatureError(ArbiterError, ValueError):
    """The request is not a fresh request signed by Discord (answered with 401)."""


class InvalidPublicKey(ArbiterError, ValueError):
    """The configured public key is not 32 bytes of hex (a configuration error)."""


def load_verify_key(public_key_hex: str) -> VerifyKey:
    try:
        return VerifyKey(bytes.fromhex(public_key_hex.strip()))
    except (ValueError, TypeError, CryptoError) as exc:
        raise InvalidPublicKey(
            "ARBITER_DISCORD_PUBLIC_KEY must be the application's 64-character hex public key"
        ) from exc


def verify_request(
    key: VerifyKey,
    signature_hex: str | None,
    timestamp: str | None,
    body: bytes,
    *,
    window: int,
    now: float | None = None,
) -> None:
    """Raise SignatureError unless ``signature_hex`` signs ``timestamp + body`` under ``key``
    and ``timestamp`` (Unix seconds) is within ``window`` seconds of ``now``."""
    if not signature_hex or not timestamp:
        raise SignatureError("missing signature headers")
    try:
        signature = bytes.fromhex(signature_hex)
    except ValueError as exc:
        raise SignatureError("signature is not hex") from exc
    if len(signature) != 64:
        raise SignatureError("signature has the wrong length")
    try:
        key.verify(timestamp.encode("utf-8") + body, signature)
    except (BadSignatureError, CryptoError, ValueError) as exc:
        raise SignatureError("invalid request signature") from exc
    # Checked after the signature so that the timestamp itself is authenticated: a replayed
    # request keeps its original timestamp and goes stale.
    try:
        sent = int(timestamp)
    except ValueError as exc:
        raise SignatureError("timestamp is not an integer") from exc
    current = time.time() if now is None else now
    if abs(current - sent) > window:
        raise SignatureError("timestamp outside the accepted window")


__all__ = [
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "InvalidPublicKey",
    "SignatureError",
    "load_verify_key",
    "verify_request",
]
