"""Pages and moves with a million games stored: fill a database, then time a running server.

``fill`` (once; about half an hour at full size on this machine) migrates a dedicated
PostgreSQL database and fills it inside PostgreSQL (``INSERT … SELECT`` over
``generate_series``) from templates played by the real engines: ``--games`` games (finished,
active, lobby, aborted in a realistic mix, newest with the highest ids), ``--events`` event rows
in all (each game's prefix of its template's log, with its engine events, audiences, actors and
idempotency keys), three seats per game spread over ``3 × games / 500`` players (so each player
has about 500 games), and one notification per game.

``measure`` starts the server (``--server gunicorn`` as in production, or ``daphne``; or
``--url``), signs in the busiest player and times, one request at a time: My games, the table
page of one of their active games, ``GET /api/games/{id}``, ``/events?after=`` and moves in a
fresh game of theirs (through the API, as bench/api_moves.py plays). It prints one JSON line
per endpoint (p50/p95 ms), the table and index sizes, and the ``EXPLAIN (ANALYZE, BUFFERS)`` of
every query the My games page runs. Run ``measure`` on an empty migrated database too
(``--database-url …_empty``, after ``fill --games 0``): a move's p50 there is the reference.

    .venv/bin/python bench/scale.py fill
    .venv/bin/python bench/scale.py measure
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

import api_moves

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/fibbers_scale"
TEMPLATE_ENGINES = ("cockroach-poker-royal", "imperador", "mogel-motte")
TEMPLATES_PER_ENGINE = 20
GAMES_PER_PLAYER = 500
SEAT_STRIDE = 997  # seat s of game g sits player (g * 7919 + s * 997) mod players: distinct
CHUNK = 50_000  # games per INSERT statement
PASSWORD = "a-long-bench-password"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["fill", "measure", "explain"])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=api_moves.DEFAULT_REDIS_URL)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--events", type=int, default=20_000_000)
    parser.add_argument("--requests", type=int, default=100, help="timed requests per endpoint")
    parser.add_argument("--moves", type=int, default=100, help="timed moves")
    parser.add_argument("--server", choices=sorted(api_moves.SERVERS), default="gunicorn")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--url", help="a running server (loopback) instead of starting one")
    parser.add_argument("--no-explain", action="store_true")
    args = parser.parse_args(argv)
    db = urlsplit(args.database_url)
    if db.scheme not in {"postgres", "postgresql"} or (db.hostname or "127.0.0.1") not in (
        api_moves.LOOPBACK
    ):
        parser.error("--database-url must be a PostgreSQL database on this machine")
    return args


def setup_django(args: argparse.Namespace) -> None:
    os.environ.update(api_moves.UNTHROTTLED)  # the EXPLAIN's in-process request too
    api_moves.ensure_database(args.database_url)
    api_moves.setup_django(args)


# --- fill -------------------------------------------------------------------------------------


def play_templates() -> list[dict[str, Any]]:
    """Whole games played by the engines' bots: every step's state, wait and event row."""
    from games.engines import registry
    from games.engines.core import Event as EngineEvent
    from games.services.change import audience

    templates = []
    rng = random.Random(15)
    for slug in TEMPLATE_ENGINES:
        engine = registry.get(slug)
        for _n in range(TEMPLATES_PER_ENGINE):
            state = engine.setup(3, {}, rng.getrandbits(63))
            steps = []
            for _move in range(engine.max_moves(3)):
                if engine.result(state) is not None:
                    break
                waiting = engine.waiting_for(state)
                seat = rng.choice(waiting.seats) if waiting.seats else None
                if seat is None:
                    break
                action = engine.bot_action(state, seat, rng)
                state, events = engine.apply(state, seat, action)
                after = engine.waiting_for(state)
                rows: list[EngineEvent] = events
                steps.append(
                    {
                        "seat": seat,
                        "action": action,
                        "events": [e.to_dict() for e in rows],
                        "audience": audience(seat, rows),
                        "state": state,
                        "wait_kind": "" if after.kind == "none" else after.kind,
                        "wait_seat": after.seats[0] if after.kind == "turn" else None,
                    }
                )
            if steps:
                templates.append({"engine": slug, "steps": steps, "result": engine.result(state)})
    return templates


def fill(args: argparse.Namespace) -> None:
    from django.db import connection

    started = time.monotonic()
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM games_game")
        if cur.fetchone()[0]:
            raise SystemExit("the database already holds games: drop it first")
    if args.games == 0:
        print(json.dumps({"filled": 0, "note": "empty database, migrated"}))
        return
    templates = play_templates()
    players = max(6, 3 * args.games // GAMES_PER_PLAYER)
    per_game = args.events / args.games
    with connection.cursor() as cur:
        cur.execute("SET synchronous_commit = off")
        cur.execute("SET statement_timeout = 0")  # the site's 15 s is for requests
        cur.execute(
            "CREATE TEMP TABLE tpl (t int, engine text, len int, result jsonb)"
            "; CREATE TEMP TABLE tpl_step (t int, seq int, seat int, action jsonb, events jsonb,"
            " audience jsonb, state jsonb, wait_kind text, wait_seat int)"
        )
        for t, tpl in enumerate(templates):
            cur.execute(
                "INSERT INTO tpl VALUES (%s, %s, %s, %s)",
                [t, tpl["engine"], len(tpl["steps"]), json.dumps(tpl["result"])],
            )
            cur.executemany(
                "INSERT INTO tpl_step VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    (
                        t,
                        i + 1,
                        s["seat"],
                        json.dumps(s["action"]),
                        json.dumps(s["events"]),
                        json.dumps(s["audience"]),
                        json.dumps(s["state"]),
                        s["wait_kind"],
                        s["wait_seat"],
                    )
                    for i, s in enumerate(tpl["steps"])
                ],
            )
        cur.execute("CREATE INDEX ON tpl_step (t, seq)")
        # Players: ids base .. base + players - 1, all with the same (slow to hash) password.
        from django.contrib.auth.hashers import make_password

        from accounts.models import default_push_kinds

        cur.execute(
            """INSERT INTO accounts_user (password, is_superuser, username, first_name,
                 last_name, email, is_staff, is_active, date_joined, display_name, avatar_colour,
                 language, time_zone, email_preference, email_reminders, ban_reason,
                 vacation_days_used, vacation_year, push_devices, push_kinds)
               SELECT %s, false, 'scale' || n, '', '', 'scale' || n || '@bench.invalid', false,
                 true, now(), '', '#3366cc', 'en', 'UTC', 'each', true, '', 0, 0, 0, %s
               FROM generate_series(0, %s - 1) n""",
            [make_password(PASSWORD), json.dumps(default_push_kinds()), players],
        )
        cur.execute("SELECT min(id) FROM accounts_user WHERE username LIKE 'scale%%'")
        base = cur.fetchone()[0]
        print(f"{players} players from id {base}; {len(templates)} templates", file=sys.stderr)
        ntpl = len(templates)
        # A game's shape from its number g (1-based): template, status, length.
        game_sql = """
            WITH g AS (
              SELECT n AS g, n %% %(ntpl)s AS t,
                     CASE WHEN abs(hashint8(n)) %% 100 < 88 THEN 'finished'
                          WHEN abs(hashint8(n)) %% 100 < 96 THEN 'active'
                          WHEN abs(hashint8(n)) %% 100 < 98 THEN 'lobby' ELSE 'aborted' END AS status,
                     greatest(1, round(%(per_game)s * (0.25 + abs(hashint8(n + 7)) %% 1000 / 666.0)))::int
                       AS want,
                     now() - make_interval(secs => (%(games)s - n) * 90.0) AS created
              FROM generate_series(%(lo)s::bigint, %(hi)s::bigint) n)
            INSERT INTO games_game (id, engine, rules_version, options, seats_count, pace,
              move_seconds, window_seconds, join_policy, allow_spectators, status, seed, state,
              version, revision, seat_versions, seat_revisions, wait_seq, wait_kind, wait_window,
              wait_seat, wait_opened_at, deadline_at, sweep_failures, sweep_after, result,
              created_by_id, created_at, started_at, finished_at, learning, spectator_chat,
              wait_mask, start_when_full)
            SELECT g.g, tpl.engine, 2, '{}', 3, 'daily', 86400, 3600, 'invited', true, g.status,
              hashint8(g.g), CASE WHEN g.status = 'lobby' THEN NULL ELSE s.state END,
              CASE WHEN g.status = 'lobby' THEN 0 ELSE least(g.want, tpl.len) END,
              least(g.want, tpl.len) + 3, '[]', '[]',
              least(g.want, tpl.len), CASE WHEN g.status = 'active' THEN s.wait_kind ELSE '' END,
              '', CASE WHEN g.status = 'active' THEN s.wait_seat END,
              CASE WHEN g.status = 'active' THEN now() - interval '2 hours' END,
              CASE WHEN g.status = 'active'
                   THEN now() + make_interval(secs => 3600 + g.g %% 80000) END,
              0, NULL, CASE WHEN g.status = 'finished' THEN tpl.result END,
              %(base)s + (g.g * 7919) %% %(players)s, g.created,
              CASE WHEN g.status <> 'lobby' THEN g.created + interval '5 minutes' END,
              CASE WHEN g.status IN ('finished', 'aborted')
                   THEN g.created + make_interval(hours => (1 + g.g %% 200)::int) END,
              false, 'read',
              CASE WHEN g.status = 'active' AND s.wait_seat IS NOT NULL
                   THEN 1 << s.wait_seat ELSE 0 END,
              false
            FROM g JOIN tpl ON tpl.t = g.t
            JOIN tpl_step s ON s.t = g.t AND s.seq = least(g.want, tpl.len)"""
        seat_sql = """
            INSERT INTO games_seat (index, is_bot, bot_reason, joined_at, consecutive_timeouts,
              game_id, user_id)
            SELECT s, false, '', g.created_at, 0, g.id,
              %(base)s + (g.id * 7919 + s * 997) %% %(players)s
            FROM games_game g CROSS JOIN generate_series(0, 2) s
            WHERE g.id BETWEEN %(lo)s AND %(hi)s"""
        event_sql = """
            INSERT INTO games_event (seq, seat, action, events, reason, key, created_at,
              actor_id, game_id, audience)
            SELECT s.seq, s.seat, s.action, s.events, 'move',
              CASE WHEN s.seq %% 2 = 0 THEN md5(g.id || '-' || s.seq) ELSE '' END,
              g.created_at + make_interval(mins => s.seq * 7), %(base)s
                + (g.id * 7919 + s.seat * 997) %% %(players)s, g.id, s.audience
            FROM games_game g JOIN tpl_step s ON s.t = g.id %% %(ntpl)s AND s.seq <= g.version
            WHERE g.id BETWEEN %(lo)s AND %(hi)s"""
        note_sql = """
            INSERT INTO accounts_notification (kind, game_id, text, url, created_at, read_at,
              email, emailed_at, user_id, wait_seq, push, email_attempts, language)
            SELECT CASE WHEN g.status = 'finished' THEN 'finished' ELSE 'turn' END,
              g.id, 'Your turn in Cockroach Poker Royal #' || g.id || '.',
              '/games/' || g.id || '/', coalesce(g.finished_at, g.created_at),
              CASE WHEN g.status = 'active' THEN NULL ELSE g.created_at + interval '1 day' END,
              '', NULL, %(base)s + (g.id * 7919) %% %(players)s, g.wait_seq, '', 0, 'en'
            FROM games_game g WHERE g.id BETWEEN %(lo)s AND %(hi)s"""
        values = {"ntpl": ntpl, "per_game": per_game, "games": args.games}
        values.update(base=base, players=players)
        for lo in range(1, args.games + 1, CHUNK):
            hi = min(args.games, lo + CHUNK - 1)
            for sql in (game_sql, seat_sql, event_sql, note_sql):
                cur.execute(sql, {**values, "lo": lo, "hi": hi})
            print(
                f"games {hi}/{args.games} after {time.monotonic() - started:.0f} s",
                file=sys.stderr,
            )
        cur.execute("SELECT setval(pg_get_serial_sequence('games_game', 'id'), %s)", [args.games])
        cur.execute("SELECT count(*) FROM games_event")
        events = cur.fetchone()[0]
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE")
    print(
        json.dumps(
            {
                "filled_games": args.games,
                "events": events,
                "players": players,
                "seconds": round(time.monotonic() - started),
            }
        )
    )


# --- measure ----------------------------------------------------------------------------------


class Client:
    def __init__(self, base_url: str, cookie: str = "", token: str = "") -> None:
        parts = urlsplit(base_url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        self.headers = {"Content-Type": "application/json"}
        if cookie:
            self.headers["Cookie"] = cookie
        if token:
            self.headers["Authorization"] = f"Bearer {token}"

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, bytes, float]:
        data = None if body is None else json.dumps(body)
        start = time.perf_counter()
        self.conn.request(method, path, body=data, headers=self.headers)
        response = self.conn.getresponse()
        payload = response.read()
        return response.status, payload, time.perf_counter() - start


def timed(name: str, client: Client, path: str, n: int) -> dict[str, Any]:
    times, errors = [], 0
    for _ in range(3):
        client.call("GET", path)  # warm
    for _ in range(n):
        status, _body, seconds = client.call("GET", path)
        if status == 200:
            times.append(seconds)
        else:
            errors += 1
    return {
        "endpoint": name,
        "path": path,
        "requests": len(times),
        "p50_ms": api_moves.percentile(times, 50),
        "p95_ms": api_moves.percentile(times, 95),
        "errors": errors,
    }


def busiest_player() -> Any:
    from django.db.models import Count

    from accounts.models import User

    return (
        User.objects.filter(username__startswith="scale")
        .annotate(n=Count("seats"))
        .order_by("-n")
        .first()
    ) or User.objects.create_user("scale0", "scale0@bench.invalid", PASSWORD)


def explain_my_games(user: Any) -> list[dict[str, Any]]:
    """Every query the My games page runs for the user, with its plan on this data set."""
    from django.db import connection
    from django.test import Client as DjangoClient
    from django.test.utils import CaptureQueriesContext

    client = DjangoClient(SERVER_NAME="127.0.0.1")  # an allowed host
    client.force_login(user)
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/games/").status_code == 200
    plans = []
    with connection.cursor() as cur:
        for query in captured.captured_queries:
            sql = query["sql"]
            # a prepared statement (config/statements.py) is explained by its EXECUTE, on the
            # connection that prepared it (this one; its first run was "PREPARE …; EXECUTE …")
            if "EXECUTE " in sql:
                sql = sql[sql.rindex("EXECUTE ") :]
            elif not sql.startswith("SELECT") or "games_game" not in sql:
                continue
            cur.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
            plans.append({"sql": sql, "plan": [row[0] for row in cur.fetchall()]})
    return plans


def sizes() -> list[dict[str, Any]]:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(
            """SELECT c.relname, c.relkind, pg_relation_size(c.oid), pg_total_relation_size(c.oid),
                      coalesce(i.tbl, '')
               FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               LEFT JOIN (SELECT indexrelid, indrelid::regclass::text AS tbl FROM pg_index) i
                 ON i.indexrelid = c.oid
               WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i')
                 AND pg_total_relation_size(c.oid) > 1000000
               ORDER BY pg_total_relation_size(c.oid) DESC"""
        )
        return [
            {
                "name": name,
                "kind": "table" if kind == "r" else f"index on {table}",
                "mb": round((total if kind == "r" else size) / 1e6, 1),
            }
            for name, kind, size, total, table in cur.fetchall()
        ]


def bench_token(user: Any) -> str:
    """A fresh API token; the bench's earlier ones are revoked (a player may hold ten)."""
    from accounts.models import ApiToken
    from accounts.services import api_token_create, api_token_revoke

    for old in ApiToken.objects.filter(user=user, name="scale bench", revoked_at=None):
        api_token_revoke(user, old)
    return api_token_create(user, "scale bench")[1]


