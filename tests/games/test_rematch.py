"""Play again: everyone who shared the finished table is invited (friends or not), a block
keeps its secret, each press is told what became of it, a Learn table's rematch is another
Learn table, and the table's settings (the spectators' talk among them) carry over."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from accounts.models import Notification
from accounts.services import api_token_create, friendship_create, user_ban, user_block
from games import services
from games.models import Game, Invitation
from tests.games.helpers import play_to_the_end

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def press(user, game: Game) -> tuple[str, list[str]]:
    """Presses "Play again" as ``user``: where it leads, and the messages it left."""
    client = client_for(user)
    response = client.post(reverse("games:command", args=[game.pk, "rematch"]))
    said = [str(m) for m in get_messages(response.wsgi_request)]
    return response.url, said


def table_page(user, game: Game) -> str:
    return client_for(user).get(reverse("games:table", args=[game.pk])).content.decode()


@pytest.fixture
def finished(alice, bob, carol):
    """A finished Imperador table of alice (friends with bob and carol), bob and carol (who
    are not friends): they met at alice's table."""
    friendship_create(alice, bob)
    friendship_create(alice, carol)
    game = services.game_create(
        alice, engine="imperador", seats=3, invite=["bob", "carol"], spectator_chat="own"
    )
    services.game_join(bob, game.pk)
    services.game_join(carol, game.pk)
    services.game_start(alice, game.pk)
    return play_to_the_end(Game.objects.get(pk=game.pk))


def pending(game: Game) -> set[int]:
    return set(
        Invitation.objects.filter(game=game, status="pending").values_list("to_user", flat=True)
    )


def test_the_rematch_invites_every_player_of_the_table_friends_or_not(finished, alice, bob, carol):
    url, said = press(bob, finished)
    rematch = Game.objects.get(rematch_of=finished)
    assert url == reverse("games:table", args=[rematch.pk])
    assert said == ["A new table with the same players: they are invited."]
    assert pending(rematch) == {alice.pk, carol.pk}, "carol shared the table with bob"
    assert rematch.spectator_chat == "own", "the table's settings carry over"
    # carol, not bob's friend, is led to it and told she is invited (not "they are invited")
    assert reverse("games:table", args=[rematch.pk]) in table_page(carol, finished)
    url, said = press(carol, finished)
    assert url == reverse("games:table", args=[rematch.pk])
    assert said == ["You are invited to the rematch: take a seat to play."]
    assert "Take a seat" in table_page(carol, rematch)
    url, said = press(bob, finished)
    assert said == ["Here is the rematch: you have a seat."]
    assert Game.objects.filter(rematch_of=finished).count() == 1


def test_a_block_is_never_told_by_the_rematch(finished, alice, bob, carol):
    """carol blocked bob after the game. bob's rematch lists carol as invited like anyone
    (her invitation never reaches her); carol is not led to bob's table, and her own press
    makes her a rematch without him. Nobody learns of the block from it."""
    user_block(carol, bob)
    url, said = press(bob, finished)
    first = Game.objects.get(rematch_of=finished)
    assert said == ["A new table with the same players: they are invited."]
    assert set(Invitation.objects.filter(game=first).values_list("to_user", flat=True)) == {
        alice.pk,
        carol.pk,
    }, "bob's list shows everyone who shared the table"
    assert "carol" in table_page(bob, first)
    assert not carol.notifications.filter(game_id=first.pk).exists(), "nothing reaches carol"
    assert client_for(carol).get(url).status_code == 404
    page = table_page(carol, finished)
    assert reverse("games:table", args=[first.pk]) not in page
    assert "Play again with the same players" in page, "as if nobody had pressed yet"
    url, said = press(carol, finished)
    second = Game.objects.get(rematch_of=finished, created_by=carol)
    assert url == reverse("games:table", args=[second.pk]) and second.pk != first.pk
    assert said == ["A new table with the same players: they are invited."]
    assert pending(second) == {alice.pk}, "carol's own table: bob, whom she blocked, is not asked"
    # alice, invited to both, is led to the first; bob's page still leads to his own
    assert reverse("games:table", args=[first.pk]) in table_page(alice, finished)
    assert reverse("games:table", args=[first.pk]) in table_page(bob, finished)


def test_a_cancelled_rematch_lets_the_others_play_again(finished, alice, bob, carol):
    press(bob, finished)
    cancelled = Game.objects.get(rematch_of=finished)
    services.game_cancel(bob, cancelled.pk)
    page = table_page(carol, finished)
    assert reverse("games:table", args=[cancelled.pk]) not in page
    assert "Play again with the same players" in page
    url, said = press(carol, finished)
    again = Game.objects.exclude(pk=cancelled.pk).get(rematch_of=finished)
    assert url == reverse("games:table", args=[again.pk])
    assert said == ["A new table with the same players: they are invited."]
    url, said = press(alice, finished)
    assert url == reverse("games:table", args=[again.pk])
    assert said == ["You are invited to the rematch: take a seat to play."]


