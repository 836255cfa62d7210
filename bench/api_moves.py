"""Move throughput through the JSON API, next to a floor endpoint, in one run.

Creates its own players, friendships, API tokens and N three-seat games (all seats human) in
a dedicated PostgreSQL database (created and migrated if missing), starts Daphne on a free
loopback port with BENCH_ENDPOINTS=1 (or uses --url), then runs these phases with the same
concurrency and duration:

* moves: N client threads, each playing its own game through the API: GET the game as the
  seat it waits on, POST a random action from ``legal_actions``; keep-alive connections;
  a game that ends is replaced by a new one made through the API (not timed).
* posts: the moves alone. Each client POSTs moves planned before the phase (untimed) by the
  pure engine from the stored state of its own started tables (``Plan``), with the version the
  last answer gave: the same requests as the moves phase's POSTs, without its GETs.
* reads: the same N games, GET only, each as the seat the moves phase last read it as.
* bare: N client threads, each GETting /bench/bare/: every middleware, no database, no work
  (games/bench.py). The least any request costs on this server setup.
* floor: N client threads, each POSTing /bench/floor/<id>/ on its own aborted game row: one
  locked read, one write, one insert (games/bench.py).

Prints one JSON line per phase and a last line with the ratios, among them ``loop_bound``: the
moves phase's throughput over the floor's if every POST cost exactly a floor request and every
GET between moves only a bare one (CPU per request; the machine saturated). Only the POSTs are the moves
phase's requests; its GETs are reported as "reads". Each phase also gives the CPU per request
of the server, PostgreSQL, Redis and the clients. See bench/README.md.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/fibbers_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/5"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
MAX_GAMES = 64
MAX_SECONDS = 300
SEATS = 3
ENGINE = "cockroach-poker-royal"  # the default: its offers answer with ~300 legal actions
SERVER_START_SECONDS = 60
REQUEST_TIMEOUT = 30
SERVERS = {"daphne", "gunicorn", "uvicorn"}
# All clients share one loopback address and few tokens: the request guard's per-minute limits
# (config/guard.py) would answer most of the floor's requests 429 and measure nothing.
UNTHROTTLED = {"LIMIT_WRITES_PER_MINUTE": "10000000", "LIMIT_IP_PER_MINUTE": "10000000"}
STOP = threading.Event()  # set on the way out: clients finish their request and stop


# --- Arguments and environment ------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="concurrent games = client threads")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per phase")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds per phase")
    parser.add_argument("--engine", default=ENGINE)
    parser.add_argument("--url", help="a running server (loopback) instead of starting one")
    parser.add_argument(
        "--server",
        choices=sorted(SERVERS),
        default="daphne",
        help="daphne: one ASGI process (make run's shape); gunicorn: pre-fork WSGI (production "
        "HTTP); uvicorn: ASGI with --workers processes",
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn/uvicorn processes")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads per process")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="'' for no Redis")
    parser.add_argument("--seed", type=int, default=None, help="seed for the clients' choices")
    parser.add_argument("--keep", action="store_true", help="keep the players and games made")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="moves and floor phases alternate this many times (each --seconds long) and are "
        "summed: the machine's drift between a moves and a floor phase cancels out",
    )
    parser.add_argument(
        "--spares",
        type=int,
        default=None,
        help="started tables made per client before the moves phases, played when its game ends "
        "(with none left, a client makes one through the API inside the phase); default: "
        "1.5 a measured or warm-up second (a Cockroach Poker game lasts ~55 moves, a client "
        "makes up to ~60 a second)",
    )
    parser.add_argument(
        "--plans",
        type=int,
        default=None,
        help="started tables per client with their moves planned, for the posts phase; "
        "default: 2 a measured or warm-up second (moves alone go ~1.5x as fast)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.games <= MAX_GAMES:
        parser.error(f"--games must be between 1 and {MAX_GAMES}")
    if not 1 <= args.seconds <= MAX_SECONDS or not 0 <= args.warmup <= 30:
        parser.error(f"--seconds must be 1..{MAX_SECONDS}, --warmup 0..30")
    if not 1 <= args.rounds <= 20:
        parser.error("--rounds must be 1..20")
    if args.spares is None:
        args.spares = math.ceil(1.5 * args.rounds * (args.seconds + args.warmup))
    if args.plans is None:
        args.plans = math.ceil(2 * args.rounds * (args.seconds + args.warmup))
    db = urlsplit(args.database_url)
    if db.scheme not in {"postgres", "postgresql"} or (db.hostname or "127.0.0.1") not in LOOPBACK:
        parser.error("--database-url must be a PostgreSQL database on this machine")
    if args.url and urlsplit(args.url).hostname not in LOOPBACK:
        parser.error("--url must be a loopback address")
    return args


def ensure_database(database_url: str) -> None:
    """Creates the bench database when it is missing."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(database_url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        print(f"created database {name}", file=sys.stderr)


