"""A real web push endpoint for tests: an HTTP server on 127.0.0.1 recording what it receives,
and a browser's side of a subscription (its P-256 key pair and auth secret) that decrypts."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushEndpoint:
    """POSTs are recorded per path; ``status[path]`` answers (201 by default)."""

    received: list[Received] = field(default_factory=list)
    status: dict[str, int] = field(default_factory=dict)

    def start(self) -> PushEndpoint:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                endpoint.received.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                self.send_response(endpoint.status.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, path: str) -> str:
        return self.origin + path

    def to(self, path: str) -> list[Received]:
        return [r for r in self.received if r.path == path]


class Browser:
    """A browser's push subscription keys (RFC 8291): it alone can read what is pushed."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self) -> dict[str, Any]:
        """What PushSubscription.toJSON() gives the page's script."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
        }

    def read(self, received: Received) -> dict[str, Any]:
        assert received.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            received.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def vapid_claims(authorization: str, public_key: str) -> dict[str, Any]:
    """Checks a ``vapid t=<JWT>, k=<key>`` header (RFC 8292) against our public key and returns
    the JWT's claims; raises AssertionError or InvalidSignature if it does not verify."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid", authorization
    params = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert params["k"] == public_key
    head, claims, signature = params["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    decoded = json.loads(unb64(claims))
    assert decoded["exp"] > time.time()
    return decoded


__all__ = ["Browser", "InvalidSignature", "PushEndpoint", "Received", "vapid_claims"]


def subscribe(user: Any, endpoint: PushEndpoint, user_agent: str = "") -> Browser:
    """``user`` turns push on through the real subscribe view, for a browser at ``endpoint``."""
    from django.test import Client
    from django.urls import reverse

    browser = Browser(endpoint.url(f"/push/{user.username}"))
    client = Client()
    client.force_login(user)
    response = client.post(
        reverse("push_subscribe"),
        browser.subscription(),
        content_type="application/json",
        HTTP_USER_AGENT=user_agent,
    )
    assert response.status_code == 201, response.content
    return browser
