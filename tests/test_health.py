"""GET /healthz (config/health.py): the Procfile's own gunicorn on production settings, probed
as a load balancer probes it (plain http to 127.0.0.1, no proxy headers), against the real
PostgreSQL and Redis and with each of them out of reach (its URL on a closed port)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.live_server import closed_port, database_url, free_port, production_env, stop
from tests.test_secret_paths import procfile_web

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.django_db


@contextmanager
def web(log_path: Path, **extra: str) -> Iterator[str]:
    port = free_port()
    env = production_env(
        **{"DATABASE_URL": database_url(), **extra},
        PORT=str(port),
        WEB_WORKERS="1",
        WEB_THREADS="2",
        PYTHONUNBUFFERED="1",
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    )
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            ["sh", "-c", "exec env " + procfile_web()],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc, grace=20)


def _json(raw: bytes) -> dict[str, str]:
    try:
        return json.loads(raw)
    except ValueError:
        return {"not json": raw.decode(errors="replace")[:200]}


def probe(base: str, log_path: Path) -> tuple[int, dict[str, str], dict[str, str]]:
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=30) as answer:
                return answer.status, dict(answer.headers), _json(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, dict(refused.headers), _json(refused.read())
        except (TimeoutError, urllib.error.URLError, ConnectionError):  # not up yet
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.2)


def test_healthz_answers_ok_when_the_database_and_redis_answer(tmp_path):
    log_path = tmp_path / "web.log"
    with web(log_path) as base:
        answers = [probe(base, log_path) for _ in range(3)]
        # a page beside it, to see that the access log is written at all
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"{base}/no-such-page/", timeout=30)
        time.sleep(0.5)

    for status, headers, body in answers:
        # neither the HTTPS redirect (301) nor the Host check (400) stands in a probe's way
        assert (status, body) == (200, {"database": "ok", "redis": "ok"})
        assert headers["Cache-Control"] == "no-store"
        assert "Set-Cookie" not in headers and "Vary" not in headers
    written = log_path.read_text()
    assert "/no-such-page/" in written, written
    assert "/healthz" not in written, "a probe's 200 is no access-log line"


@pytest.mark.parametrize("part", ["database", "pooled database", "redis"])
def test_healthz_answers_503_naming_the_part_out_of_reach(tmp_path, part):
    port = closed_port()
    down = {"DATABASE_URL": f"postgres://fibbers:s3cret@127.0.0.1:{port}/fibbers"}
    if part == "pooled database":  # production's pool: its wait runs out (PoolTimeout)
        down.update(DB_POOL="true", DB_POOL_TIMEOUT="2")
    elif part == "redis":
        down = {"REDIS_URL": f"redis://:s3cret@127.0.0.1:{port}/0"}
    part = part.removeprefix("pooled ")
    log_path = tmp_path / "web.log"
    with web(log_path, **down) as base:
        status, headers, body = probe(base, log_path)
        time.sleep(0.5)

    other = "redis" if part == "database" else "database"
    assert (status, body) == (503, {part: "unavailable", other: "ok"})
    assert headers["Cache-Control"] == "no-store"
    written = log_path.read_text()
    assert '"GET /healthz HTTP/1.1" 503' in written, "an outage's probes stay in the log"
    assert "s3cret" not in json.dumps(body) and "s3cret" not in written