def redis_reachable(redis_url: str) -> bool:
    parts = urlsplit(redis_url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), 2):
            return True
    except OSError:
        return False


def setup_django(args: argparse.Namespace) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.local"
    os.environ["DATABASE_URL"] = args.database_url
    os.environ["REDIS_URL"] = args.redis_url
    os.environ["DB_POOL"] = "false"  # this process only sets up and cleans up
    os.environ["DEBUG"] = "false"
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)


# --- Fixtures in the database -----------------------------------------------------------------


@dataclass
class Plan:
    """A started table and every move of a game played on it to the end, worked out before
    the posts phase by the pure engine from the table's stored state (untimed)."""

    game_id: int
    token_of_seat: dict[int, str]
    version: int
    moves: list[tuple[int, Any]]  # (seat, action), in order


@dataclass
class Table:
    game_id: int
    usernames: list[str]  # the creator first
    tokens: list[str]  # same order as usernames
    # started tables of the same players, made before the phase: (game id, token of each seat)
    spares: list[tuple[int, dict[int, str]]] = field(default_factory=list)
    # more such tables, each with its moves planned to the end (the posts phase)
    plans: list[Plan] = field(default_factory=list)


@dataclass
class Fixtures:
    user_ids: list[int]
    tables: list[Table]
    floor_game_ids: list[int]


def befriend(players: list[Any]) -> None:
    from accounts.services import friendship_create

    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            friendship_create(a, b)


def new_friends(prefix: str, count: int) -> list[Any]:
    """``count`` new players, friends of each other, named ``<prefix><random tag><i>``."""
    from accounts.models import User

    tag = uuid.uuid4().hex[:8]
    players = [
        User.objects.create_user(
            username=f"{prefix}{tag}{i}", email=f"{prefix}{tag}{i}@bench.invalid"
        )
        for i in range(count)
    ]
    befriend(players)
    return players


def delete_players(user_ids: list[int]) -> None:
    """These players, and every table they made or sat at."""
    from accounts.models import User
    from games.models import Game

    Game.objects.filter(created_by_id__in=user_ids).delete()
    Game.objects.filter(seats__user_id__in=user_ids).delete()
    User.objects.filter(pk__in=user_ids).delete()


def started_table(players: list[Any], engine: str) -> int:
    """A started table of ``engine`` with these players (friends of the first, who creates it
    and invites the others; they join); returns its id."""
    from games import services

    creator, *others = players
    game = services.game_create(
        creator, engine=engine, seats=len(players), invite=[u.username for u in others]
    )
    for user in others:
        services.game_join(user, game.pk)
    services.game_start(creator, game.pk)
    return game.pk


def seat_tokens(game_id: int, players: list[Any], tokens: list[str]) -> dict[int, str]:
    """Which of these players' tokens sits at each seat of the game."""
    from games.models import Seat

    token_of = {user.pk: token for user, token in zip(players, tokens, strict=True)}
    return {
        index: token_of[user_id]
        for index, user_id in Seat.objects.filter(game_id=game_id).values_list("index", "user_id")
    }


def planned_table(players: list[Any], tokens: list[str], engine: str, rng: random.Random) -> Plan:
    """A started table of these players and a random game on it, played to its end by the
    engine alone: a seat that may act, one of its legal actions, as the moves phase chooses."""
    from games.engines import registry
    from games.models import Game

    rules = registry.ENGINES[engine]
    game_id = started_table(players, engine)
    game = Game.objects.only("state", "version").get(pk=game_id)
    state = game.state
    moves: list[tuple[int, Any]] = []
    while rules.result(state) is None:
        choices = [
            (seat, legal)
            for seat in rules.waiting_for(state).seats
            if (legal := rules.legal_actions(state, seat))
        ]
        if not choices:
            break  # a window only a deadline closes: the plan ends here
        seat, legal = choices[0]
        action = rng.choice(legal)
        state, _ = rules.apply(state, seat, action)
        moves.append((seat, action))
    return Plan(game_id, seat_tokens(game_id, players, tokens), game.version, moves)