def move_fixture(user: Any) -> tuple[int, dict[str, int], dict[int, str]]:
    """A fresh three-seat game of the busiest player's, with two friends; tokens per seat."""
    from accounts.models import Friendship, User
    from accounts.services import friendship_create
    from games import services

    others = list(User.objects.filter(username__startswith="scale").exclude(pk=user.pk)[:2])
    while len(others) < 2:
        name = f"scale-x{uuid.uuid4().hex[:6]}"
        others.append(User.objects.create_user(name, f"{name}@bench.invalid", PASSWORD))
    for a, b in ((user, others[0]), (user, others[1]), (others[0], others[1])):
        if not Friendship.objects.filter(
            user_low=min(a.pk, b.pk), user_high=max(a.pk, b.pk)
        ).exists():
            friendship_create(a, b)
    tokens = {u.username: bench_token(u) for u in (user, *others)}
    game = services.game_create(
        user,
        engine="cockroach-poker-royal",
        seats=3,
        invite=[o.username for o in others],
    )
    for other in others:
        services.game_join(other, game.pk)
    services.game_start(user, game.pk)
    seats = {s.index: s.user.username for s in game.seats.select_related("user")}
    return game.pk, {u: 0 for u in tokens}, {i: tokens[name] for i, name in seats.items()}


