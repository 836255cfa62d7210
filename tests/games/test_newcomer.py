"""What a player who has never seen the site met on their first tables (a play-through as a
new player, on a phone and a desktop), each driven through the Django test client."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

from accounts.services import friendship_create
from games import services
from games.services.moderation import game_abort


def _lobby(user, game) -> str:
    client = Client()
    client.force_login(user)
    page = client.get(reverse("games:table", args=[game.pk])).content.decode()
    match = re.search(r'<section class="lobby">.*?</section>', page, re.S)
    assert match, "no lobby on the table page"
    return match.group(0)


def test_a_friendless_creators_lobby_says_how_to_get_someone_to_invite(alice, bob):
    # the flash says "Invite friends or start when you are ready": a player without friends
    # found no invitation form and no word of where friends come from
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=3)

    lobby = _lobby(alice, game)

    assert "Add friends first to invite them." in lobby
    assert f'href="{reverse("friends")}"' in lobby


def test_a_creator_with_friends_to_invite_gets_the_form_not_the_hint(alice, bob):
    friendship_create(alice, bob)
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=3)

    lobby = _lobby(alice, game)

    assert 'class="invite-more"' in lobby
    assert "Add friends first" not in lobby


def test_a_creator_whose_friends_are_all_invited_is_not_told_to_add_friends(alice, bob):
    friendship_create(alice, bob)
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=3, invite=["bob"])

    lobby = _lobby(alice, game)

    assert 'class="invite-more"' not in lobby
    assert "Add friends first" not in lobby
    # and a seated player who did not create the table is not offered it either
    services.game_join(bob, game.pk)
    assert "Add friends first" not in _lobby(bob, game)


def _status(user, game) -> str:
    client = Client()
    client.force_login(user)
    page = client.get(reverse("games:table", args=[game.pk])).content.decode()
    match = re.search(r'<p class="status[^"]*" id="status">(.*?)</p>', page, re.S)
    assert match, "no status line on the table page"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", match.group(0))).strip()


def test_a_full_table_says_it_waits_for_its_creators_start(alice, bob):
    # the creator read "Waiting for players" above the Start button at a full table, and the
    # seated friend was not told the table waited for anyone in particular
    friendship_create(alice, bob)
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=2, invite=["bob"])
    assert _status(alice, game) == "Waiting for players"  # a seat is free: players are wanted
    services.game_join(bob, game.pk)

    assert _status(alice, game) == "Every seat is taken: start the game."
    assert _status(bob, game) == "Every seat is taken: waiting for alice to start the game."


def test_a_full_live_table_waits_for_the_ready_presses_first(alice, bob):
    friendship_create(alice, bob)
    game = services.game_create(
        alice, engine="cockroach-poker-royal", seats=2, pace="live", invite=["bob"]
    )
    services.game_join(bob, game.pk)
    # bob is not ready yet: the table waits for his press, and says so to him
    assert _status(alice, game) == "Full: waiting for the start"
    assert _status(bob, game) == "Full: press “I’m ready”"

    services.seat_ready(bob, game.pk)

    assert _status(alice, game) == "Every seat is taken: start the game."
    assert _status(bob, game) == "Every seat is taken: waiting for alice to start the game."


def _my_games_row(user, game) -> str:
    client = Client()
    client.force_login(user)
    page = client.get(reverse("games:my_games")).content.decode()
    rows = re.findall(r'<li class="game-row">.*?</li>', page, re.S)
    mine = [r for r in rows if reverse("games:table", args=[game.pk]) in r]
    assert mine, "the table is not in My games"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", mine[0])).strip()


def test_a_table_cancelled_before_its_start_says_cancelled_not_aborted(alice, bob):
    # an invitee opening the table from the notice read "Aborted", as of a crash
    friendship_create(alice, bob)
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=3, invite=["bob"])
    services.game_join(bob, game.pk)
    services.game_cancel(alice, game.pk)

    for user in (alice, bob):
        assert _status(user, game) == "The table was cancelled."
        assert _my_games_row(user, game).endswith("The table was cancelled.")


def test_a_game_stopped_in_play_still_says_aborted(started, trio, admin_user):
    alice = trio[0]
    game = started()
    game_abort(admin_user, game.pk, "a test of the words")

    assert _status(alice, game) == "Aborted"
    assert _my_games_row(alice, game).endswith("aborted")


def test_a_friend_watching_a_game_is_told_they_watch(started, trio, make_user):
    # a spectator's page is the table without a hand or moves: nothing said they only watch
    alice, _bob, _carol = trio
    dave = make_user("dave")
    friendship_create(alice, dave)
    game = started()
    watching = "You are watching this game as a spectator."

    client = Client()
    client.force_login(dave)
    assert watching in client.get(reverse("games:table", args=[game.pk])).content.decode()
    client.force_login(alice)
    assert watching not in client.get(reverse("games:table", args=[game.pk])).content.decode()


def _my_games(user) -> str:
    client = Client()
    client.force_login(user)
    page = client.get(reverse("games:my_games")).content.decode()
    match = re.search(r'<div id="my-games-lists".*?(?=<section class="how-to-play")', page, re.S)
    assert match, "no lists on My games"
    return match.group(0)


def test_a_new_players_empty_my_games_offers_a_first_table_against_bots_and_friends(alice):
    # a brand-new player read only "Nothing waits on you." and "None.": nothing said where a
    # first game comes from
    lists = _my_games(alice)

    assert "Your first game" in lists
    for slug in ("cockroach-poker-royal", "mogel-motte", "imperador"):
        assert f'action="{reverse("games:learn", args=[slug])}"' in lists
    assert f'href="{reverse("friends")}"' in lists
    assert "Nothing waits on you." not in lists


def test_the_first_steps_are_gone_once_the_player_has_a_table(alice):
    game = services.game_learn(alice, "mogel-motte")
    lists = _my_games(alice)
    assert "Your first game" not in lists
    assert f"#{game.pk}" in lists


NEVER_FULL = "Only invited players can sit at this table"
EVERY_SEAT = "The game starts as soon as every seat is taken."


def test_an_invite_only_lobby_with_uninvited_free_seats_does_not_promise_a_full_table(alice, bob):
    # a friendless player's first table promised "The game starts as soon as every seat is
    # taken": nobody could take those seats
    game = services.game_create(
        alice, engine="cockroach-poker-royal", seats=3, start_when_full=True
    )

    lobby = _lobby(alice, game)

    assert NEVER_FULL in lobby
    assert EVERY_SEAT not in lobby


def test_a_lobby_whose_free_seats_are_all_invited_still_says_it_starts_when_full(alice, bob):
    friendship_create(alice, bob)
    game = services.game_create(
        alice, engine="cockroach-poker-royal", seats=2, invite=["bob"], start_when_full=True
    )
    assert EVERY_SEAT in _lobby(alice, game) and NEVER_FULL not in _lobby(bob, game)
    services.invitation_decline(bob, game.pk)
    assert NEVER_FULL in _lobby(alice, game)  # the one invitation was declined


def test_a_lobby_open_to_friends_still_says_it_starts_when_full(alice, bob):
    game = services.game_create(
        alice, engine="cockroach-poker-royal", seats=3, join_policy="friends", start_when_full=True
    )
    lobby = _lobby(alice, game)
    assert EVERY_SEAT in lobby and NEVER_FULL not in lobby


def _new_table_form(user) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("games:new")).content.decode()


def test_a_friendless_players_new_table_form_says_nobody_can_join_before_it_is_made(alice):
    # the form's defaults made an invite-only table nobody could join, and only the lobby
    # said so, after it was made
    page = _new_table_form(alice)

    hint = re.search(r'<p class="friendless">.*?</p>', page, re.S)
    assert hint, "no word on the form that nobody can join"
    assert "nobody can join an invite-only table of yours" in hint.group(0)
    assert f'href="{reverse("friends")}"' in hint.group(0)


def test_a_player_with_friends_is_not_told_they_have_none(alice, bob):
    friendship_create(alice, bob)
    assert 'class="friendless"' not in _new_table_form(alice)


def test_cancelling_a_table_leads_its_creator_to_my_games(alice):
    # the creator stayed on the dead table, its talk box and "Sound" still there
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=3)
    client = Client()
    client.force_login(alice)

    done = client.post(
        reverse("games:command", args=[game.pk, "cancel"]), {"confirmed": "1"}, follow=True
    )

    assert done.redirect_chain[-1][0] == reverse("games:my_games")
    assert "The table was cancelled." in done.content.decode()


def test_a_cancelled_tables_invitee_is_not_shown_its_talk_box(alice, bob):
    # the invitee opened the cancelled table from the bell and read "Spectators read the
    # players' talk at this table" under an empty talk box
    friendship_create(alice, bob)
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=3, invite=["bob"])
    services.game_cancel(alice, game.pk)
    client = Client()
    client.force_login(bob)

    page = client.get(reverse("games:table", args=[game.pk])).content.decode()

    slot = re.search(r'<div id="chat-slot"[^>]*>', page)
    assert slot and " hidden" in slot.group(0)
    assert "Spectators read the players" not in page