def create_fixtures(
    tag: str,
    games: int,
    engine: str,
    spares: int = 0,
    plans: int = 0,
    rng: random.Random | None = None,
) -> Fixtures:
    from accounts.models import User
    from accounts.services import api_token_create
    from games.engines import registry

    if engine not in registry.ENGINES:
        raise SystemExit(f"unknown engine {engine!r}; one of {sorted(registry.ENGINES)}")
    user_ids: list[int] = []
    tables: list[Table] = []
    floor_game_ids: list[int] = []
    for g in range(games):
        players = []
        for s in range(SEATS):
            name = f"bench{tag}g{g}s{s}"
            user = User.objects.create_user(username=name, email=f"{name}@bench.invalid")
            user_ids.append(user.pk)
            players.append(user)
        befriend(players)
        game_id = started_table(players, engine)
        tokens = [api_token_create(user, "bench")[1] for user in players]
        table = Table(game_id, [u.username for u in players], tokens)
        for _ in range(spares):
            spare = started_table(players, engine)
            table.spares.append((spare, seat_tokens(spare, players, tokens)))
        for _ in range(plans):
            table.plans.append(planned_table(players, tokens, engine, rng or random.Random()))
        tables.append(table)
        floor_game_ids.append(floor_game(engine, players[0]))
    return Fixtures(user_ids, tables, floor_game_ids)


def mover(game_id: int, players: list[Any]) -> tuple[Any, dict[str, Any]] | None:
    """The first of ``players`` who may move at this table and the game as they see it (its
    legal actions included), or None when it is over or (a live window none of them may
    answer) nobody may: the in-process benches' way to play a table through the services."""
    from games import selectors
    from games.models import Game

    for player in players:
        payload = selectors.game_payload(selectors.visible_game(game_id, player), player)
        if payload["status"] != Game.Status.ACTIVE:
            return None
        if payload["legal_actions"]:
            return player, payload
    return None


def floor_game(engine: str, creator: Any) -> int:
    """An aborted game row for the floor endpoint (games/bench.py) to lock, step and log on."""
    from games.models import Game

    return Game.objects.create(
        engine=engine,
        seats_count=SEATS,
        move_seconds=86400,
        window_seconds=3600,
        status=Game.Status.ABORTED,
        seed=0,
        created_by=creator,
    ).pk


def delete_fixtures(fixtures: Fixtures) -> None:
    delete_players(fixtures.user_ids)