def time_moves(base_url: str, user: Any, n: int) -> dict[str, Any]:
    from games.engines import registry

    engine = registry.get("cockroach-poker-royal")
    rng = random.Random(15)
    times: list[float] = []
    errors = 0
    game_id, _unused, tokens = move_fixture(user)
    clients = {seat: Client(base_url, token=token) for seat, token in tokens.items()}
    while len(times) < n:
        any_client = clients[0]
        status, body, _ms = any_client.call("GET", f"/api/games/{game_id}")
        game = json.loads(body)
        if game["status"] != "active":
            game_id, _unused, tokens = move_fixture(user)
            clients = {seat: Client(base_url, token=token) for seat, token in tokens.items()}
            continue
        seat = game["waiting_for"]["seats"][0] if game["waiting_for"]["seats"] else 0
        status, body, _ms = clients[seat].call("GET", f"/api/games/{game_id}")
        game = json.loads(body)
        if not game["legal_actions"]:
            errors += 1
            continue
        action = rng.choice(game["legal_actions"])
        status, body, seconds = clients[seat].call(
            "POST",
            f"/api/games/{game_id}/actions",
            {"version": game["version"], "action": action, "key": uuid.uuid4().hex},
        )
        if status == 200:
            times.append(seconds)
        else:
            errors += 1
    del engine
    return {
        "endpoint": "move",
        "requests": len(times),
        "p50_ms": api_moves.percentile(times, 50),
        "p95_ms": api_moves.percentile(times, 95),
        "errors": errors,
    }


