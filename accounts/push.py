"""Web push, the third channel beside in-app notices and email (RFC 8030 delivery, RFC 8291
encryption, RFC 8292 VAPID, through pywebpush).

A push carries what the in-app notice shows and nothing more: the site's name, the notice's
sentence (names and game titles, never a card) and the link to its table. It follows the
email's rules at send time (accounts.notifications.notice_stands: unread, its wait still the
game's current one and still owing this player, the table not open in front of them) and the
player's per-kind choice. Notices are once per seat per wait, so pushes are too.

Endpoints are the browser's push service: https on a public address. Anything that resolves to
a private, loopback or link-local address is refused when subscribing and again when sending
(the server must not be made to POST into its own network); when sending, the connection
goes to the very address that was checked (no second lookup to rebind); redirects are not
followed.
"""

from __future__ import annotations

import base64
import ipaddress
import json
import logging
import re
import socket
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import requests
import requests.adapters
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError
from urllib3.util.connection import create_connection

from accounts.models import Notification, PushSubscription, User
from accounts.notifications import (
    is_present,
    notice_key,
    notice_stands,
    wait_deadline,
    written_in,
)
from accounts.services import AccountsError

log = logging.getLogger(__name__)

SESSION_KEY = "push_endpoint"  # the endpoint this browser subscribed in this session
MAX_FAILURES = 20  # failed deliveries in a row (not 404/410) before a subscription is dropped
MAX_TTL = 28 * 24 * 3600
URGENT_WITHIN = timedelta(hours=1)  # a wait due this soon (a Live or Fast table) is urgent
# How long a notice that is not about a wait stays worth delivering, and how urgent it is.
OTHER_KINDS: dict[str, tuple[int, str]] = {
    Notification.Kind.INVITATION: (7 * 24 * 3600, "normal"),
    Notification.Kind.FRIEND_REQUEST: (7 * 24 * 3600, "normal"),
    Notification.Kind.GAME_FINISHED: (3 * 24 * 3600, "low"),
    Notification.Kind.SEAT_TO_BOT: (24 * 3600, "normal"),
    Notification.Kind.REPORT: (7 * 24 * 3600, "low"),
}


class PushError(AccountsError):
    pass


def enabled() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


# --- what a subscription may be ------------------------------------------------------------


def _unb64(text: str) -> bytes:
    if not re.fullmatch(r"[A-Za-z0-9_\-]*={0,2}", text):
        raise ValueError("not base64url")
    text = text.rstrip("=")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _addresses(host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, OSError):
        return []
    return [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]


def check_endpoint(endpoint: str) -> None:
    """Refuses an endpoint the server must not POST to (raises PushError)."""
    refused = PushError("bad_endpoint", _("This push address cannot be used."))
    if not endpoint or len(endpoint) > 1000:
        raise refused
    try:
        parts = urlsplit(endpoint)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise refused from None
    if parts.scheme not in ("https", "http") or not parts.hostname or parts.username:
        raise refused
    if not _known_service(parts.hostname):
        raise PushError("unknown_service", _("This push service is not one a browser uses."))
    _vetted(parts.hostname, port, parts.scheme)


def _known_service(host: str) -> bool:
    """Browsers push through a handful of services; any other host is not a browser's, and
    the server will not POST to it (a public address can still be someone else's server)."""
    host = host.lower().rstrip(".")
    allowed = settings.PUSH_SERVICE_HOSTS
    if "*" in allowed:
        return True
    if settings.PUSH_ALLOW_LOOPBACK and host in ("127.0.0.1", "::1", "localhost"):
        return True  # the tests' own push endpoint (the address itself is vetted below)
    return any(host == known or host.endswith("." + known) for known in allowed)


def _vetted(
    host: str, port: int, scheme: str
) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """``host``'s addresses, each one the server may POST to (else PushError)."""
    addresses = _addresses(host, port)
    if not addresses:
        raise PushError("unknown_host", _("The push service's address could not be found."))
    for address in addresses:
        loopback_ok = settings.PUSH_ALLOW_LOOPBACK and address.is_loopback
        if not loopback_ok and (not address.is_global or address.is_multicast):
            raise PushError("private_endpoint", _("A push address must be on the public internet."))
        if scheme != "https" and not loopback_ok:
            raise PushError("not_https", _("A push address must use https."))
    return addresses


def check_keys(p256dh: str, auth: str) -> None:
    """The browser's P-256 public key (65 bytes, uncompressed) and 16-byte auth secret."""
    try:
        point, secret = _unb64(p256dh), _unb64(auth)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, TypeError):
        raise PushError("bad_keys", _("The browser sent keys that cannot be used.")) from None
    if len(point) != 65 or len(secret) != 16:
        raise PushError("bad_keys", _("The browser sent keys that cannot be used."))


