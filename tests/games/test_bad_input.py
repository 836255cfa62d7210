"""Bad input found by the robustness review of 2026-12-01: each answer is clear, and the game is
left exactly as it was."""

from __future__ import annotations

import asyncio

import pytest
from django.test import Client

from accounts.services import api_token_create, friendship_create
from games import services
from games.engines import registry
from games.errors import GameError
from games.models import Event, Game
from tests.games.helpers import play_to_the_end, refused_with, seat_users

pytestmark = pytest.mark.django_db(transaction=True)

TOO_BIG = 2**63  # one past the largest bigint: PostgreSQL refused the raw reads (a 500)


def test_a_game_id_past_the_largest_one_is_no_such_game_everywhere(alice):
    client = Client()
    client.force_login(alice)
    for path in ("", "live/", "replay/", "chat/"):
        assert client.get(f"/games/{TOO_BIG}/{path}").status_code == 404, path
    for path in ("act/", "join/", "start/", "chat/post/"):
        assert client.post(f"/games/{TOO_BIG}/{path}").status_code == 404, path
    _token, raw = api_token_create(alice, "script")
    api = Client(headers={"Authorization": f"Bearer {raw}"})
    for path in ("", "/events"):
        answer = api.get(f"/api/games/{TOO_BIG}{path}")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", path
    for path, body in (("/actions", {"version": 0, "action": {"type": "x"}}), ("/join", {})):
        answer = api.post(f"/api/games/{TOO_BIG}{path}", body, content_type="application/json")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", path

    assert asyncio.run(refused_with(alice, f"/ws/games/{TOO_BIG}/")) == 4404


def _api(user) -> Client:
    _token, raw = api_token_create(user, "script")
    return Client(headers={"Authorization": f"Bearer {raw}"})


def _move(api: Client, game: Game, seat: int, key: str, action: dict | None = None):
    game.refresh_from_db()
    if action is None:
        action = registry.get(game.engine).legal_actions(game.state, seat)[0]
    body = {"version": game.version_for(seat), "action": action, "key": key}
    return api.post(f"/api/games/{game.pk}/actions", body, content_type="application/json")


def test_an_idempotency_key_is_never_cut_and_never_makes_another_move(started):
    """Keys were cut to 64 characters: two long keys sharing their start made one move, the
    second answered 200 as if played. A key that made a move, sent with another move, answered
    200 with nothing played; it is refused now, and a true replay says it is one."""
    game = started("cockroach-poker-royal")
    engine = registry.get(game.engine)
    seat = engine.waiting_for(game.state).seats[0]
    api = _api(seat_users(game)[seat])
    version = game.version

    answer = _move(api, game, seat, "x" * 64 + "-move1")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_key"
    game.refresh_from_db()
    assert game.version == version

    legal = engine.legal_actions(game.state, seat)
    first, other = legal[0], next(a for a in legal if a != legal[0])
    assert _move(api, game, seat, "k1", first).status_code == 200
    game.refresh_from_db()
    played = game.version
    assert played > version

    replay = _move(api, game, seat, "k1", first)
    assert replay.status_code == 200 and replay.json()["replayed"] is True
    reused = _move(api, game, seat, "k1", other)
    assert reused.status_code == 409 and reused.json()["code"] == "key_reused"
    game.refresh_from_db()
    assert game.version == played
    # with the game as it is, as a stale version's answer: the bot need not read it again
    assert reused.json()["version"] == game.version_for(seat) == reused.json()["game"]["version"]
    assert "revision" not in reused.json()["game"]
    assert Event.objects.filter(game=game, key="k1").count() == 1


def test_the_api_answers_a_wrong_method_and_an_unknown_path_in_its_own_error_shape(alice):
    api = _api(alice)
    for method in ("put", "delete", "patch"):
        answer = getattr(api, method)("/api/games/1")
        assert answer.status_code == 405, method
        assert answer.json()["code"] == "method_not_allowed"
        assert "GET" in answer["Allow"]
    answer = api.get("/api/games/1/actions")
    assert answer.status_code == 405 and answer.json()["code"] == "method_not_allowed"
    answer = api.get("/api/no-such-thing")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    # the site's pages keep their own 404 page
    assert "text/html" in Client().get("/no-such-page/")["Content-Type"]