# --- The server ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(args: argparse.Namespace, base_env: dict[str, str], log_path: Path):
    port = free_port()
    env = dict(base_env)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DATABASE_URL=args.database_url,
        REDIS_URL=args.redis_url,
        BENCH_ENDPOINTS="1",
        DEBUG="false",  # DEBUG keeps every query in memory
        LOG_LEVEL="WARNING",
    )
    env.update(UNTHROTTLED)
    env.pop("DB_POOL", None)  # the pool is on, as in production
    log = log_path.open("wb")
    bind = f"127.0.0.1:{port}"
    cmd = {
        "daphne": ["-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "-v", "0"],
        "gunicorn": [
            "-m",
            "gunicorn",
            "-b",
            bind,
            "-w",
            str(args.workers),
            "--threads",
            str(args.threads),
            "--log-level",
            "warning",
            "config.wsgi:application",
        ],
        "uvicorn": [
            "-m",
            "uvicorn",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(args.workers),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
    }[args.server]
    if args.server != "gunicorn":
        cmd.append("config.asgi:application")
    proc = subprocess.Popen(
        [sys.executable, *cmd],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # Ctrl-C reaches the bench, which stops the server itself
    )
    log.close()
    return proc, f"http://127.0.0.1:{port}"


def stop_server(proc: subprocess.Popen | None) -> None:
    """SIGTERM, then SIGKILL: Daphne never exits by itself if SIGTERM lands while requests are
    in flight (their sync threads wait on the stopped event loop and block interpreter exit)."""
    if proc is None or proc.poll() is not None:
        return
    # the server runs in its own session: its worker processes go with it
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def wait_ready(
    base_url: str, floor_game_id: int, proc, log_path: Path | None, database_url: str
) -> None:
    """Ready when the floor endpoint answers 200 (which also proves bench mode is on)."""
    deadline = time.monotonic() + SERVER_START_SECONDS
    parts = urlsplit(base_url)
    last = "no answer"
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            tail = log_path.read_text(errors="replace")[-3000:] if log_path else ""
            raise SystemExit(f"the server exited with {proc.returncode}:\n{tail}")
        try:
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
            conn.request("POST", f"/bench/floor/{floor_game_id}/")
            response = conn.getresponse()
            response.read()
            conn.close()
            if response.status == 200:
                return
            last = f"HTTP {response.status}"
            if response.status == 404 and proc is None:
                raise SystemExit(
                    f"{base_url} has no /bench/floor/: run it with BENCH_ENDPOINTS=1 and "
                    f"DATABASE_URL={database_url}"
                )
        except OSError as exc:
            last = str(exc)
        time.sleep(0.2)
    raise SystemExit(f"the server at {base_url} did not answer in time ({last})")


# --- Clients ------------------------------------------------------------------------------


class Http:
    """One keep-alive connection; reconnects after a failure."""

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=REQUEST_TIMEOUT)

    def call(
        self, method: str, path: str, token: str | None = None, body: Any = None
    ) -> tuple[int, Any, float, float]:
        """(status, parsed body or None, started, seconds)."""
        headers = {}
        payload = None
        if body is not None:
            payload = orjson.dumps(body)
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        started = time.perf_counter()
        try:
            self.conn.request(method, path, body=payload, headers=headers)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            return 0, None, started, time.perf_counter() - started
        seconds = time.perf_counter() - started
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
        # orjson: the clients share the cores with the server they measure, and a move's
        # answers (hundreds of legal actions) cost the stdlib decoder ~3x as much CPU
        try:
            data = orjson.loads(raw) if raw else None
        except ValueError:
            data = None
        return response.status, data, started, seconds

    def close(self) -> None:
        self.conn.close()


@dataclass
class Window:
    """The measured interval; requests count when they start and end inside it."""

    start: float = math.inf
    end: float = math.inf
    stop: float = math.inf

    def counts(self, started: float, seconds: float) -> bool:
        return started >= self.start and started + seconds <= self.end


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    conflicts: int = 0
    reads: list[float] = field(default_factory=list)
    read_errors: int = 0
    games_finished: int = 0
    games_made: int = 0
    spares_used: int = 0
    stuck: int = 0
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.notes) < 5:
            self.notes.append(text)

    def count(
        self, window: Window, status: int, started: float, seconds: float, what: str, body: Any
    ) -> None:
        """A phase's request: its latency if answered 200 inside the window, else an error
        (noted with the start of its answer)."""
        if not window.counts(started, seconds):
            return
        if status == 200:
            self.latencies.append(seconds)
        else:
            self.errors += 1
            self.note(f"{what} HTTP {status}: {str(body)[:200]}")


