"""The request guard: control characters are a 400 everywhere, a flooding client a 429 with
Retry-After, a database out of reach a 503 with Retry-After (config/guard.py)."""

from __future__ import annotations

import json

import pytest
from django.db import OperationalError
from django.test import Client

from accounts.services import api_token_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(started):
    return started("cockroach-poker-royal")


def api(client: Client, path: str, body: dict, token: str | None = None):
    extra = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(path, json.dumps(body), content_type="application/json", **extra)


def test_nul_in_an_idempotency_key_is_a_400_not_a_500(game):
    token = api_token_create(game.seats.get(index=0).user, "t")[1]
    response = api(
        Client(),
        f"/api/games/{game.pk}/actions",
        {"version": game.version, "action": {"type": "x"}, "key": "k\x00"},
        token,
    )
    assert response.status_code == 400
    assert response.json()["code"] == "control_characters"
    assert response["Cache-Control"] == "no-store"


def test_a_body_past_the_upload_limit_is_a_413_and_moves_nothing(game, settings):
    """A 3 MB move was answered "The request body is not readable." with a 400 (robustness
    review, 2026-12-01)."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    user = game.seats.get(index=0).user
    token = api_token_create(user, "t")[1]
    version = game.version
    response = api(
        Client(),
        f"/api/games/{game.pk}/actions",
        {"version": version, "action": {"type": "offer"}, "key": "k" * 20_000},
        token,
    )
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    game.refresh_from_db()
    assert game.version == version


def test_nul_in_an_invited_name_is_a_400(alice):
    token = api_token_create(alice, "t")[1]
    body = {"game": "imperador", "seats": 3, "invite": ["bo\x00b"]}
    response = api(Client(), "/api/games", body, token)
    assert response.status_code == 400
    assert response.json() == {
        "error": "Text may not contain control characters.",
        "code": "control_characters",
    }


@pytest.mark.parametrize("value", ["Al\x00ice", "Al\x1bice", "x\x7f"])
def test_control_characters_in_a_form_field_are_a_400(alice, value):
    client = Client()
    client.force_login(alice)
    response = client.post("/profile/", {"display_name": value, "time_zone": "UTC"})
    assert response.status_code == 400
    alice.refresh_from_db()
    assert alice.display_name == ""
    # In the query string too, and on allauth's pages.
    assert client.get("/friends/", {"who": "a\x00"}).status_code == 400
    assert Client().post("/accounts/login/", {"login": "a\x00", "password": "x"}).status_code == 400


def test_a_client_over_its_window_gets_429_with_retry_after(game, settings):
    settings.REQUEST_LIMITS = {**settings.REQUEST_LIMITS, "writes": 5}
    token = api_token_create(game.seats.get(index=0).user, "t")[1]
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    statuses = [client.get(f"/api/games/{game.pk}").status_code for _ in range(7)]
    assert statuses == [200] * 5 + [429] * 2
    response = client.get(f"/api/games/{game.pk}")
    assert 1 <= int(response["Retry-After"]) <= 61
    assert response.json()["code"] == "rate_limited"
    # Another player is not affected.
    other = api_token_create(game.seats.get(index=1).user, "t")[1]
    assert (
        Client(HTTP_AUTHORIZATION=f"Bearer {other}").get(f"/api/games/{game.pk}").status_code == 200
    )


def test_a_database_out_of_reach_is_a_503_with_retry_after(game, monkeypatch):
    from games import api as games_api

    def unreachable(*args, **kwargs):
        raise OperationalError("couldn't get a connection after 10.00 sec")

    monkeypatch.setattr(games_api.selectors, "can_view", unreachable)
    token = api_token_create(game.seats.get(index=0).user, "t")[1]
    client = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Bearer {token}")
    response = client.get(f"/api/games/{game.pk}")
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert response.json()["code"] == "busy"

    monkeypatch.setattr("games.views.selectors.can_view", unreachable)
    browser = Client(raise_request_exception=False)
    browser.force_login(game.seats.get(index=0).user)
    page = browser.get(f"/games/{game.pk}/")
    assert page.status_code == 503 and page["Retry-After"] == "2"


def test_seat_views_are_never_cached(game):
    client = Client()
    client.force_login(game.seats.get(index=0).user)
    for path in (f"/games/{game.pk}/", f"/api/games/{game.pk}", f"/api/games/{game.pk}/events"):
        assert "no-store" in client.get(path)["Cache-Control"], path


def test_an_api_request_reads_its_token_with_the_guards_counters(started, monkeypatch):
    """The token's cache entry travels in the request guard's pipeline: an API read is one
    exchange with Redis on the way in and one on the way out, none for the token."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from redis.connection import Connection

    game = started()
    client = Client(
        HTTP_AUTHORIZATION=f"Bearer {api_token_create(game.seats.get(index=0).user, 't')[1]}"
    )
    assert client.get(f"/api/games/{game.pk}").status_code == 200  # the token is cached now
    sends: list[bytes] = []
    real = Connection.send_packed_command

    def counting(self, command, check_health=True):
        sends.append(b"".join(command) if isinstance(command, list) else command)
        return real(self, command, check_health)

    monkeypatch.setattr(Connection, "send_packed_command", counting)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(f"/api/games/{game.pk}").status_code == 200
    assert len(sends) == 2, sends
    assert b"apitoken:" in sends[0] and b"INCR" in sends[0]  # read with the counters
    assert len(captured) == 1  # and not from the database either


