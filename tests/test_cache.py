"""The shared cache (config/cache.py) is Django's Redis cache with one client per pool."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.core.cache import cache, caches

from config.cache import SharedClientRedisCache

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis")


def test_operations_share_one_client_and_work_from_threads():
    assert isinstance(caches["default"], SharedClientRedisCache)
    client = cache._cache.get_client()
    assert cache._cache.get_client("k", write=True) is client
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(50):
                cache.set(f"cache-test:{n}:{i}", {"n": n, "i": i}, 30)
                assert cache.get(f"cache-test:{n}:{i}") == {"n": n, "i": i}
            assert cache.add(f"cache-test:{n}:counter", 0, 30)
            assert cache.incr(f"cache-test:{n}:counter", 3) == 3
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert cache._cache.get_client() is client
    cache.delete_many([f"cache-test:{n}:counter" for n in range(8)])


def test_a_test_may_not_clear_another_workers_redis_database():
    """The suite's guard (tests/conftest.py): under xdist, another database is another
    worker's, whose live sockets' groups a clear() would take. It refuses before reaching
    Redis (this test touches no other database either)."""
    from django.core.cache.backends.redis import RedisCache

    head, _, number = settings.REDIS_URL.rpartition("/")
    other = RedisCache(f"{head}/{(int(number or 0) + 1) % 16}", {})
    with pytest.raises(RuntimeError, match="not its worker's"):
        other.clear()
    assert not other._cache._pools  # no connection was ever made to it
