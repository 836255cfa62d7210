"""Review 2 (catalog, replay, rough edges, push): what a seat may learn, and odd input."""

from __future__ import annotations

import json
import random
import re
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.services import friendship_create
from games import services
from games.engines import registry
from games.errors import GameError
from games.models import Game, Invitation, Seat
from tests.engines.playthrough import scrambler
from tests.games.helpers import form_fields, next_human_move, seat_users, strip_tokens

PASSWORD = "a-long-test-password"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _to_hands_window(game: Game) -> Game:
    """Plays the humans' moves until Imperador's secret show of hands asks two humans."""
    rng = random.Random(5)
    engine = registry.get(game.engine)
    users = seat_users(game)
    for _ in range(200):
        game.refresh_from_db()
        waiting = engine.waiting_for(game.state)
        asked = [s for s in waiting.seats if s in users]
        if game.state["phase"] == "hands" and len(asked) >= 2:
            return game
        seat, action = next_human_move(game, rng)
        services.act(users[seat], game.pk, game.version_for(seat), action)
    raise AssertionError("no show of hands asked two humans")


# --- the reveal replay opens only at the end, and only to whoever may see the table ------------


@pytest.mark.django_db
def test_the_replay_is_404_for_everyone_until_the_game_ends(started, make_user):
    game = started("mogel-motte")
    url = reverse("games:replay", args=[game.pk])
    for user in seat_users(game).values():
        for step in ("", "?step=1", "?step=-1", "?step=999999"):
            assert _client(user).get(url + step).status_code == 404
    lobby = services.game_create(seat_users(game)[0], engine="imperador", seats=3)
    assert (
        _client(seat_users(game)[0]).get(reverse("games:replay", args=[lobby.pk])).status_code
        == 404
    )
    stranger = make_user("stranger")
    assert _client(stranger).get(url).status_code == 404


# --- a move kept across a login belongs to whoever chose it ------------------------------------


@pytest.mark.django_db
def test_a_move_kept_across_a_login_is_not_shown_to_another_player_logging_in(started):
    """Bob's session expired while he answered the secret show of hands; Carol logs in on the
    same browser. Carol must not see Bob's unsent secret answer chosen in her form."""
    game = _to_hands_window(started("imperador"))
    users = seat_users(game)
    engine = registry.get(game.engine)
    asked = [s for s in engine.waiting_for(game.state).seats if s in users]
    bob_seat, carol_seat = asked[0], asked[1]
    page = _client(users[bob_seat]).get(reverse("games:table", args=[game.pk])).content.decode()
    assert f'<input type="hidden" name="seat" value="{bob_seat}">' in page  # the real form's
    shared = Client()  # one browser, its session gone
    bob_answer = {"type": "hand", "choice": "raise"}
    shared.post(
        reverse("games:act", args=[game.pk]),
        {**form_fields(bob_answer, game.version_for(bob_seat), "k1"), "seat": str(bob_seat)},
    )
    carol = users[carol_seat]
    table = reverse("games:table", args=[game.pk])
    after = shared.post(
        reverse("account_login") + "?next=" + table,
        {"login": carol.username, "password": PASSWORD, "next": table},
        follow=True,
    )
    assert after.redirect_chain[-1][0] == table
    html = after.content.decode()
    assert "Your move was not sent yet" not in html
    assert not re.search(r'value="&quot;raise&quot;"[^>]*checked', html)


# --- leaving races the start -------------------------------------------------------------------


def _race(calls: dict[str, object]) -> dict[str, str]:
    """Runs the calls at once, each in its own thread: "ok" or the GameError's code."""
    barrier = threading.Barrier(len(calls))
    outcomes: dict[str, str] = {}

    def run(name: str, call) -> None:
        try:
            barrier.wait()
            call()
            outcomes[name] = "ok"
        except GameError as exc:
            outcomes[name] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in calls.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_leaving_while_the_creator_starts_leaves_one_consistent_table(trio):
    alice, bob, carol = trio
    for attempt in range(4):
        game = services.game_create(
            alice, engine="cockroach-poker-royal", seats=3, invite=["bob", "carol"]
        )
        services.game_join(bob, game.pk)
        services.game_join(carol, game.pk)
        game_id = game.pk
        outcomes = _race(
            {
                "leave": lambda game_id=game_id: services.game_leave(bob, game_id),
                "start": lambda game_id=game_id: services.game_start(alice, game_id),
            }
        )
        game.refresh_from_db()
        assert outcomes["start"] == "ok", (attempt, outcomes)
        assert game.status == Game.Status.ACTIVE
        seats = list(Seat.objects.filter(game=game).order_by("index"))
        assert [s.index for s in seats] == [0, 1, 2]
        bob_seated = any(s.user_id == bob.pk for s in seats)
        if outcomes["leave"] == "ok":
            assert not bob_seated
            assert Invitation.objects.get(game=game, to_user=bob).status == "declined"
        else:
            assert outcomes["leave"] == "not_active", outcomes
            assert bob_seated
        assert game.state["players"] == 3


