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
