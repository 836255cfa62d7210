"""No lost or doubled moves, no stale overwrites, no strangers, no leaks."""

from __future__ import annotations

import json
import random
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import services
from games.engines import registry
from games.errors import GameError, IllegalMove, StaleVersion
from games.models import Event, Game
from tests.engines.playthrough import scrambler
from tests.games.helpers import assert_replays, next_human_move, seat_users, strip_tokens


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return (
        game.version,
        json.dumps(game.state, sort_keys=True),
        Event.objects.filter(game=game).count(),
    )


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_submissions_of_the_same_move_make_one_event_and_one_version_step(started):
    game = started("cockroach-poker-royal")
    rng = random.Random(3)
    seat, action = next_human_move(game, rng)
    user = seat_users(game)[seat]
    before_version, _, before_events = snapshot(game)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def submit(key: str) -> None:
        try:
            barrier.wait()
            services.act(user, game.pk, before_version, action, key)
            outcomes.append("ok")
        except StaleVersion:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(f"key-{n}",)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    version, _, events = snapshot(game)
    assert sorted(outcomes) == ["ok", "stale"]
    moved_by_bots = Event.objects.filter(game=game, reason="bot").count()
    assert events - before_events == 1 + moved_by_bots
    assert version == before_version + 1 + moved_by_bots
    assert Event.objects.filter(game=game, reason="move").count() == 1


@pytest.mark.django_db
def test_a_stale_version_is_409_with_the_fresh_game_and_changes_nothing(started):
    game = started("mogel-motte")
    seat, action = next_human_move(game, random.Random(1))
    user = seat_users(game)[seat]
    client = client_for(user)
    before = snapshot(game)
    answer = client.post(
        f"/api/games/{game.pk}/actions",
        json.dumps({"version": game.version - 1 if game.version else 99, "action": action}),
        content_type="application/json",
    )
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "stale_version" and body["version"] == game.version
    assert body["game"]["version"] == game.version
    assert snapshot(game) == before


@pytest.mark.django_db
def test_an_idempotent_retry_returns_the_first_result_instead_of_a_second_move(started):
    game = started("imperador")
    seat, action = next_human_move(game, random.Random(2))
    client = client_for(seat_users(game)[seat])
    payload = json.dumps({"version": game.version, "action": action, "key": "retry-me"})
    first = client.post(f"/api/games/{game.pk}/actions", payload, content_type="application/json")
    assert first.status_code == 200
    after_first = snapshot(game)
    second = client.post(f"/api/games/{game.pk}/actions", payload, content_type="application/json")
    assert second.status_code == 200
    assert second.json()["version"] == first.json()["version"]
    assert snapshot(game) == after_first


@pytest.mark.django_db
@pytest.mark.parametrize("engine", sorted(registry.ENGINES))
def test_an_illegal_or_forged_action_is_400_with_the_engines_message_and_changes_nothing(
    started, engine
):
    game = started(engine)
    seat, action = next_human_move(game, random.Random(4))
    client = client_for(seat_users(game)[seat])
    before = snapshot(game)
    for forged in (
        {"type": "no-such-move"},
        {**action, "card": 10_000},
        {"type": action["type"], "to": "x"},
    ):
        answer = client.post(
            f"/api/games/{game.pk}/actions",
            json.dumps({"version": game.version, "action": forged}),
            content_type="application/json",
        )
        assert answer.status_code == 400, forged
        assert answer.json()["error"] and answer.json()["code"]
        assert snapshot(game) == before
    page = client.post(
        reverse("games:act", args=[game.pk]),
        {"type": action["type"], "version": game.version, "f_card": "12345"},
        follow=True,
    )
    assert "That move is not possible now." in page.content.decode()
    assert snapshot(game) == before
    with pytest.raises(IllegalMove):
        services.act(
            seat_users(game)[seat], game.pk, game.version_for(seat), {"type": "no-such-move"}
        )