class Player:
    """Plays one table through the API, as whichever of its three seats the game waits on."""

    def __init__(self, base_url: str, table: Table, engine: str, rng: random.Random) -> None:
        self.http = Http(base_url)
        self.table = table
        self.engine = engine
        self.rng = rng
        self.tally = Tally()
        self.token_of_seat: dict[int, str] = {}
        self.body: dict[str, Any] | None = None
        self.body_seat: int | None = None

    def prepare(self) -> None:
        """Learns which token sits where (untimed)."""
        self.token_of_seat.clear()
        for token in self.table.tokens:
            status, body, _, _ = self.http.call("GET", self._game_path(), token)
            if status != 200:
                raise RuntimeError(f"GET game {self.table.game_id}: HTTP {status} {body}")
            self.token_of_seat[body["seat"]] = token
            self.body, self.body_seat = body, body["seat"]

    def _game_path(self) -> str:
        return f"/api/games/{self.table.game_id}"

    def new_game(self) -> None:
        """A fresh table made through the API (untimed): create, two joins, start."""
        creator, *others = self.table.tokens
        status, body, _, _ = self.http.call(
            "POST",
            "/api/games",
            creator,
            {"game": self.engine, "seats": SEATS, "invite": self.table.usernames[1:]},
        )
        if status != 201:
            raise RuntimeError(f"create game: HTTP {status} {body}")
        self.table.game_id = body["id"]
        for token in others:
            status, body, _, _ = self.http.call("POST", f"{self._game_path()}/join", token)
            if status != 200:
                raise RuntimeError(f"join: HTTP {status} {body}")
        status, body, _, _ = self.http.call("POST", f"{self._game_path()}/start", creator)
        if status != 200:
            raise RuntimeError(f"start: HTTP {status} {body}")
        self.tally.games_made += 1
        self.prepare()

    def _read(self, seat: int, window: Window) -> dict[str, Any] | None:
        status, body, started, seconds = self.http.call(
            "GET", self._game_path(), self.token_of_seat[seat]
        )
        if window.counts(started, seconds):
            if status == 200:
                self.tally.reads.append(seconds)
            else:
                self.tally.read_errors += 1
        if status != 200:
            self.tally.note(f"GET HTTP {status}")
            return None
        self.body, self.body_seat = body, seat
        return body

    def next_table(self, window: Window) -> None:
        """A spare table if one is left (its first read is one of the phase's reads, as the
        reads between moves), else a new one made through the API."""
        if not self.table.spares:
            self.new_game()
            return
        self.table.game_id, seats = self.table.spares.pop(0)
        self.token_of_seat = dict(seats)
        self.tally.spares_used += 1
        self.body = self.body_seat = None
        self._read(min(seats), window)

    def step(self, window: Window) -> None:
        body = self.body
        if body is None or body["status"] != "active":
            if body is not None and body["status"] == "finished":
                self.tally.games_finished += 1
            self.next_table(window)
            return
        shown = list((body.get("waiting_for") or {}).get("seats") or [])
        order = shown + [s for s in sorted(self.token_of_seat) if s not in shown]
        for seat in order:
            if seat != self.body_seat:
                # Nobody else moves in this game: the body we hold stays current for its seat.
                body = self._read(seat, window)
                if body is None:
                    return
            if body["status"] != "active":
                return
            if body["legal_actions"]:
                break
        else:
            self.tally.stuck += 1
            self.tally.note(f"game {self.table.game_id}: no seat has a legal action")
            self.body = None
            return
        seat = self.body_seat
        action = self.rng.choice(body["legal_actions"])
        status, answer, started, seconds = self.http.call(
            "POST",
            f"{self._game_path()}/actions",
            self.token_of_seat[seat],
            {"version": body["version"], "action": action, "key": uuid.uuid4().hex},
        )
        counted = window.counts(started, seconds)
        if status == 200:
            if counted:
                self.tally.latencies.append(seconds)
            self.body = answer
            return
        if counted:
            self.tally.errors += 1
            if status == 409:
                self.tally.conflicts += 1
        self.tally.note(f"POST action HTTP {status}: {str(answer)[:200]}")
        game = (answer or {}).get("game") if isinstance(answer, dict) else None
        self.body = game if isinstance(game, dict) and game.get("seat") == seat else None
        if self.body is None:
            self.body_seat = None
            self._read(order[0], window)


class Reader(Player):
    """The GET alone: reads its table as the seat the moves phase last held, again and again
    (the same games, left as the moves phase left them). Its requests are the phase's."""

    def prepare(self) -> None:
        seat = self.body_seat
        super().prepare()
        self.body_seat = seat if seat in self.token_of_seat else self.body_seat

    def step(self, window: Window) -> None:
        assert self.body_seat is not None
        status, body, started, seconds = self.http.call(
            "GET", self._game_path(), self.token_of_seat[self.body_seat]
        )
        self.tally.count(window, status, started, seconds, "GET", body)


class PlannedPlayer:
    """The moves alone: POSTs the moves planned for its tables (``Plan``), one after the
    other, with the version the last answer gave, and no GET: what a move costs without the
    reads a client needs to choose one (the reads phase measures those)."""

    def __init__(self, base_url: str, table: Table) -> None:
        self.http = Http(base_url)
        self.table = table
        self.tally = Tally()
        self.plan: Plan | None = None

    def prepare(self) -> None:
        pass

    def step(self, window: Window) -> None:
        plan = self.plan
        if plan is None or not plan.moves:
            if plan is not None:
                self.tally.games_finished += 1
            if not self.table.plans:
                raise RuntimeError("no planned table left: raise --plans")
            self.plan = plan = self.table.plans.pop(0)
            self.tally.spares_used += 1
        seat, action = plan.moves.pop(0)
        status, answer, started, seconds = self.http.call(
            "POST",
            f"/api/games/{plan.game_id}/actions",
            plan.token_of_seat[seat],
            {"version": plan.version, "action": action, "key": uuid.uuid4().hex},
        )
        self.tally.count(window, status, started, seconds, "POST action", answer)
        if status == 200:
            plan.version = answer["version"]
        else:
            plan.moves.clear()  # the table is not where the plan thought: take the next