_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"))
_SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS", "macOS"),
    ("Linux", "Linux"),
)


def device_label(user_agent: str) -> str:
    """ "Firefox on Android": enough to tell one's devices apart in the profile."""
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), "")
    if not browser and "Safari/" in user_agent:
        browser = "Safari"
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), "")
    if browser and system:
        return f"{browser} / {system}"
    return browser or system or user_agent[:60]


# --- subscribing ---------------------------------------------------------------------------


def _recount(user_id: int) -> None:
    user = User.objects.get(pk=user_id)
    user.push_devices = PushSubscription.objects.filter(user_id=user_id).count()
    user.save(update_fields=["push_devices"])  # the signal forgets cached copies of the row


def _lock_counts(user: User, endpoint: str) -> int | None:
    """Locks the rows of the player and of the browser's present owner (one count at a time),
    in id order, before the subscription's row; answers that owner. Taken as "mine, then the
    browser's, then its owner's", two players subscribing one browser at once each held the row
    the other waited for (a deadlock). The owner is read again under the locks: one that
    changed meanwhile (a third player took the browser) is locked too."""
    locked: set[int] = set()
    while True:
        owners = PushSubscription.objects.filter(endpoint=endpoint)
        owner = owners.values_list("user_id", flat=True).first()
        wanted = {user.pk} if owner is None else {user.pk, owner}
        if wanted <= locked:
            return owner
        list(User.objects.select_for_update().filter(pk__in=wanted).order_by("pk"))
        locked |= wanted


@transaction.atomic
def subscribe(user: User, endpoint: str, p256dh: str, auth: str, user_agent: str = "") -> Any:
    """Stores (or moves to this player) a browser's subscription. Keeps the player's
    PUSH_MAX_DEVICES most recently used ones."""
    if not enabled():
        raise PushError("push_off", _("Push notifications are not set up on this site."))
    check_endpoint(endpoint)
    check_keys(p256dh, auth)
    before = _lock_counts(user, endpoint)
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={
            "user": user,
            "p256dh": p256dh,
            "auth": auth,
            "label": device_label(user_agent),
            "failures": 0,
        },
    )
    keep = (
        PushSubscription.objects.filter(user=user)
        .order_by(Coalesce("last_success_at", "created_at").desc(), "-pk")
        .values_list("pk", flat=True)[: settings.PUSH_MAX_DEVICES]
    )
    PushSubscription.objects.filter(user=user).exclude(pk__in=list(keep)).delete()
    _recount(user.pk)
    if before is not None and before != user.pk:
        _recount(before)  # a browser shared by two players pushes to the last one only
    return subscription


@transaction.atomic
def unsubscribe(user: User, endpoint: str = "", subscription_id: int | None = None) -> bool:
    rows = PushSubscription.objects.filter(user=user)
    rows = rows.filter(pk=subscription_id) if subscription_id is not None else rows
    rows = rows.filter(endpoint=endpoint) if endpoint else rows
    if subscription_id is None and not endpoint:
        return False
    # the player's row before the subscriptions', in the order subscribe takes them
    User.objects.select_for_update().filter(pk=user.pk).first()
    deleted = rows.delete()[0]
    _recount(user.pk)
    return bool(deleted)


def logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """``user_logged_out``: the browser that subscribed in this session stops receiving the
    player's notices (a shared or public computer must not show them to the next person)."""
    endpoint = request.session.get(SESSION_KEY) if request is not None else None
    if user is not None and isinstance(endpoint, str) and endpoint:
        unsubscribe(user, endpoint=endpoint)


def set_kinds(user: User, kinds: list[str]) -> None:
    known = {kind.value for kind in Notification.Kind}
    user.push_kinds = [kind for kind in dict.fromkeys(kinds) if kind in known]
    user.save(update_fields=["push_kinds"])


# --- sending -------------------------------------------------------------------------------


def decision(note: Notification) -> str:
    """ "send" or "skip": the email's rules, the player's choice of kinds, a device to push to."""
    user = note.user
    if not enabled() or not user.is_active or note.kind not in (user.push_kinds or []):
        return "skip"
    if not notice_stands(note):
        return "skip"
    if note.game_id is not None and is_present(note.game_id, user.pk):
        return "skip"  # the table is open in front of them
    return "send"


def payload(note: Notification) -> dict[str, str]:
    """Exactly what the in-app notice shows: its sentence and its link, with the language it
    is written in and that language's direction (a Persian sentence opening with a Latin
    name was laid out left to right, "auto" going by its first letter)."""
    language = note.language or written_in(note.user)
    data = {
        "title": settings.SITE_NAME,
        "body": note.text,
        "lang": language,
        "dir": "rtl" if translation.get_language_info(language)["bidi"] else "ltr",
        "url": settings.SITE_URL.rstrip("/") + (note.url or "/"),
        "tag": f"game-{note.game_id}"
        if note.game_id is not None
        else f"notice-{notice_key(note.pk)}",
    }
    return data


