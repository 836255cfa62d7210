"""Shared fixtures: users, friends, and a clean cache (allauth's rate limits live in it)."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCacheClient
from django.test import Client
from django.utils import translation

from games import live_read


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests (marker ``slow``) first, the rest in their order. pytest-xdist's
    worksteal hands each worker a contiguous share and lets an idle worker take the pending
    end of another's: a minute-long test collected last kept one worker busy alone at the
    end of the run; first, the others' short tests fill in around it."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True, scope="session")
def _clears_only_own_redis_database():
    """A test may empty only its own worker's Redis database (config/settings/test.py): a
    cache on another one is another xdist worker's, and its clear() took the channel groups
    of that worker's live sockets, whose pages then missed moves (found at stop 32: a test's
    cache in database 14)."""
    own = settings.REDIS_URL
    clear = RedisCacheClient.clear

    def guarded(client: RedisCacheClient) -> bool:
        others = [server for server in client._servers if server != own]
        if own and others:
            raise RuntimeError(f"a test cleared {others}, not its worker's {own}")
        return clear(client)

    RedisCacheClient.clear = guarded
    yield
    RedisCacheClient.clear = clear


@pytest.fixture(autouse=True)
def _clear_cache(request):
    if "django_db_setup" in request.fixturenames or request.node.get_closest_marker("django_db"):
        cache.clear()
    yield


@pytest.fixture(autouse=True)
def _sockets_read_connection():
    """A table socket's loop read keeps a connection until its process's last table socket
    disconnects; a test's sockets may end without disconnecting (a socket the server closed),
    and the test database could not be dropped while that connection lives."""
    yield
    live_read.reader.discard()


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's default language: a page request in French leaves
    French active in the test's thread (the locale middleware never deactivates it)."""
    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str, password: str = "a-long-test-password", **extra):
        user = django_user_model.objects.create_user(
            username=username, email=f"{username}@example.com", password=password, **extra
        )
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        return user

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def admin_user(db, django_user_model):
    """Overrides pytest-django's: a superuser with a known password, for the admin's own login."""
    return django_user_model.objects.create_superuser(
        "root", "root@example.com", "a-long-admin-password"
    )


@pytest.fixture
def as_admin(admin_user):
    client = Client()
    client.force_login(admin_user)
    return client