# --- the rules pages say what the engine plays (/work/shared/rules) -----------------------------


@pytest.mark.django_db
def test_mogel_mottes_rules_page_ends_the_round_only_when_hand_and_sleeve_are_empty():
    """Spec: "If the card a player plays empties their hand and sleeve, the round ends at once":
    a player whose last hand card is played with a card up the sleeve plays on (its action
    happens), so the page must not say an empty hand alone ends the round."""
    with translation.override("en"):
        html = Client().get(reverse("games:rules", args=["mogel-motte"])).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    sentence = re.search(r"If the card you play[^.]*\.", text).group(0)
    assert "round ends at once" in sentence and "sleeve" in sentence, sentence


# --- a spectator's page shows nothing a spectator may not know ---------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("engine", sorted(registry.ENGINES))
def test_a_spectators_page_is_the_same_whatever_the_hidden_cards_are(started, make_user, engine):
    """The seats' pages are checked by test_integrity; a friend watching (seat None) gets the
    boards, chips, history and move-free forms too: scrambling all a spectator may not know
    leaves the page byte-for-byte the same."""
    game = started(engine)
    watcher = make_user("dave")
    friendship_create(watcher, seat_users(game)[0])
    client = _client(watcher)
    impl = registry.get(engine)
    scramble = scrambler(impl)
    rng = random.Random(11)
    users = seat_users(game)
    page = client.get(reverse("games:table", args=[game.pk]))
    assert page.status_code == 200 and 'class="seats"' in page.content.decode()
    for step in range(40):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        if step % 4 == 0:
            real = game.state
            pages = [
                strip_tokens(client.get(reverse(name, args=[game.pk])).content.decode())
                for name in ("games:table", "games:live")
            ]
            Game.objects.filter(pk=game.pk).update(
                state=scramble(json.loads(json.dumps(real)), None, rng)
            )
            again = [
                strip_tokens(client.get(reverse(name, args=[game.pk])).content.decode())
                for name in ("games:table", "games:live")
            ]
            Game.objects.filter(pk=game.pk).update(state=real)
            assert again == pages, (engine, step)
        seat, action = next_human_move(game, rng)
        services.act(users[seat], game.pk, game.version_for(seat), action)


# --- a POST a login interrupted comes back as a GET: a page, not a 405 -------------------------


@pytest.mark.django_db
def test_learn_and_table_talk_opened_by_get_after_a_login_go_back_to_their_pages(started):
    game = started()
    client = _client(seat_users(game)[0])
    learn = client.get(reverse("games:learn", args=["imperador"]))
    assert learn.status_code == 302
    assert learn["Location"] == reverse("games:rules", args=["imperador"])
    assert not Game.objects.filter(learning=True).exists()  # a GET creates nothing
    talk = client.get(reverse("games:chat_post", args=[game.pk]))
    assert talk.status_code == 302
    assert talk["Location"] == reverse("games:table", args=[game.pk]) + "#chat"
    stranger_game = reverse("games:chat_post", args=[game.pk + 1000])
    assert client.get(stranger_game).status_code == 404


# --- forged commands on someone else's table change nothing ------------------------------------


@pytest.mark.django_db
def test_forged_leave_invite_and_cancel_on_someone_elses_table_change_nothing(trio, make_user):
    alice, bob, carol = trio
    dave = make_user("dave")
    friendship_create(bob, dave)
    game = services.game_create(
        alice, engine="imperador", seats=4, invite=["bob"], join_policy=Game.JoinPolicy.FRIENDS
    )
    services.game_join(bob, game.pk)
    before = (Game.objects.get(pk=game.pk).revision, Seat.objects.filter(game=game).count())
    as_bob, as_carol = _client(bob), _client(carol)
    command = lambda name: reverse("games:command", args=[game.pk, name])  # noqa: E731
    answers = [
        as_bob.post(command("invite"), {"invite": ["dave"]}, follow=True),  # not the creator
        as_bob.post(command("cancel"), follow=True),  # no confirmation page for him
        as_bob.post(command("cancel"), {"confirmed": "1"}, follow=True),
        as_carol.post(command("leave"), follow=True),  # not seated (an open table: may see it)
    ]
    texts = [r.content.decode() for r in answers]
    assert all(r.status_code == 200 for r in answers)
    assert "Only the table&#x27;s creator can invite." in texts[0]
    assert "Only the table&#x27;s creator can cancel it." in texts[1]
    assert "Only the table&#x27;s creator can cancel it." in texts[2]
    assert "You are not playing at this table." in texts[3]
    game.refresh_from_db()
    assert game.status == Game.Status.LOBBY
    assert (game.revision, Seat.objects.filter(game=game).count()) == before
    assert not Invitation.objects.filter(game=game, to_user=dave).exists()
    stranger = _client(make_user("erin"))  # may not see the table at all
    for name in ("leave", "invite", "cancel"):
        assert stranger.post(command(name), {"confirmed": "1"}).status_code == 404