def test_a_move_without_a_type_is_malformed_never_too_late(started):
    """A frame with no action at a stale version was answered "Too late: the moment
    passed", which it never was."""
    game = started("cockroach-poker-royal")
    seat = registry.get(game.engine).waiting_for(game.state).seats[0]
    api = _api(seat_users(game)[seat])
    version = game.version
    for action in ({}, {"type": 3}, {"card": 1}):
        body = {"version": game.version_for(seat) - 1, "action": action}
        answer = api.post(f"/api/games/{game.pk}/actions", body, content_type="application/json")
        assert answer.status_code == 400 and answer.json()["code"] == "malformed", action
    game.refresh_from_db()
    assert game.version == version


def test_a_move_form_from_a_watcher_or_a_finished_table_says_why_it_was_refused(started, make_user):
    """A watcher's forged move form said "the game moved on" or "not possible now"; a stale
    form on a finished table said "the game moved on"."""
    game = started("cockroach-poker-royal")
    dave = make_user("dave")
    friendship_create(dave, seat_users(game)[0])
    watcher = Client()
    watcher.force_login(dave)
    form = {"version": str(game.version_for(None)), "type": "draw"}
    answer = watcher.post(f"/games/{game.pk}/act/", form, follow=True)
    assert [str(m) for m in answer.context["messages"]] == ["You are not playing at this table."]

    play_to_the_end(game)
    game.refresh_from_db()
    player = Client()
    player.force_login(seat_users(game)[0])
    answer = player.post(f"/games/{game.pk}/act/", {"version": "1", "type": "offer"}, follow=True)
    assert [str(m) for m in answer.context["messages"]] == ["This game is over."]
    # and the API says the same
    token = api_token_create(seat_users(game)[0], "script")[1]
    answer = Client().post(
        f"/api/games/{game.pk}/actions",
        {"version": game.version_for(0), "action": {"type": "offer"}},
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 409
    assert answer.json() == {"error": "This game is over.", "code": "not_active"}


def test_an_invitation_refused_repeats_the_name_without_its_direction_characters(alice):
    """'bob\\u202e' came back whole, turning the rest of the message around; 5,000 characters
    came back in full."""
    for name, said in (("bob\u202e", "bob"), ("x" * 5000, "x" * 39 + "…")):
        with pytest.raises(GameError) as refused:
            services.game_create(alice, engine="imperador", seats=3, invite=[name])
        assert refused.value.message == f"{said} is not a player you can invite."


def test_the_table_is_read_by_get_only(started):
    """PUT and DELETE rendered the table, with a read's side effects (notices marked read)."""
    game = started("cockroach-poker-royal")
    client = Client()
    client.force_login(seat_users(game)[0])
    for path in (f"/games/{game.pk}/", f"/games/{game.pk}/live/"):
        assert client.get(path).status_code == 200
        assert client.head(path).status_code == 200
        for method in ("put", "delete", "patch"):
            assert getattr(client, method)(path).status_code == 405, (method, path)


def test_an_api_move_needs_a_whole_number_version(started):
    """``false``, ``"0"`` and ``0.0`` passed for version 0 through the API (lax parsing); the
    socket and the pages refused them."""
    game = started("cockroach-poker-royal")
    seat = registry.get(game.engine).waiting_for(game.state).seats[0]
    api = _api(seat_users(game)[seat])
    action = registry.get(game.engine).legal_actions(game.state, seat)[0]
    before = game.version
    for version in (False, "0", 0.0, None):
        body = {"version": version, "action": action}
        answer = api.post(f"/api/games/{game.pk}/actions", body, content_type="application/json")
        assert answer.status_code == 422 and answer.json()["code"] == "invalid", version
    game.refresh_from_db()
    assert game.version == before
