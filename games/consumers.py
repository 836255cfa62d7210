"""The sockets: a table's (each connection gets its own seat's view, never anyone else's) and a
player's own (their My games list and invitations changed).

Groups only ever carry "changed" pings; on one, each consumer reads what its own user may see.
Join first, then read: a change committed in between is still announced. Moves sent over the
socket go through the same service as HTTP; errors go back to the sender only.

Fan-out: every table socket of one process that hears the same ping shares one read of the
game (``SharedGames``), made on the event loop (games/live_read.py); each then builds its own
seat's payload in memory (engine.view), so a move costs one database read per process, not one
per socket queued on Channels' sync thread.

With the in-memory channel layer (the embedded default) a ping from the Celery worker never
reaches the server process, so there the sockets also poll their revision every POLL_SECONDS.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from importlib import import_module
from typing import Any
from urllib.parse import parse_qs

import orjson
import psycopg
import redis.exceptions
from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import InMemoryChannelLayer
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts.languages import reader_language
from accounts.models import ApiToken, User
from accounts.notifications import mark_online, mark_present, unread_count
from config import guard
from config.inputs import BadInput, parse_json
from games import broadcast, live_read, selectors, services
from games.errors import GameError, StaleVersion
from games.models import Game
from games.services import chat
from games.socket_tokens import TOO_MANY, token_group_name

log = logging.getLogger(__name__)

# A move is a small object; anything bigger or deeper is refused before it is parsed further.
MAX_FRAME_CHARS = 8192
MAX_FRAME_DEPTH = 8
# channels-redis forgets group members after 24 h (group_expiry): re-join well before that.
REJOIN_SECONDS = 3600
# The embedded default's in-memory layer: how often a socket re-reads its revision.
POLL_SECONDS = 3.0
# A page beats every 5 to 20 s and says hello on each (re)connect and wake-up; each of those
# frames reads the database on Channels' one sync thread, which every socket and page of the
# process shares. A socket gets BEAT_BURST at once, then one per BEAT_SECONDS: a flood of
# beats from one socket was answered read by read, and kept every other table's reads (its
# moves, its pings) waiting behind it.
BEAT_BURST = 10
BEAT_SECONDS = 1.0
# Refused beats in a minute after which the socket is closed (TOO_MANY): each refusal is
# still a frame to read and answer, and a flood's queue was worked through for minutes, one
# granted beat (and its reads) a second. A page is never refused: its beats are seconds apart.
BEAT_CLOSE_AFTER = 30
BEAT_CLOSE_WINDOW_SECONDS = 60.0
TOO_MANY_BEATS = gettext_noop("Too many requests. Slow down.")
SIGNED_OUT = 4401  # the close code when the session that opened the socket signed out
# The channel layer's Redis out of reach (a restart, a partition): the socket is closed with
# this, and the pages reconnect with their backoff. An application's code, as HTTP's 503:
# WebSocket's own "Try Again Later" (1013) is one Daphne's autobahn refuses to send.
LAYER_DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
TRY_AGAIN = 4503


def _standing(user: Any) -> Any:
    """The socket keeps the user of its handshake: re-read their standing, so a player banned
    (or deactivated) meanwhile stops receiving views."""
    if user is None or not user.is_authenticated:
        return None
    return User.objects.filter(pk=user.pk, is_active=True, banned_at__isnull=True).first()


def _load_payload(game_id: int, user: Any) -> dict[str, Any] | None:
    user = _standing(user)
    if user is None:
        return None
    game = selectors.game_with_seats(game_id)
    if game is None or not selectors.can_view(game, user):
        return None
    return selectors.game_payload(game, user)


def _payload_from_shared(game: Game, user: Any) -> dict[str, Any] | bool | None:
    """The payload from a game read once for all sockets, with no query: False when this
    viewer is not seated (a spectator's standing needs its own read)."""
    seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
    if seat is None:
        return False
    person = seat.user
    if person is None or not person.is_active or person.banned_at is not None:
        return None
    return selectors.game_payload(game, person)


def _language(scope: dict[str, Any], user: Any) -> str:
    """The language the socket's answers speak, as the site's pages choose it."""
    return reader_language(scope.get("cookies") or {}, user)


def _act(game_id: int, user: Any, content: dict[str, Any], language: str) -> dict[str, Any]:
    with translation.override(language or settings.LANGUAGE_CODE):
        return _act_in_language(game_id, user, content)


def _act_in_language(game_id: int, user: Any, content: dict[str, Any]) -> dict[str, Any]:
    if _standing(user) is None:
        return {"type": "error", "error": _("You may not play."), "code": "forbidden"}
    try:
        services.act(
            user,
            game_id,
            content.get("version"),
            content.get("action"),
            str(content.get("key") or ""),
        )
    except StaleVersion as exc:
        return {"type": "error", "error": exc.message, "code": exc.code, "version": exc.version}
    except GameError as exc:
        return {"type": "error", "error": exc.message, "code": exc.code}
    return {"type": "ok"}


def _beat(game_id: int, scope: dict[str, Any]) -> tuple[int | None, list[int]] | None:
    """A heartbeat: presence, the seat's revision, who is here; and the Live pace's check
    (a table whose player left falls back to its own pace). None when the socket's player
    may no longer hold it: banned or deactivated since it opened (a ban pings only the
    tables it hands to the bot), or its token revoked with the ping that closes it lost
    (Redis restarted). Such a socket went on being told the table's revision and who is
    here, and marked its player present."""
    user = _standing(scope.get("user"))
    if user is None or not _token_stands(scope):
        return None
    mark_present(game_id, user.pk)
    services.live_check(game_id)
    game = selectors.game_with_seats(game_id)
    if game is None:
        return None, []
    seat = selectors.viewer_seat_index(game, user)
    return game.revision_for(seat), selectors.present_seats(game)


def _talk_newer(game_id: int, user: Any, shown: int) -> bool:
    game = selectors.visible_game(game_id, user)
    return game is not None and chat.newer_than(game, user, shown)


def _revision(game_id: int, user: Any) -> int | None:
    game = selectors.game_with_seats(game_id)
    if game is None:
        return None
    return game.revision_for(selectors.viewer_seat_index(game, user))


class SharedGames:
    """Per process: one read of a game per revision, shared by every socket that needs it."""

    def __init__(self) -> None:
        # game id -> ((revision, version) the read is at least as fresh as, the read)
        self._reads: dict[int, tuple[tuple[int, int], asyncio.Future[Game | None]]] = {}
        self._watchers: dict[int, int] = {}

    def watch(self, game_id: int) -> None:
        self._watchers[game_id] = self._watchers.get(game_id, 0) + 1

    def idle(self) -> bool:
        """No table socket of this process is open."""
        return not self._watchers

    def unwatch(self, game_id: int) -> None:
        left = self._watchers.get(game_id, 1) - 1
        if left <= 0:
            self._watchers.pop(game_id, None)
            self._reads.pop(game_id, None)
        else:
            self._watchers[game_id] = left

    async def get(self, game_id: int, revision: int, version: int) -> Game | None:
        """A read at least as fresh as the game's totals (revision, version) of a ping: a
        secret answer steps the version only, so both are compared."""
        entry = self._reads.get(game_id)
        if entry is not None and entry[0][0] >= revision and entry[0][1] >= version:
            return await asyncio.shield(entry[1])
        future: asyncio.Future[Game | None] = asyncio.get_running_loop().create_future()
        self._reads[game_id] = ((revision, version), future)
        try:
            game = await _read_shared(game_id)
        except BaseException as exc:
            self._reads.pop(game_id, None)
            future.set_exception(exc)
            future.exception()  # retrieved: the waiters re-raise it
            raise
        future.set_result(game)
        if game is not None:
            # what was read may be newer than the ping that asked for it
            self._reads[game_id] = (
                (max(revision, game.revision), max(version, game.version)),
                future,
            )
        return game


shared_games = SharedGames()


async def _read_shared(game_id: int) -> Game | None:
    """On PostgreSQL on the loop itself (games/live_read.py); if that connection fails, or
    elsewhere, on Channels' sync thread."""
    if live_read.available():
        try:
            return await live_read.reader.game_with_seats(game_id)
        except psycopg.Error:
            log.warning("the sockets' loop read failed; reading on the sync thread", exc_info=True)
    return await database_sync_to_async(selectors.game_with_seats)(game_id)


def _still_signed_in(scope: dict[str, Any]) -> bool:
    """Whether the credentials that opened the socket still stand: its API token unrevoked,
    or its browser session still signed in as the same, active player."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return True  # nothing of a player's to keep from it
    token_id = scope.get("api_token_id")
    if token_id is not None:
        return ApiToken.objects.filter(
            pk=token_id, revoked_at__isnull=True, user__is_active=True
        ).exists()
    key = getattr(scope.get("session"), "session_key", None)
    if not key:
        return True  # no session to have ended (a page's socket always has one)
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    return (
        store.get(SESSION_KEY) == str(user.pk)
        and User.objects.filter(pk=user.pk, is_active=True).exists()
    )


def _token_stands(scope: dict[str, Any]) -> bool:
    """A program's socket: its API token is not revoked (nor deleted). Checked on every beat,
    where a session's sign-out is checked only with a missed change (``_rejoin_if_due``): a
    password change gives the session that made it a new key, so the socket's old key no
    longer names its session, which keeps its sockets."""
    token_id = scope.get("api_token_id")
    return (
        token_id is None or ApiToken.objects.filter(pk=token_id, revoked_at__isnull=True).exists()
    )


def _polls(layer: Any) -> bool:
    return isinstance(layer, InMemoryChannelLayer)


class Consumer(AsyncJsonWebsocketConsumer):
    """Both sockets' dispatch and frames.

    Channels' ``dispatch`` hops to its one sync thread (``aclose_old_connections``) before
    every message: a ping heard by six sockets queued six hops behind each other and behind
    the shared read (bench/README.md, issue 13's figures). Every handler here reaches the
    database only through ``database_sync_to_async``, which closes stale connections itself on
    that same thread, so the hop is skipped. Frames are encoded with orjson (a state frame is a
    view and up to hundreds of legal actions)."""

    # set as the socket joins its groups
    joined: float
    session_group: str | None
    account_group: str | None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """A channel layer that fails (joining a group, a heartbeat's re-join, or the wait
        for this socket's next ping when Redis went away) ends the socket with TRY_AGAIN and
        one WARNING line, its traceback once a minute (config.guard.warn_unavailable). Raised
        on, it was Daphne's ERROR "Exception inside application" with a whole traceback for
        every open socket and again for every reconnect while Redis was down: thousands of
        them for one restart (a deploy review). What the socket held is let go as at a close
        (its shared read of the table), its groups as far as Redis still answers."""
        try:
            await super().__call__(scope, receive, send)
        except LAYER_DOWN:
            guard.warn_unavailable("channel layer unavailable: socket closed", log)
            with contextlib.suppress(*LAYER_DOWN):
                await self.disconnect(TRY_AGAIN)
            await self.close(code=TRY_AGAIN)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._beats = float(BEAT_BURST)  # the frames that read the database it may send now
        self._beats_at = time.monotonic()
        self._beats_refused = 0  # since _beats_refused_at
        self._beats_refused_at = self._beats_at

    async def _beat_refused(self) -> bool:
        """Spends one of the socket's beats (a heartbeat, a hello); True when it had none left
        and was told to slow down, with no database read."""
        now = time.monotonic()
        self._beats = min(BEAT_BURST, self._beats + (now - self._beats_at) / BEAT_SECONDS)
        self._beats_at = now
        if self._beats >= 1:
            self._beats -= 1
            return False
        if now - self._beats_refused_at > BEAT_CLOSE_WINDOW_SECONDS:
            self._beats_refused, self._beats_refused_at = 0, now
        self._beats_refused += 1
        if self._beats_refused > BEAT_CLOSE_AFTER:
            # told to slow down thirty times in a minute: a flood, not a page; what it queued
            # behind goes with the connection
            await self.close(code=TOO_MANY)
            return True
        wait = max(1, math.ceil((1 - self._beats) * BEAT_SECONDS))
        language = _language(self.scope, getattr(self, "user", None))
        with translation.override(language or settings.LANGUAGE_CODE):
            said = _(TOO_MANY_BEATS)
        await self.send_json(
            {"type": "error", "error": said, "code": "rate_limited", "retry_after": wait}
        )
        return True

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def _rejoin_if_due(self, missed: bool = False) -> None:
        """channels-redis forgets group members after 24 h (group_expiry): a socket open for
        days re-joins its groups every REJOIN_SECONDS, on its page's beat. And at once when
        its beat finds a change no ping announced (``missed``): Redis restarted and lost the
        groups, and every open table would otherwise hear moves only by its beat, up to 20 s
        late, for an hour (a play-through review saw it after its Redis was emptied)."""
        if missed and not await database_sync_to_async(_still_signed_in)(self.scope):
            # the sign-out's own ping went with the lost groups: the socket must not come back
            await self.close(code=SIGNED_OUT)
            return
        if missed or time.monotonic() - self.joined > REJOIN_SECONDS:
            await self.channel_layer.group_add(self.group, self.channel_name)
            for group in self._signed_in_groups():
                await self.channel_layer.group_add(group, self.channel_name)
            self.joined = time.monotonic()

    async def _join_session(self) -> None:
        """Into the group of the browser session that opened this socket: it closes when that
        session signs out (``broadcast.session_ended``). The group is named by an id kept in
        the session (``broadcast.sockets_id``), which outlives the key's change at a password
        change. And into the player's account group: a new password closes the sockets of
        the player's other sessions (``broadcast.password_changed``). A program's socket,
        opened with an API token, joins its token's group instead."""
        token_id = self.scope.get("api_token_id")
        if token_id is not None:
            # a program's socket (games/socket_tokens.py): no session, and a new password
            # leaves the token working; revoking the token closes it
            self.session_group, self.account_group = token_group_name(token_id), None
            await self.channel_layer.group_add(self.session_group, self.channel_name)
            return
        session = self.scope.get("session")
        sockets_id = None
        if session is not None and getattr(session, "session_key", None):
            sockets_id, created = broadcast.sockets_id(session)
            if created:
                await database_sync_to_async(session.save)()
        self.session_group = broadcast.session_group_name(sockets_id) if sockets_id else None
        user = self.scope.get("user")
        self.account_group = (
            broadcast.account_group_name(user.pk)
            if user is not None and user.is_authenticated
            else None
        )
        for group in self._signed_in_groups():
            await self.channel_layer.group_add(group, self.channel_name)

    def _signed_in_groups(self) -> list[str]:
        groups = (getattr(self, "session_group", None), getattr(self, "account_group", None))
        return [group for group in groups if group]

    async def _leave_session(self) -> None:
        for group in self._signed_in_groups():
            await self.channel_layer.group_discard(group, self.channel_name)

    async def session_ended(self, message: dict[str, Any]) -> None:
        await self.close(code=SIGNED_OUT)

    async def credentials_changed(self, message: dict[str, Any]) -> None:
        """The player's password changed: only the session that changed it keeps its sockets
        (the others are signed out by it)."""
        if message.get("keep") is None or message["keep"] != self.session_group:
            await self.close(code=SIGNED_OUT)

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        try:
            await super().close(code=code, reason=reason)
        except RuntimeError:  # closed already (see send_json)
            log.debug("a close for a closed socket was dropped", exc_info=True)

    async def send_json(self, content: Any, close: bool = False) -> None:
        try:
            await super().send_json(content, close)
        except RuntimeError:
            # The socket closed while a ping's frame was on its way (Daphne: autobahn's
            # Disconnected). Raised on, it ended the consumer without ``disconnect``: the
            # dead channel stayed in its groups and the shared read counted it for good.
            log.debug("a frame for a closed socket was dropped", exc_info=True)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()


class GameConsumer(Consumer):
    """Frames to the page: ``state`` (the seat's payload, its revision and the server's now),
    and ``heartbeat`` (answer to the page's beat or hello: the seat's revision and who is here;
    presence is not pushed, so arrivals make no frames). From the page: ``heartbeat``, ``hello`` (``revision``: the last one it holds;
    a newer view comes back at once) and moves. Presence is by heartbeat (HEARTBEAT_SECONDS);
    closing the socket does not clear it (a reload closes one and opens another)."""

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.group = broadcast.group_name(self.game_id)
        self.revision: int | None = None
        self.poller: asyncio.Task[None] | None = None
        # Join first, then read: a change committed in between is still announced to us.
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined = time.monotonic()
        payload = await database_sync_to_async(_load_payload)(self.game_id, self.user)
        if payload is None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await _refuse(self, 4404)
            return
        shared_games.watch(self.game_id)
        self.watching = True
        self.seat = payload["seat"]
        await self._join_session()
        await self.accept()
        await self._send_state(payload)
        await database_sync_to_async(mark_present)(self.game_id, self.user.pk)
        if _polls(self.channel_layer):
            self.poller = asyncio.ensure_future(self._poll())

    async def _send_state(self, payload: dict[str, Any]) -> None:
        self.revision = payload["revision"]
        # the seat as of this state: a page kept open through Leave and Join (its forms post
        # by fetch) sits elsewhere now, and the pings' seat filter must follow it (with the
        # old index, another player's secret answers reached this socket as frames)
        self.seat = payload["seat"]
        await self.send_json(
            {
                "type": "state",
                "version": payload["version"],
                "revision": payload["revision"],
                "now": time.time(),  # the page corrects its clock's offset with it
                "game": payload,
            }
        )

    async def disconnect(self, code: int) -> None:
        # each step only if connect got that far (the channel layer may fail before it ran)
        poller = getattr(self, "poller", None)
        if poller is not None:
            poller.cancel()
        if getattr(self, "watching", False):
            shared_games.unwatch(self.game_id)
            self.watching = False
            if shared_games.idle():
                await live_read.reader.close()
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self._leave_session()

    async def _fresh_state(self, revision: int, version: int) -> None:
        game = await shared_games.get(self.game_id, revision, version)
        payload = None if game is None else _payload_from_shared(game, self.user)
        if payload is False:  # a spectator: their standing and the watching rule, re-read
            payload = await database_sync_to_async(_load_payload)(self.game_id, self.user)
        if payload is None:
            await self.close(code=4404)
            return
        assert isinstance(payload, dict)
        await self._send_state(payload)

    async def game_changed(self, message: dict[str, Any]) -> None:
        seats = message.get("seats")
        if seats is not None and self.seat not in seats:
            return  # a change this seat cannot observe (a secret answer): nothing is sent
        await self._fresh_state(int(message.get("revision") or 0), int(message.get("version") or 0))

    async def _poll(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                await asyncio.sleep(POLL_SECONDS)
                revision = await database_sync_to_async(_revision)(self.game_id, self.user)
                if revision is not None and self.revision is not None and revision > self.revision:
                    payload = await database_sync_to_async(_load_payload)(self.game_id, self.user)
                    if payload is None:
                        await self.close(code=4404)
                        return
                    await self._send_state(payload)

    async def chat_posted(self, message: dict[str, Any]) -> None:
        seated = message.get("seated")
        if seated is not None and seated != (self.seat is not None):
            return  # talk of the other audience, which this reader cannot read: nothing is sent
        # No text travels here: the page fetches the talk its reader may see over HTTP.
        await self.send_json({"type": "chat"})

    async def _heartbeat(self) -> None:
        beat = await database_sync_to_async(_beat)(self.game_id, self.scope)
        if beat is None:
            await self.close(code=SIGNED_OUT)
            return
        revision, present = beat
        held = self.revision
        # a ping on its way may lose this race: a needless re-join, nothing worse
        await self._rejoin_if_due(missed=None not in (revision, held) and revision > held)
        # no server time here: a beat's answer must be identical while nothing this seat can
        # observe changed (tests/games/test_observations.py); state frames carry the time
        await self.send_json({"type": "heartbeat", "revision": revision, "present": present})

    async def _hello(self, content: dict[str, Any]) -> None:
        """The page (re)connected or woke up holding ``revision``: bring it up to date."""
        held = content.get("revision")
        current = await database_sync_to_async(_revision)(self.game_id, self.user)
        if current is None:
            await self.close(code=4404)
            return
        if not isinstance(held, int) or isinstance(held, bool):
            held = -1
        # what this socket sent since the page's hello was written counts as held (the state
        # sent on connect: sent twice, and fetched twice by the page, on every reconnect)
        held = max(held, self.revision if self.revision is not None else -1)
        if held < current:
            payload = await database_sync_to_async(_load_payload)(self.game_id, self.user)
            if payload is None:
                await self.close(code=4404)
                return
            await self._send_state(payload)
        else:
            await self._heartbeat()
        # the newest talk line the page shows: one posted before this socket joined the group
        # (between the page's render and its socket, or while it was away) had no ping here
        shown = content.get("chat")
        if (
            isinstance(shown, int)
            and not isinstance(shown, bool)
            and await database_sync_to_async(_talk_newer)(self.game_id, self.user, shown)
        ):
            await self.send_json({"type": "chat"})

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        content = await _parse_frame(self, text_data)
        if content is not None:
            await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await _frame_refused(self, "malformed", UNREADABLE)
            return
        if content.get("type") in ("heartbeat", "hello") and await self._beat_refused():
            return
        if content.get("type") == "heartbeat":
            await self._heartbeat()
            return
        if content.get("type") == "hello":
            await self._hello(content)
            return
        language = _language(self.scope, self.user)
        # a Redis counter, not the database: off the one sync thread the moves queue on
        wait = await sync_to_async(_writes_exceeded, thread_sensitive=False)(self.scope)
        if wait:
            with translation.override(language or settings.LANGUAGE_CODE):
                error = _("Too many moves. Slow down.")
            await self.send_json(
                {"type": "error", "error": str(error), "code": "rate_limited", "retry_after": wait}
            )
            return
        reply = await database_sync_to_async(_act)(self.game_id, self.user, content, language)
        await self.send_json(reply)


async def _refuse(consumer: Consumer, code: int) -> None:
    """Accepted, then closed with ``code``: a close before the accept reaches the other end as
    a bare HTTP 403, which a browser reports as a failed connection (1006) without the code.
    The pages stop reconnecting on their refusal codes, but on a bare failure they tried again
    every 30 s for as long as they stayed open (a player signed out, or a table gone, while
    the phone was away). A program reads the code too."""
    await consumer.accept()
    await consumer.close(code=code)


def _writes_exceeded(scope: dict[str, Any]) -> int:
    """A move over a socket counts with its client's HTTP writes (config/guard.py): the API
    token's, or the browser session's. Seconds to wait, or 0."""
    who = scope.get("credential")
    if who is None:
        session_key = (scope.get("cookies") or {}).get(settings.SESSION_COOKIE_NAME, "")
        who = guard.digest(session_key) if session_key else None
    return guard.socket_write_exceeded(who) if who else 0


UNREADABLE = gettext_noop("Send a JSON object.")


async def _frame_refused(
    consumer: AsyncJsonWebsocketConsumer, code: str, message: str, **params: Any
) -> None:
    """A frame the socket cannot read, refused in the reader's language (it was English, when
    every refusal of a move it could read spoke the player's)."""
    language = _language(consumer.scope, getattr(consumer, "user", None))
    with translation.override(language or settings.LANGUAGE_CODE):
        said = _(message) % params if params else _(message)
    await consumer.send_json({"type": "error", "error": said, "code": code})


async def _parse_frame(consumer: AsyncJsonWebsocketConsumer, text_data: str | None) -> Any:
    if text_data is None:
        await _frame_refused(consumer, "malformed", UNREADABLE)
        return None
    if len(text_data) > MAX_FRAME_CHARS:
        await _frame_refused(consumer, "too_large", gettext_noop("Send a small JSON object."))
        return None
    try:
        return parse_json(text_data, max_depth=MAX_FRAME_DEPTH)
    except BadInput as exc:
        await _frame_refused(consumer, exc.code, exc.message, **exc.params)
        return None


def _stamp(user: Any, table: int | None = None) -> tuple[str, int] | None:
    """The player's lists stamp and their unread notifications (the bell's count, without the
    notices of ``table``, the one on screen), or None when the account may no longer hold
    the socket."""
    user = _standing(user)
    if user is None:
        return None
    mark_online(user.pk)
    return selectors.lists_stamp(user), unread_count(user, besides_game=table)


def _table_on_screen(scope: dict[str, Any]) -> int | None:
    """The table the page shows (``?table=<id>``), if any: its bell leaves that table's
    notices out. A wait that opened there showed "1" for a moment, counted before the page's
    refresh read it. Anything else is no table (only the player's own count is concerned)."""
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("table", [])
    raw = values[0] if len(values) == 1 else ""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None


class UserConsumer(Consumer):
    """A player's own socket, open on every page: it beats (the friends page's "online") and
    says when their My games list or invitations changed, as ``{"type": "lists", "stamp",
    "unread"}``; the page then fetches the list's fragment, and its bell shows ``unread`` (a
    page's bell kept the count it was drawn with: an invitation to another table reached My
    games in place, never the bell of the table a phone stood on). A table's page opens it as
    ``/ws/me/?table=<id>``: its count leaves that table's notices out. The stamp is a hash of
    the player's own observations, never content."""

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.poller: asyncio.Task[None] | None = None
        self.stamp: str | None = None
        self.unread: int | None = None
        self.table = _table_on_screen(self.scope)
        if self.user is None or not self.user.is_authenticated:
            await _refuse(self, 4403)
            return
        self.group = broadcast.user_group_name(self.user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined = time.monotonic()
        stamp = await database_sync_to_async(_stamp)(self.user, self.table)
        if stamp is None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await _refuse(self, 4403)
            return
        await self._join_session()
        await self.accept()
        await self._send_stamp(stamp, always=True)
        if _polls(self.channel_layer):
            self.poller = asyncio.ensure_future(self._poll())

    async def disconnect(self, code: int) -> None:
        poller = getattr(self, "poller", None)
        if poller is not None:
            poller.cancel()
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self._leave_session()

    async def _send_stamp(self, seen: tuple[str, int] | None, always: bool = False) -> None:
        if seen is None:
            await self.close(code=4403)
            return
        stamp, unread = seen
        if always or stamp != self.stamp or unread != self.unread:
            self.stamp, self.unread = stamp, unread
            await self.send_json({"type": "lists", "stamp": stamp, "unread": unread})

    async def user_changed(self, message: dict[str, Any]) -> None:
        await self._send_stamp(await database_sync_to_async(_stamp)(self.user, self.table))

    async def _poll(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                await asyncio.sleep(POLL_SECONDS)
                await self.user_changed({})

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        content = await _parse_frame(self, text_data)
        if not isinstance(content, dict) or content.get("type") != "heartbeat":
            return
        if await self._beat_refused():
            return
        if not await database_sync_to_async(_token_stands)(self.scope):
            # its token revoked and the ping that closes it lost (as a table's beat finds it):
            # it went on being told the bell's count and the lists' changes
            await self.close(code=SIGNED_OUT)
            return
        seen = await database_sync_to_async(_stamp)(self.user, self.table)
        # the lists changed and no ping said so: the group is lost (see _rejoin_if_due); the
        # bell's count is no sign of it (a friend request pings nobody)
        stamp = seen[0] if seen is not None else None
        await self._rejoin_if_due(missed=None not in (stamp, self.stamp) and stamp != self.stamp)
        await self._send_stamp(seen, always=True)
