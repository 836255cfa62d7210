"""The API as a bot's author meets it: a bad token is a 401 on any method, the creator cancels
through the API, a client finds its tables without knowing their ids, unreadable bodies share
one code, and the schema names the values a field takes."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.models import Notification
from accounts.services import api_token_create, api_token_revoke
from games import services
from games.api import GamesOut
from games.models import Game
from tests.games.helpers import play_to_the_end, seat_users

pytestmark = pytest.mark.django_db


def _api(user) -> Client:
    _row, raw = api_token_create(user, "bot")
    return Client(headers={"Authorization": f"Bearer {raw}"})


def _post(client: Client, path: str, body: object | None = None, **kw):
    data = json.dumps(body) if body is not None else ""
    return client.post(path, data, content_type="application/json", **kw)


@pytest.mark.parametrize("token", [None, "fib_forged", "revoked"])
def test_a_write_without_a_good_token_is_unauthorized_not_a_csrf_failure(trio, token):
    alice = trio[0]
    game = services.game_create(alice, engine="imperador", seats=3)
    if token == "revoked":
        row, token = api_token_create(alice, "old")
        api_token_revoke(alice, row)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    client = Client(enforce_csrf_checks=True, headers=headers)
    for path, body in (
        ("/api/games", {"game": "imperador", "seats": 3}),
        (f"/api/games/{game.pk}/start", None),
    ):
        answer = _post(client, path, body)
        assert answer.status_code == 401, answer.content
        assert answer.json()["code"] == "unauthorized"
        assert answer["WWW-Authenticate"].startswith("Bearer")
    assert Game.objects.get(pk=game.pk).status == Game.Status.LOBBY
    assert Game.objects.count() == 1


def test_a_signed_in_session_still_needs_its_csrf_token(trio):
    alice = trio[0]
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    answer = _post(client, "/api/games", {"game": "imperador", "seats": 3})
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
    assert not Game.objects.exists()


def test_the_creator_cancels_through_the_api_and_the_table_is_told(trio):
    alice, bob, _carol = trio
    game = services.game_create(alice, engine="mogel-motte", seats=3, invite=["bob", "carol"])
    services.game_join(bob, game.pk)
    refused = _post(_api(bob), f"/api/games/{game.pk}/cancel")
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert Game.objects.get(pk=game.pk).status == Game.Status.LOBBY

    assert _post(_api(alice), f"/api/games/{game.pk}/cancel").status_code == 204
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    assert Notification.objects.filter(user=bob, game_id=game.pk, text__contains="cancel").exists()
    again = _post(_api(alice), f"/api/games/{game.pk}/cancel")
    assert again.status_code == 409, again.content


def test_a_client_finds_its_tables_and_invitations(started, make_user):
    game = started("cockroach-poker-royal")
    users = seat_users(game)
    alice = users[0]
    invited = services.game_create(users[1], engine="imperador", seats=3, invite=["alice"])
    gathering = services.game_create(alice, engine="mogel-motte", seats=3)
    over = play_to_the_end(started("mogel-motte"))

    lists = _api(alice).get("/api/games").json()
    waited = [s for s in range(3) if game.wait_mask & (1 << s)]
    mine_or_not = "your_move" if 0 in waited else "waiting_on_others"
    assert game.pk in [g["id"] for g in lists[mine_or_not]]
    assert [g["id"] for g in lists["gathering"]] == [gathering.pk]
    assert [g["id"] for g in lists["invitations"]] == [invited.pk]
    (finished,) = lists["finished"]
    assert finished["id"] == over.pk and finished["status"] == "finished"
    over_users = seat_users(over)
    assert finished["winners"] == [over_users[i].name for i in sorted(over.result["winners"])]
    line = next(g for g in lists[mine_or_not] if g["id"] == game.pk)
    assert line["players"] == [users[i].name for i in range(3)]
    assert line["deadline"] and line["winners"] is None
    # a stranger's list holds none of these
    stranger = _api(make_user("dana")).get("/api/games").json()
    assert not any(stranger[k] for k in GamesOut.model_fields if k != "older")


@pytest.mark.parametrize(
    "body, content_type",
    [
        ("", "application/json"),
        ("{not json", "application/json"),
        ("a=1", "text/plain"),
        ("[]", "application/json"),
        ("null", "application/json"),
        ("1", "application/json"),
    ],
)
def test_an_unreadable_body_is_malformed_whatever_it_is(started, body, content_type):
    game = started("imperador")
    alice = seat_users(game)[0]
    version = game.version
    answer = _api(alice).post(f"/api/games/{game.pk}/actions", body, content_type=content_type)
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "malformed"
    assert Game.objects.get(pk=game.pk).version == version


def test_a_multipart_body_is_malformed_not_a_crash(started):
    game = started("imperador")
    api = _api(seat_users(game)[0])
    for path in (f"/api/games/{game.pk}/actions", "/api/games"):
        answer = api.post(path, {"version": "1"})  # the test client's default: multipart
        assert answer.status_code == 400, answer.content
        assert answer.json()["code"] == "malformed"
    assert Game.objects.count() == 1


def test_a_field_error_names_the_field_once(started):
    game = started("imperador")
    answer = _post(_api(seat_users(game)[0]), f"/api/games/{game.pk}/actions", {"action": {}})
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["loc"] == ["body", "version"]


def test_creation_refuses_what_it_would_ignore_and_names_the_choices(trio):
    api = _api(trio[0])
    seconds = _post(api, "/api/games", {"game": "imperador", "seats": 3, "move_seconds": 600})
    assert seconds.status_code == 400 and seconds.json()["code"] == "bad_pace"
    unknown = _post(api, "/api/games", {"game": "poker", "seats": 3})
    assert unknown.status_code == 400 and unknown.json()["code"] == "bad_game"
    assert "cockroach-poker-royal, imperador, mogel-motte" in unknown.json()["error"]
    text_seats = _post(api, "/api/games", {"game": "imperador", "seats": "3"})
    assert text_seats.status_code == 422
    assert not Game.objects.exists()
    custom = _post(
        api,
        "/api/games",
        {"game": "imperador", "seats": 3, "pace": "custom", "move_seconds": 600},
    )
    assert custom.status_code == 201, custom.content
    assert custom["Location"] == f"/api/games/{custom.json()['id']}"
    assert Game.objects.get(pk=custom.json()["id"]).move_seconds == 600


def test_the_schema_lists_the_values_and_the_docs_need_no_cdn(client):
    schema = client.get("/api/openapi.json").json()
    fields = schema["components"]["schemas"]["CreateIn"]["properties"]
    assert fields["game"]["enum"] == ["cockroach-poker-royal", "imperador", "mogel-motte"]
    assert "custom" in fields["pace"]["enum"] and "daily" in fields["pace"]["enum"]
    assert schema["components"]["schemas"]["ActionIn"]["properties"]["key"]["maxLength"] == 64
    assert "Retry-After" in schema["info"]["description"]
    assert {"/api/games/{game_id}/cancel", "/api/games"} <= set(schema["paths"])
    assert "get" in schema["paths"]["/api/games"]
    docs = client.get("/api/docs").content.decode()
    assert "cdn.jsdelivr.net" not in docs and "/static/ninja/swagger-ui-bundle.js" in docs
    assert client.get("/static/ninja/swagger-ui-bundle.js").status_code == 200