def measure(args: argparse.Namespace) -> None:
    from django.test import Client as DjangoClient

    from accounts.models import ApiToken
    from games.models import Event, Game

    user = busiest_player()
    mine = Game.objects.filter(seats__user=user)
    # a game of the filled data, not one an earlier measure made for its moves
    first_run = (
        ApiToken.objects.filter(user=user, name="scale bench").order_by("created_at").first()
    )
    filled = mine if first_run is None else mine.filter(created_at__lt=first_run.created_at)
    active = filled.filter(status=Game.Status.ACTIVE).order_by("-pk").first()
    longest = (
        filled.filter(status=Game.Status.ACTIVE).order_by("-version").first() if active else None
    )
    print(
        json.dumps(
            {
                "player": user.username,
                "games": mine.count(),
                "active": mine.filter(status=Game.Status.ACTIVE).count(),
                "games_total": Game.objects.count(),
                "events_total_estimate": _estimate(Event._meta.db_table),
            }
        ),
        flush=True,
    )
    session = DjangoClient()
    session.force_login(user)
    cookie = f"sessionid={session.cookies['sessionid'].value}"
    token = bench_token(user)
    proc = None
    with tempfile.TemporaryDirectory(prefix="fibbers-scale-") as tmp:
        log_path = Path(tmp) / "server.log"
        try:
            if args.url:
                base_url = args.url.rstrip("/")
            else:
                proc, base_url = api_moves.start_server(args, dict(os.environ), log_path)
                _wait_up(base_url, proc, log_path)
            print(json.dumps({"server": args.url or args.server, "url": base_url}), flush=True)
            pages = Client(base_url, cookie=cookie)
            api = Client(base_url, token=token)
            results = [timed("my_games", pages, "/games/", args.requests)]
            if active is not None:
                results.append(timed("table", pages, f"/games/{active.pk}/", args.requests))
                results.append(timed("api_game", api, f"/api/games/{active.pk}", args.requests))
                target = longest or active
                results.append(
                    timed(
                        "api_events",
                        api,
                        f"/api/games/{target.pk}/events?after=0",
                        args.requests,
                    )
                )
            results.append(time_moves(base_url, user, args.moves))
            for line in results:
                print(json.dumps(line), flush=True)
        finally:
            api_moves.stop_server(proc)
    print(json.dumps({"sizes": sizes()}), flush=True)
    if not args.no_explain:
        for plan in explain_my_games(user):
            print("-- " + plan["sql"])
            print("\n".join(plan["plan"]))


def _estimate(table: str) -> int:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT reltuples::bigint FROM pg_class WHERE relname = %s", [table])
        row = cur.fetchone()
    return int(row[0]) if row else 0


def _wait_up(base_url: str, proc: Any, log_path: Path) -> None:
    parts = urlsplit(base_url)
    deadline = time.monotonic() + api_moves.SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(log_path.read_text(errors="replace")[-3000:])
        try:
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
            conn.request("GET", "/")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("the server did not come up")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    setup_django(args)
    if args.command == "fill":
        fill(args)
    elif args.command == "explain":
        for plan in explain_my_games(busiest_player()):
            print("-- " + plan["sql"])
            print("\n".join(plan["plan"]))
    else:
        measure(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