class BareClient:
    def __init__(self, base_url: str) -> None:
        self.http = Http(base_url)
        self.tally = Tally()

    def prepare(self) -> None:
        pass

    def step(self, window: Window) -> None:
        status, body, started, seconds = self.http.call("GET", "/bench/bare/")
        self.tally.count(window, status, started, seconds, "bare", body)


class FloorClient:
    def __init__(self, base_url: str, game_id: int) -> None:
        self.http = Http(base_url)
        self.game_id = game_id
        self.tally = Tally()

    def prepare(self) -> None:
        pass

    def step(self, window: Window) -> None:
        status, body, started, seconds = self.http.call("POST", f"/bench/floor/{self.game_id}/")
        self.tally.count(window, status, started, seconds, "floor", body)


# --- Where the CPU goes -----------------------------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(server_group: int | None) -> dict[str, float]:
    """CPU seconds used so far (user + system) by the server's process group, all PostgreSQL
    processes, Redis and this process (the clients), read from /proc: on a machine whose
    cores they share, the phase's throughput is the inverse of their sum per request."""
    used = {"server": 0.0, "postgres": 0.0, "redis": 0.0}
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat") as stat:
                    raw = stat.read()
            except OSError:
                continue  # gone meanwhile
            command = raw[raw.index("(") + 1 : raw.rindex(")")]
            fields = raw[raw.rindex(")") + 2 :].split()  # fields[0] is stat's third field
            # utime, stime, and cutime, cstime: what its children that ended used (the
            # postmaster reaps backends and autovacuum workers that exit within a phase; without
            # theirs, PostgreSQL's CPU in a phase could come out negative)
            seconds = sum(int(f) for f in fields[11:15]) / CLOCK_TICKS
            if server_group is not None and int(fields[2]) == server_group:
                used["server"] += seconds
            elif command.startswith("postgres"):
                used["postgres"] += seconds
            elif command.startswith("redis-server"):
                used["redis"] += seconds
    used["clients"] = sum(os.times()[:2])
    return used


def run_phase(
    clients: list, warmup: float, seconds: float, server_group: int | None = None
) -> tuple[Window, dict[str, float]]:
    """Every client steps in its own thread: warmup, then the measured window, then stop.
    Also returns the CPU seconds each part used during the window (``cpu_seconds``)."""
    window = Window()
    ready = threading.Barrier(len(clients) + 1)
    failures: list[str] = []

    def loop(client) -> None:
        try:
            client.prepare()
        except Exception as exc:
            failures.append(repr(exc))
        ready.wait()
        try:
            while time.perf_counter() < window.stop and not STOP.is_set():
                client.step(window)
        except Exception as exc:
            failures.append(repr(exc))
            client.tally.errors += 1
        finally:
            client.http.close()

    threads = [threading.Thread(target=loop, args=(c,), daemon=True) for c in clients]
    for thread in threads:
        thread.start()
    ready.wait()  # every client is prepared (untimed); the clock starts now
    window.start = time.perf_counter() + warmup
    window.end = window.start + seconds
    window.stop = window.end
    time.sleep(max(0.0, window.start - time.perf_counter()))
    before = cpu_seconds(server_group)
    time.sleep(max(0.0, window.end - time.perf_counter()))
    after = cpu_seconds(server_group)
    used = {part: after[part] - before[part] for part in before}
    for thread in threads:
        thread.join(timeout=seconds + warmup + REQUEST_TIMEOUT + 30)
    for failure in failures[:5]:
        print(f"client failed: {failure}", file=sys.stderr)
    return window, used


def add_cpu(total: dict[str, float], used: dict[str, float]) -> None:
    for part, seconds in used.items():
        total[part] = total.get(part, 0.0) + seconds