def timing(note: Notification, now: datetime) -> tuple[int, str]:
    """(TTL seconds, urgency): a wait's push lives until its deadline, urgent when that is
    near (a Live table's turn); other notices per OTHER_KINDS."""
    if note.kind in OTHER_KINDS:
        return OTHER_KINDS[note.kind]
    deadline = wait_deadline(note.game_id) if note.game_id is not None else None
    if deadline is None:
        return 24 * 3600, "normal"
    left = deadline - now
    ttl = int(min(max(left.total_seconds(), 30), MAX_TTL))
    return ttl, "high" if left <= URGENT_WITHIN else "normal"


def _vetted_socket(conn: HTTPConnection, scheme: str) -> socket.socket:
    """Resolves the push service's name once, checks every address, and connects to a checked
    address itself: a name that answered a public address when it was checked cannot send the
    push into the server's own network by answering a private one now (DNS rebinding). TLS
    still verifies the certificate against the name."""
    addresses = _vetted(conn._dns_host, conn.port, scheme)
    try:
        return create_connection(
            (str(addresses[0]), conn.port),
            conn.timeout,
            source_address=conn.source_address,
            socket_options=conn.socket_options,
        )
    except OSError as error:
        raise NewConnectionError(conn, f"push connection failed: {error}") from error


class _VettedHTTP(HTTPConnection):
    def _new_conn(self) -> socket.socket:
        return _vetted_socket(self, "http")


class _VettedHTTPS(HTTPSConnection):
    def _new_conn(self) -> socket.socket:
        return _vetted_socket(self, "https")


class _VettedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _VettedHTTP


class _VettedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _VettedHTTPS


class _VettedAdapter(requests.adapters.HTTPAdapter):
    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _VettedHTTPPool,
            "https": _VettedHTTPSPool,
        }


def _session() -> requests.Session:
    session = requests.Session()
    session.max_redirects = 0  # a redirect could point anywhere: it fails instead
    for prefix in ("http://", "https://"):
        session.mount(prefix, _VettedAdapter())
    return session


def _post(subscription: PushSubscription, body: str, ttl: int, headers: dict[str, str]) -> str:
    """One delivery: "ok", "gone" (the push service forgot it) or "failed"."""
    # here, not at the top: web processes import this module for subscribing only
    from py_vapid import Vapid02
    from pywebpush import WebPushException, webpush

    try:
        check_endpoint(subscription.endpoint)  # again: a name may resolve elsewhere now
        webpush(
            {
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=body,
            vapid_private_key=Vapid02.from_string(settings.VAPID_PRIVATE_KEY),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=ttl,
            headers=headers,
            timeout=settings.PUSH_TIMEOUT,
            requests_session=_session(),
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status in (404, 410):
            return "gone"
        log.warning("push to subscription %s failed: %s", subscription.pk, status)
        return "failed"
    except (PushError, requests.RequestException) as error:
        log.warning("push to subscription %s failed: %s", subscription.pk, type(error).__name__)
        return "failed"
    return "ok"


def send_notification(notification_id: int) -> str:
    """The Celery task's work: claims the pending push (a redelivered task does nothing), then
    delivers outside the transaction (a slow push service holds no row)."""
    with transaction.atomic():
        note = (
            Notification.objects.select_for_update(of=("self",))
            .select_related("user")
            .filter(pk=notification_id, push=Notification.Push.PENDING)
            .first()
        )
        if note is None:
            return "done"
        verdict = decision(note)
        subscriptions = (
            list(PushSubscription.objects.filter(user=note.user)) if verdict == "send" else []
        )
        if not subscriptions:
            verdict = "skip"
        note.push = Notification.Push.SENT if verdict == "send" else Notification.Push.SKIPPED
        note.save(update_fields=["push"])
    if verdict != "send":
        return verdict
    now = timezone.now()
    ttl, urgency = timing(note, now)
    headers = {"Urgency": urgency}
    if note.game_id is not None:
        headers["Topic"] = f"game{note.game_id}"  # an undelivered older push is replaced
    body = json.dumps(payload(note), ensure_ascii=False)
    gone = False
    for subscription in subscriptions:
        outcome = _post(subscription, body, ttl, headers)
        rows = PushSubscription.objects.filter(pk=subscription.pk)
        if outcome == "ok":
            rows.update(last_success_at=timezone.now(), failures=0)
        elif outcome == "gone" or subscription.failures + 1 >= MAX_FAILURES:
            rows.delete()
            gone = True
        else:
            rows.update(failures=F("failures") + 1)
    if gone:
        _recount(note.user_id)
    return "send"
