"""VAPID keys for web push (RFC 8292): the server's P-256 key pair that signs every push.

Both keys are base64url without padding: the private key as its 32 raw bytes, the public key
as the 65-byte uncompressed point (what a browser's ``applicationServerKey`` takes). A
private key alone is enough: the public key is derived from it.
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_from_private(private: str) -> str:
    key = ec.derive_private_key(int.from_bytes(_unb64(private), "big"), ec.SECP256R1())
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64(point)


def generate() -> tuple[str, str]:
    """A new (private, public) pair."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = _b64(key.private_numbers().private_value.to_bytes(32, "big"))
    return private, public_from_private(private)


def load_or_create(path: Path) -> tuple[str, str]:
    """The pair stored at ``path``, made once. Processes starting together (the web server and
    the worker) agree: the file appears whole or not at all (a hard link never replaces)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        private, public = generate()
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        temporary.write_text(json.dumps({"private": private, "public": public}))
        temporary.chmod(0o600)
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another process made it first: use theirs
        finally:
            temporary.unlink()
    stored = json.loads(path.read_text())
    return stored["private"], stored["public"]


def from_environment(fallback: Path | None) -> tuple[str, str]:
    """VAPID_PRIVATE_KEY (and VAPID_PUBLIC_KEY, else derived) from the environment; without
    them, the pair kept at ``fallback`` (made once), or no keys at all (push is off)."""
    private = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
    if private:
        public = os.environ.get("VAPID_PUBLIC_KEY", "").strip() or public_from_private(private)
        return private, public
    if fallback is not None:
        return load_or_create(fallback)
    return "", ""