@pytest.mark.django_db
def test_someone_not_at_the_table_gets_404_on_pages_and_api_and_cannot_move(started, make_user):
    game = started()
    stranger = make_user("mallory")
    client = client_for(stranger)
    assert client.get(reverse("games:table", args=[game.pk])).status_code == 404
    assert client.get(reverse("games:live", args=[game.pk])).status_code == 404
    assert client.get(f"/api/games/{game.pk}").status_code == 404
    assert client.get(f"/api/games/{game.pk}/events").status_code == 404
    answer = client.post(
        f"/api/games/{game.pk}/actions",
        json.dumps({"version": game.version, "action": {"type": "x"}}),
        content_type="application/json",
    )
    assert answer.status_code == 404
    assert Client().get(f"/api/games/{game.pk}").status_code == 401
    with pytest.raises(GameError):
        services.act(stranger, game.pk, game.version, {"type": "x"})


@pytest.mark.django_db
def test_a_friend_of_a_player_may_spectate_unless_the_creator_turned_it_off(started, make_user):
    from accounts.services import friendship_create

    game = started()
    friend = make_user("dave")
    friendship_create(friend, seat_users(game)[1])
    client = client_for(friend)
    body = client.get(f"/api/games/{game.pk}").json()
    assert body["seat"] is None and body["legal_actions"] == []
    assert body["view"] == registry.get(game.engine).view(game.state, None)
    Game.objects.filter(pk=game.pk).update(allow_spectators=False)
    assert client.get(f"/api/games/{game.pk}").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("engine", sorted(registry.ENGINES))
@pytest.mark.slow
def test_no_page_api_answer_or_event_list_shows_a_seat_a_card_it_may_not_know(started, engine):
    """At every step of a whole game, for every seat: changing everything that seat may not
    know (other hands, hidden piles, unseen cards) leaves its page, API answer and event list
    byte-for-byte the same, and its events are exactly those addressed to it."""
    game = started(engine)
    impl = registry.get(engine)
    scramble = scrambler(impl)
    rng = random.Random(9)
    users = seat_users(game)
    clients = {seat: client_for(user) for seat, user in users.items()}
    steps = 0
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        real_state = game.state
        # the event rows of this step (nothing below writes one before the move)
        rows = list(Event.objects.filter(game=game).order_by("seq"))
        for seat, client in clients.items():
            # Pages are slow to render twice: every seat's page every third step, API every step.
            with_page = steps % 3 == seat % 3
            if with_page:
                page = strip_tokens(
                    client.get(reverse("games:table", args=[game.pk])).content.decode()
                )
                parts = strip_tokens(
                    client.get(reverse("games:live", args=[game.pk])).content.decode()
                )
            api = client.get(f"/api/games/{game.pk}").json()
            assert api["view"] == impl.view(real_state, seat)
            scrambled = scramble(json.loads(json.dumps(real_state)), seat, rng)
            Game.objects.filter(pk=game.pk).update(state=scrambled)
            if with_page:
                again = client.get(reverse("games:table", args=[game.pk])).content.decode()
                assert strip_tokens(again) == page
                # the parts the script swaps in place: the same seat's rendering, same secrets
                again = client.get(reverse("games:live", args=[game.pk])).content.decode()
                assert strip_tokens(again) == parts
            assert client.get(f"/api/games/{game.pk}").json()["view"] == api["view"]
            Game.objects.filter(pk=game.pk).update(state=real_state)
            # rows are numbered per seat: the n-th row this seat may see
            mine = [r for r in rows if r.audience is None or seat in r.audience]
            assert len(mine) == game.version_for(seat)
            for entry in client.get(
                f"/api/games/{game.pk}/events?after={max(0, game.version_for(seat) - 3)}"
            ).json()["events"]:
                assert "action" not in entry and "seat" not in entry
                row = mine[entry["seq"] - 1]
                allowed = [
                    {"kind": e["kind"], "data": e["data"]}
                    for e in row.events
                    if e["to"] is None or seat in e["to"]
                ]
                assert entry["events"] == allowed
        seat, action = next_human_move(game, rng)
        services.act(users[seat], game.pk, game.version_for(seat), action)
        steps += 1
    assert steps > 5
    assert game.status == Game.Status.FINISHED
    assert_replays(game)