def in_process_arguments(doc: str, argv: list[str] | None) -> argparse.Namespace:
    """The arguments of the in-process benches (move_cpu, api_cpu)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    return parser.parse_args(argv)


def p50_p95(**series: list[float]) -> dict[str, float | None]:
    """``<name>_p50_ms`` and ``<name>_p95_ms`` of each series (seconds)."""
    return {
        f"{name}_p{q}_ms": percentile(values, q)
        for name, values in series.items()
        for q in (50, 95)
    }


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile, in milliseconds."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return round(ordered[rank - 1] * 1000, 2)


def summary(
    phase: str, clients: list, seconds: float, cpu: dict[str, float] | None = None
) -> dict[str, Any]:
    latencies = [x for c in clients for x in c.tally.latencies]
    line: dict[str, Any] = {
        "phase": phase,
        "concurrency": len(clients),
        "seconds": seconds,
        "requests": len(latencies),
        "per_second": round(len(latencies) / seconds, 1),
        "p50_ms": percentile(latencies, 50),
        "p95_ms": percentile(latencies, 95),
        "errors": sum(c.tally.errors for c in clients),
        "load_1m": round(os.getloadavg()[0], 2),  # the machine's load as the phase ended
    }
    if phase == "moves":
        reads = [x for c in clients for x in c.tally.reads]
        line.update(
            conflicts=sum(c.tally.conflicts for c in clients),
            reads=len(reads),
            read_p50_ms=percentile(reads, 50),
            read_p95_ms=percentile(reads, 95),
            read_errors=sum(c.tally.read_errors for c in clients),
            games_finished=sum(c.tally.games_finished for c in clients),
            games_made=sum(c.tally.games_made for c in clients),
            spares_used=sum(c.tally.spares_used for c in clients),
            stuck=sum(c.tally.stuck for c in clients),
        )
    if phase == "posts":
        line.update(
            games_finished=sum(c.tally.games_finished for c in clients),
            tables_used=sum(c.tally.spares_used for c in clients),
        )
    if cpu and latencies:
        # per counted request; in the moves phase (per move) that includes the reads between
        line["cpu_ms_per_request"] = {
            part: round(used * 1000 / len(latencies), 3) for part, used in cpu.items()
        }
        line["cpu_ms_per_request"]["total"] = round(sum(cpu.values()) * 1000 / len(latencies), 3)
    notes = [n for c in clients for n in c.tally.notes][:5]
    if notes:
        line["notes"] = notes
    return line


def cpu_total(line: dict[str, Any]) -> float | None:
    return (line.get("cpu_ms_per_request") or {}).get("total")


def post_cpu(moves: dict[str, Any], reads: dict[str, Any]) -> float | None:
    """CPU of a move's POST alone: the moves phase's CPU per move less its GETs per move at
    the reads phase's CPU per GET."""
    move, read = cpu_total(moves), cpu_total(reads)
    if not move or not read or not moves["requests"]:
        return None
    return move - moves["reads"] / moves["requests"] * read


def loop_bound(moves: dict[str, Any], bare: dict[str, Any], floor: dict[str, Any]) -> float | None:
    """The moves phase's best throughput over the floor's on this setup: each move a POST that
    costs what a floor request costs, plus the phase's GETs per move at a bare request's cost.
    On a saturated machine throughput is the inverse of the CPU per request."""
    floor_cpu, bare_cpu = cpu_total(floor), cpu_total(bare)
    if not floor_cpu or not bare_cpu or not moves["requests"]:
        return None
    reads_per_move = moves["reads"] / moves["requests"]
    return ratio(floor_cpu, floor_cpu + reads_per_move * bare_cpu)


def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a and b else None


