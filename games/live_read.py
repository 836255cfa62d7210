"""The table sockets' shared read, made on the server's event loop.

Through ``database_sync_to_async`` the read of a ping first waited for Channels' one sync
thread and then for the loop to take its result back: in bench/fanout.py that hop cost as much
as the read itself (~1.5 ms of the ~4 ms from the ping's arrival to the game in hand, on this
2-CPU machine). Here a server process keeps one psycopg ``AsyncConnection`` (autocommit,
Django's own type adapters, options and time zone) while any of its table sockets is open,
and runs ``games/table_read.py``'s statements on the loop; the rows become the ORM's own
instances exactly as the synchronous read builds them.

PostgreSQL only: elsewhere (the embedded SQLite default) ``available()`` is False and the
sockets read the usual way. A failed read drops the connection; the next one reconnects.
"""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
from django.db import connection

from config.statements import joined
from games import selectors, table_read
from games.models import Game

APPLICATION_NAME = "fibbers-sockets"


def available() -> bool:
    return connection.vendor == "postgresql"


class LoopReader:
    """One connection per server process, opened by the first read and closed with the last
    table socket (``close``), so a process with no table open holds none."""

    def __init__(self) -> None:
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = asyncio.Lock()

    def _lock_of_this_loop(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            # A new event loop (each test has its own): what the old one held is let go.
            self.discard()
            self._loop, self._lock = loop, asyncio.Lock()
        return self._lock

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        if self._connection is not None and not self._connection.closed:
            return self._connection
        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        # Django sets the session's time zone on its own connections (ensure_timezone).
        params["options"] = f"{params.get('options', '')} -c TimeZone={connection.timezone_name}"
        params["application_name"] = APPLICATION_NAME  # how it shows in pg_stat_activity
        self._connection = await psycopg.AsyncConnection.connect(
            **params, autocommit=True, cursor_factory=psycopg.AsyncClientCursor
        )
        return self._connection

    async def game_with_seats(self, game_id: int) -> Game | None:
        """What ``selectors.game_with_seats`` answers, read without leaving the loop."""
        if not table_read.storable(game_id):
            return None
        async with self._lock_of_this_loop():
            current = await self._connect()
            try:
                async with current.cursor() as cursor:
                    await cursor.execute(*joined(table_read.read_statements(game_id)))
                    game_rows = await cursor.fetchall()
                    cursor.nextset()
                    seat_rows = await cursor.fetchall()
            except psycopg.Error:
                await self.close()
                raise
        read = table_read.build(game_rows, seat_rows)
        return None if read is None else selectors.with_seats(*read)

    def discard(self) -> None:
        """Closes the connection at once, with no loop to await on (its loop may be gone)."""
        current, self._connection = self._connection, None
        if current is not None and not current.closed:
            current.pgconn.finish()

    async def close(self) -> None:
        current, self._connection = self._connection, None
        if current is not None and not current.closed:
            await current.close()


reader = LoopReader()