def test_a_token_revoked_or_its_player_banned_is_refused_through_the_guards_read(
    started, admin_user
):
    """The entry the guard reads is the shared cache's own: what drops it (revoking, a ban)
    is seen at once (tests/games/test_query_counts.py checks the same with a local cache)."""
    from accounts.models import ApiToken
    from accounts.services import api_token_revoke, user_ban

    game = started()
    alice, bob = game.seats.get(index=0).user, game.seats.get(index=1).user
    token, raw = api_token_create(alice, "t")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert client.get(f"/api/games/{game.pk}").status_code == 200  # cached in Redis now
    api_token_revoke(alice, ApiToken.objects.get(pk=token.pk))
    assert client.get(f"/api/games/{game.pk}").status_code == 401
    bobs = Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(bob, 't')[1]}")
    assert bobs.get(f"/api/games/{game.pk}").status_code == 200
    user_ban(admin_user, bob, "spam")
    refused = bobs.get(f"/api/games/{game.pk}")
    assert (refused.status_code, refused.json()["code"]) == (403, "account_suspended")


def test_the_guards_answers_speak_the_readers_language(client):
    """The API promises "the error in your language"; the guard's own answers (it reads the
    request before the session and the locale) were English (an outage review)."""
    refused = client.post(
        "/api/games", data="[not json", content_type="application/json", HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert refused.status_code == 400
    assert refused.json()["error"] == "Envoyez un objet JSON."
    client.cookies["django_language"] = "cs"
    assert (
        client.post("/api/games", data="[not json", content_type="application/json").json()["error"]
        == "Pošlete objekt JSON."
    )


def test_the_guards_answers_to_a_program_speak_its_players_language(client, alice, settings):
    """A French player's program that sent ``Accept-Language: en`` read the guard's refusals
    in English and every other error in French (a left-alone of the outage review)."""
    from accounts.services import api_token_create

    alice.language = "fr"
    alice.save()
    _row, raw = api_token_create(alice, "bot")
    # a program at work: its token was answered, so it is in the cache, which the guard's
    # refusals read (never the database: see the test below)
    assert client.get("/api/games", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 200
    refused = client.post(
        "/api/games",
        data="[not json",
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
        HTTP_AUTHORIZATION=f"Bearer {raw}",
    )
    assert refused.status_code == 400
    assert refused.json()["error"] == "Envoyez un objet JSON."
    unknown = client.post(
        "/api/games",
        data="[not json",
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
        HTTP_AUTHORIZATION="Bearer not-a-token",
    )
    assert unknown.json()["error"] == "Send a JSON object."
    settings.REQUEST_LIMITS = {**settings.REQUEST_LIMITS, "ip": 1}
    flooded = client.get(
        "/api/games", HTTP_ACCEPT_LANGUAGE="en", HTTP_AUTHORIZATION=f"Bearer {raw}"
    )
    assert flooded.status_code == 429
    assert flooded.json()["error"] == "Trop de requêtes. Ralentissez."


def test_the_guards_answers_are_marked_for_the_catalogues_and_take_the_players_language(
    client, alice
):
    """makemessages dropped the ten answers added to the catalogues by hand (unmarked in the
    code), and after the locale middleware (a 404) the guard's own language choice overrode
    the player's (a review of the change)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    marked = set()
    for module in ("config/guard.py", "config/inputs.py", "config/api_errors.py"):
        marked |= set(re.findall(r'gettext_noop\(\s*"([^"]+)"', (root / module).read_text()))
    catalogue = (root / "locale/fr/LC_MESSAGES/django.po").read_text()
    assert len(marked) >= 10
    assert all(f'msgid "{text}"' in catalogue for text in marked), marked
    assert "JSON may nest at most %(n)d levels." in marked

    alice.language = "fr"
    alice.save()
    client.force_login(alice)
    answer = client.get("/api/no-such-thing", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 404 and answer.json()["error"] == "Introuvable."


@pytest.mark.parametrize("refusal", ["malformed", "flood"])
def test_the_guards_refusals_cost_the_database_nothing_whatever_token_they_carry(
    client, settings, refusal
):
    """The guard refuses before the database is asked (a 400 before the limits count, a 429
    once they are spent): its answer's language may not send each refusal's token there, or
    a flood of made-up tokens reaches the database past the limits that were to stop it."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.REQUEST_LIMITS = {**settings.REQUEST_LIMITS, "ip": 2}
    if refusal == "flood":
        for _ in range(2):
            client.get("/api/games/1", HTTP_AUTHORIZATION="Bearer spent")
    with CaptureQueriesContext(connection) as captured:
        for i in range(5):
            refused = client.post(
                "/api/games",
                data="[not json" if refusal == "malformed" else "{}",
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer made-up-{i}",
            )
            assert refused.status_code == (400 if refusal == "malformed" else 429)
    assert [q["sql"] for q in captured] == []