# --- Main -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    base_env = dict(os.environ)
    ensure_database(args.database_url)
    if args.redis_url and not redis_reachable(args.redis_url):
        print(
            f"no Redis at {args.redis_url}: running without it (in-memory channel layer, "
            "local-memory cache), which is not the production shape",
            file=sys.stderr,
        )
        args.redis_url = ""
    setup_django(args)
    tag = uuid.uuid4().hex[:8]
    rng = random.Random(args.seed)
    fixtures = create_fixtures(
        tag, args.games, args.engine, args.spares, args.plans, random.Random(rng.random())
    )
    proc = None
    with tempfile.TemporaryDirectory(prefix="fibbers-bench-") as tmp:
        log_path = Path(tmp) / "server.log"
        try:
            if args.url:
                base_url = args.url.rstrip("/")
                wait_ready(base_url, fixtures.floor_game_ids[0], None, None, args.database_url)
            else:
                proc, base_url = start_server(args, base_env, log_path)
                wait_ready(base_url, fixtures.floor_game_ids[0], proc, log_path, args.database_url)
            shape = {
                "daphne": "daphne (1 process)",
                "gunicorn": f"gunicorn ({args.workers} workers x {args.threads} threads, WSGI)",
                "uvicorn": f"uvicorn ({args.workers} workers, ASGI)",
            }[args.server]
            server = args.url or f"{shape} on {base_url}"
            print(
                json.dumps(
                    {
                        "engine": args.engine,
                        "server": server,
                        "database": args.database_url,
                        "redis": args.redis_url or None,
                    }
                ),
                flush=True,
            )

            players = [
                Player(base_url, t, args.engine, random.Random(rng.random()))
                for t in fixtures.tables
            ]
            group = proc.pid if proc is not None else None  # the server leads its session
            planned = [PlannedPlayer(base_url, t) for t in fixtures.tables]
            floors = [FloorClient(base_url, gid) for gid in fixtures.floor_game_ids]
            moves_cpu: dict[str, float] = {}
            posts_cpu: dict[str, float] = {}
            floor_cpu: dict[str, float] = {}
            for round_ in range(args.rounds):  # the floor's rounds run between the moves'
                _, cpu = run_phase(players, args.warmup, args.seconds, group)
                add_cpu(moves_cpu, cpu)
                _, cpu = run_phase(planned, args.warmup, args.seconds, group)
                add_cpu(posts_cpu, cpu)
                if round_ < args.rounds - 1:
                    _, cpu = run_phase(floors, args.warmup, args.seconds, group)
                    add_cpu(floor_cpu, cpu)
            measured = args.seconds * args.rounds
            moves = summary("moves", players, measured, moves_cpu)
            print(json.dumps(moves), flush=True)
            posts = summary("posts", planned, measured, posts_cpu)
            print(json.dumps(posts), flush=True)

            readers = []
            for player in players:
                reader = Reader(base_url, player.table, args.engine, random.Random(0))
                reader.body_seat = player.body_seat
                readers.append(reader)
            _, cpu = run_phase(readers, args.warmup, args.seconds, group)
            reads = summary("reads", readers, args.seconds, cpu)
            print(json.dumps(reads), flush=True)

            bares = [BareClient(base_url) for _ in fixtures.tables]
            _, cpu = run_phase(bares, args.warmup, args.seconds, group)
            bare = summary("bare", bares, args.seconds, cpu)
            print(json.dumps(bare), flush=True)

            _, cpu = run_phase(floors, args.warmup, args.seconds, group)
            add_cpu(floor_cpu, cpu)
            floor = summary("floor", floors, measured, floor_cpu)
            print(json.dumps(floor), flush=True)

            print(
                json.dumps(
                    {
                        "phase": "ratio",
                        "per_second_moves_over_floor": ratio(
                            moves["per_second"], floor["per_second"]
                        ),
                        "p50_moves_over_floor": ratio(moves["p50_ms"], floor["p50_ms"]),
                        "p95_moves_over_floor": ratio(moves["p95_ms"], floor["p95_ms"]),
                        "read_p50_over_floor_p50": ratio(moves["read_p50_ms"], floor["p50_ms"]),
                        # the moves alone, chosen before the phase: no GET between them
                        "per_second_posts_over_floor": ratio(
                            posts["per_second"], floor["per_second"]
                        ),
                        "p50_posts_over_floor": ratio(posts["p50_ms"], floor["p50_ms"]),
                        "cpu_per_posts_move_over_floor": ratio(cpu_total(posts), cpu_total(floor)),
                        "cpu_per_move_over_floor": ratio(cpu_total(moves), cpu_total(floor)),
                        "cpu_per_read_over_floor": ratio(cpu_total(reads), cpu_total(floor)),
                        "cpu_per_bare_over_floor": ratio(cpu_total(bare), cpu_total(floor)),
                        "reads_per_move": ratio(moves["reads"], moves["requests"]),
                        # the moves phase's ceiling: POST = a floor, each GET = a bare request
                        "loop_bound": loop_bound(moves, bare, floor),
                        # the move's POST alone: its reads' share taken out at the GET's cost
                        "cpu_per_post_over_floor": ratio(post_cpu(moves, reads), cpu_total(floor)),
                    }
                ),
                flush=True,
            )
            if proc is not None and proc.poll() is not None:
                print(f"the server died during the run (exit {proc.returncode})", file=sys.stderr)
                return 1
            return 0 if moves["requests"] and floor["requests"] else 1
        except KeyboardInterrupt:
            print("interrupted: stopping the server and removing the fixtures", file=sys.stderr)
            return 130
        finally:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not skip this
            STOP.set()
            time.sleep(0.5 if proc is not None and proc.poll() is None else 0)
            stop_server(proc)
            if not args.keep:
                try:
                    delete_fixtures(fixtures)
                except Exception as exc:
                    print(f"cleanup failed: {exc!r}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