def test_a_banned_player_does_not_stop_the_rematch(finished, alice, bob, carol, admin_user):
    user_ban(admin_user, carol, "test")
    url, said = press(alice, finished)
    rematch = Game.objects.get(rematch_of=finished)
    assert url == reverse("games:table", args=[rematch.pk])
    assert said == ["A new table with the same players: they are invited."]
    assert pending(rematch) == {bob.pk}


def test_a_learn_tables_rematch_is_another_learn_table_under_way(alice):
    learn = play_to_the_end(services.game_learn(alice, "mogel-motte"))
    assert "Play again against the bots" in table_page(alice, learn)
    url, said = press(alice, learn)
    rematch = Game.objects.get(rematch_of=learn)
    assert url == reverse("games:table", args=[rematch.pk])
    assert said == ["A new game against the bots has started."]
    assert rematch.learning and rematch.status == Game.Status.ACTIVE and rematch.pace == "live"
    assert "How to play" in table_page(alice, rematch)


def test_the_spectators_talk_is_chosen_with_the_table(alice):
    client = client_for(alice)
    page = client.get(reverse("games:new")).content.decode()
    # radios under a legend: a select cut its long choices at a phone's width
    assert "<legend>Spectators' talk</legend>" in page.replace("&#x27;", "'")
    radios = re.findall(r'<input type="radio" name="spectator_chat" value="(\w+)"[^>]*>', page)
    assert [value for value in radios] == ["read", "own"]
    assert re.search(r'value="read"[^>]*checked', page), "the players' talk is read by default"
    response = client.post(
        reverse("games:new"),
        {
            "game": "imperador",
            "seats": 3,
            "pace": "daily",
            "join_policy": "invited",
            "allow_spectators": "on",
            "spectator_chat": "own",
            "starts": "random",
            "bots": 2,
        },
    )
    game = Game.objects.get(created_by=alice)
    assert response.url == reverse("games:table", args=[game.pk])
    assert game.spectator_chat == "own"
    _token, raw = api_token_create(alice, "script")
    for asked, status in (("own", 201), ("loud", 400)):
        answer = Client().post(
            "/api/games",
            json.dumps({"game": "imperador", "seats": 3, "bots": 2, "spectator_chat": asked}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {raw}",
        )
        assert answer.status_code == status, answer.content
    made = Game.objects.latest("pk")
    assert made.spectator_chat == "own"
    assert answer.json()["code"] == "bad_spectator_chat"
    assert Game.objects.filter(created_by=alice).count() == 2, "the refused one made nothing"


def test_a_rematch_never_keeps_who_started_under_any_of_its_names(finished, bob):
    # a table made before the first emperor was always drawn named him, some by the old name
    Game.objects.filter(pk=finished.pk).update(options={"first_emperor": 1})
    press(bob, finished)
    assert Game.objects.get(rematch_of=finished).options == {}


def test_play_again_at_a_table_of_bots_says_the_game_has_started(alice):
    """It said "start when you are ready" while the new game's clock already ran (newcomer
    review): a table of one player and bots that starts when full starts at once."""
    table = services.game_create(
        alice,
        engine="cockroach-poker-royal",
        seats=3,
        bots=2,
        pace="custom",
        move_seconds=45,
        start_when_full=True,
    )
    assert Game.objects.get(pk=table.pk).status == Game.Status.ACTIVE  # full at once: started
    finished = play_to_the_end(Game.objects.get(pk=table.pk))

    _url, said = press(alice, finished)

    rematch = Game.objects.get(rematch_of=finished)
    assert rematch.status == Game.Status.ACTIVE and not rematch.learning
    assert said == ["A new game against the same bots has started."]
    # and its pace reads in seconds, not "0 minutes a move"
    from games.selectors import pace_text

    assert pace_text(rematch) == "Custom: 45 seconds a move"


def test_the_rematchs_invitation_says_it_is_the_rematch_of_the_game_just_played(
    finished, alice, bob, carol
):
    # it read "bob invites you to Imperador #8.", as an invitation to a new table of anyone's
    new_url, _said = press(bob, finished)
    rematch = Game.objects.get(rematch_of=finished)
    assert new_url == reverse("games:table", args=[rematch.pk])

    for invitee in (alice, carol):
        notice = Notification.objects.get(
            user=invitee, game_id=rematch.pk, kind=Notification.Kind.INVITATION
        )
        assert notice.text == (
            f"bob invites you to a rematch: Imperador #{rematch.pk} (after #{finished.pk})."
        )
    # a table of its own still reads as before
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob"])
    assert (
        Notification.objects.get(user=bob, game_id=game.pk, kind=Notification.Kind.INVITATION).text
        == f"alice invites you to Imperador #{game.pk}."
    )


def test_my_games_invitation_row_says_it_is_the_rematch(finished, alice, bob, carol):
    # the bell said "a rematch" but My games' invitation row still read "bob invites you to
    # Imperador #9", like a stranger's new table
    press(bob, finished)
    rematch = Game.objects.get(rematch_of=finished)

    page = client_for(alice).get(reverse("games:my_games")).content.decode()

    row = re.search(r'<section aria-labelledby="inv-h">.*?</section>', page, re.S)
    assert row, "no invitations on My games"
    assert (
        f"bob invites you to a rematch: Imperador #{rematch.pk} (after #{finished.pk})."
        in row.group(0)
    )
