"""The sockets when the channel layer's Redis is out of reach (a restart, a partition): closed
with 4503 (try again), which the pages answer by reconnecting with their backoff, and one
WARNING line each, its traceback once a minute. Each such socket was an ERROR from Daphne with
a full traceback ("Exception inside application"), again on every reconnect: a Redis restart
with a few hundred pages open wrote thousands of them (a deploy review restarting Redis under
the Procfile's processes). A table socket lets go of its shared read too."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets
from django.test import override_settings

from accounts import services as account_services
from config import guard
from games import consumers
from tests.games.helpers import connect, seat_users
from tests.live_server import closed_port, daphne, free_port, server_env

pytestmark = pytest.mark.django_db(transaction=True)

TRY_AGAIN = 4503


def _layer(port: int) -> dict:
    host = {"address": f"redis://127.0.0.1:{port}/0", "socket_timeout": 60}
    return {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [host]}}
    }


def _said(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [
        r for r in caplog.records if r.name == "games.consumers" and r.levelno >= logging.WARNING
    ]


def test_sockets_opened_while_the_layer_is_down_close_try_again_with_a_line_each(
    started, caplog, monkeypatch
):
    monkeypatch.setattr(guard, "_last_trace", {})
    game = started("imperador")
    user = seat_users(game)[0]

    async def scenario() -> list[tuple[bool, int | None]]:
        answers = []
        for path in (f"/ws/games/{game.pk}/", f"/ws/games/{game.pk}/", "/ws/me/"):
            communicator, connected, code = await connect(user, path)
            answers.append((connected, code))
            await communicator.wait(timeout=5)  # the consumer has ended, cleanly
        return answers

    with override_settings(CHANNEL_LAYERS=_layer(closed_port())), caplog.at_level("WARNING"):
        answers = asyncio.run(scenario())

    assert answers == [(False, TRY_AGAIN)] * 3
    said = _said(caplog)
    assert [r.getMessage() for r in said] == ["channel layer unavailable: socket closed"] * 3
    assert [bool(r.exc_info) for r in said] == [True, False, False]
    assert consumers.shared_games.idle()


@contextlib.contextmanager
def _own_redis(folder: Path) -> Iterator[subprocess.Popen]:
    """A Redis of this test's own, to stop: the run's is shared."""
    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1"]
    redis = subprocess.Popen(
        [*command, "--save", "", "--appendonly", "no"], cwd=folder, stdout=subprocess.DEVNULL
    )
    redis.port = port  # type: ignore[attr-defined]
    try:
        for _ in range(50):
            if subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).stdout:
                break
            time.sleep(0.1)
        yield redis
    finally:
        if redis.poll() is None:
            redis.kill()
        redis.wait(10)


NEEDS_REDIS_SERVER = pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="needs redis-server"
)


@NEEDS_REDIS_SERVER
def test_an_open_table_socket_closes_try_again_when_redis_goes_away(started, caplog, tmp_path):
    game = started("cockroach-poker-royal")
    user = seat_users(game)[0]

    async def scenario(redis: subprocess.Popen) -> dict:
        communicator, connected, _code = await connect(user, f"/ws/games/{game.pk}/")
        assert connected
        assert (await communicator.receive_json_from(timeout=5))["type"] == "state"
        assert not consumers.shared_games.idle()
        redis.terminate()  # a restart's first half
        redis.wait(10)
        closed = await communicator.receive_output(timeout=10)
        await communicator.wait(timeout=5)
        return closed

    with (
        _own_redis(tmp_path) as redis,
        override_settings(CHANNEL_LAYERS=_layer(redis.port)),
        caplog.at_level("WARNING"),
    ):
        closed = asyncio.run(scenario(redis))

    assert closed == {"type": "websocket.close", "code": TRY_AGAIN}
    assert [r.getMessage() for r in _said(caplog)] == ["channel layer unavailable: socket closed"]
    assert consumers.shared_games.idle(), "the socket still counted as watching its table"


@NEEDS_REDIS_SERVER
def test_daphne_closes_the_socket_try_again_and_logs_one_line(started, tmp_path):
    """Through Daphne, as a program's socket sees it: the code arrives (Daphne's autobahn sends
    only 1000 and 3000-4999), and the log holds the line, not Daphne's ERROR."""
    game = started("imperador")
    _token, raw = account_services.api_token_create(seat_users(game)[0], "bot")
    log = tmp_path / "daphne.log"

    async def scenario(base: str, redis: subprocess.Popen) -> int | None:
        url = base.replace("http://", "ws://") + f"/ws/games/{game.pk}/"
        async with websockets.connect(
            url, additional_headers={"Authorization": f"Bearer {raw}"}
        ) as sock:
            assert json.loads(await asyncio.wait_for(sock.recv(), 10))["type"] == "state"
            redis.terminate()
            redis.wait(10)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(sock.recv(), 10)
        return closed.value.rcvd.code if closed.value.rcvd else None

    with (
        _own_redis(tmp_path) as redis,
        daphne(server_env(REDIS_URL=f"redis://127.0.0.1:{redis.port}/0"), log) as base,
    ):
        code = asyncio.run(scenario(base, redis))

    said = log.read_text()
    assert code == TRY_AGAIN, said[-3000:]
    assert "channel layer unavailable: socket closed" in said
    assert "Exception inside application" not in said, said[-3000:]
