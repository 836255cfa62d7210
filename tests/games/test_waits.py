"""The wait is a thing: deadlines, notices and reminders belong to one wait, not to a version."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Notification
from games import services
from games.engines import registry
from games.errors import GameError
from games.models import Event, Game, Seat
from tests.games.helpers import bots_moment_now, next_human_move, seat_users

pytestmark = pytest.mark.django_db


def play_one(game: Game, rng: random.Random) -> None:
    """One person's move; or, when only bots owe (a window), their moment, at once."""
    move = next_human_move(game, rng)
    if move is None:
        assert bots_moment_now(game, rng), "the game waits on nobody"
    else:
        seat, action = move
        services.act(seat_users(game)[seat], game.pk, game.version_for(seat), action)
    game.refresh_from_db()


def drive_until(game: Game, reached, rng: random.Random, limit: int = 400) -> Game:
    """Human moves (chosen by the engine's bot) until ``reached(game)``."""
    for _ in range(limit):
        game.refresh_from_db()
        if reached(game):
            return game
        assert game.status == Game.Status.ACTIVE, "the game ended first"
        play_one(game, rng)
    raise AssertionError("the position was never reached")


def waiting(game: Game):
    return registry.get(game.engine).waiting_for(game.state)


def test_a_wait_is_stored_with_its_seat_its_opening_and_a_full_deadline(started):
    game = started("cockroach-poker-royal")
    on_turn = waiting(game).seats[0]
    assert (game.wait_kind, game.wait_seat, game.wait_window) == ("turn", on_turn, "")
    assert game.deadline_at == game.wait_opened_at + timedelta(seconds=game.move_seconds)
    play_one(game, random.Random(3))
    assert game.wait_seat != on_turn and game.wait_seq == 2
    assert game.deadline_at == game.wait_opened_at + timedelta(seconds=game.move_seconds)


def test_answers_inside_a_window_do_not_move_its_deadline_nor_notify_again(started):
    game = started("imperador")
    rng = random.Random(5)
    game = drive_until(
        game, lambda g: waiting(g).kind == "window" and len(waiting(g).seats) >= 2, rng
    )
    deadline, wait_seq = game.deadline_at, game.wait_seq
    asked = set(waiting(game).seats)
    users = seat_users(game)
    notes_before = Counter(
        Notification.objects.filter(kind=Notification.Kind.WINDOW).values_list("user", flat=True)
    )
    assert all(notes_before[users[s].pk] == 1 for s in asked), "one notice when it opened"
    first = sorted(asked)[0]
    action = registry.get(game.engine).bot_action(game.state, first, rng)
    services.act(users[first], game.pk, game.version_for(first), action)
    game.refresh_from_db()
    assert game.wait_seq == wait_seq and game.deadline_at == deadline
    notes_after = Counter(
        Notification.objects.filter(kind=Notification.Kind.WINDOW).values_list("user", flat=True)
    )
    assert notes_after == notes_before


def test_an_out_of_turn_move_does_not_reset_the_turn_clock_nor_ping_the_player_on_turn(started):
    game = started("mogel-motte")
    engine = registry.get(game.engine)
    rng = random.Random(11)

    def someone_else_may_cheat_or_accuse(g: Game) -> bool:
        w = waiting(g)
        if w.kind != "turn":
            return False
        return any(
            a["type"] in ("cheat", "accuse")
            for s in seat_users(g)
            if s != w.seats[0]
            for a in engine.legal_actions(g.state, s)
        )

    game = drive_until(game, someone_else_may_cheat_or_accuse, rng)
    on_turn = waiting(game).seats[0]
    deadline, wait_seq = game.deadline_at, game.wait_seq
    turn_notes = Notification.objects.filter(kind=Notification.Kind.YOUR_TURN).count()
    other, action = next(
        (s, a)
        for s in seat_users(game)
        if s != on_turn
        for a in engine.legal_actions(game.state, s)
        if a["type"] in ("cheat", "accuse")
    )
    services.act(seat_users(game)[other], game.pk, game.version_for(other), action)
    game.refresh_from_db()
    assert waiting(game).seats == (on_turn,)
    assert game.wait_seq == wait_seq and game.deadline_at == deadline
    assert Notification.objects.filter(kind=Notification.Kind.YOUR_TURN).count() == turn_notes


@pytest.mark.parametrize("engine", ["cockroach-poker-royal", "mogel-motte", "imperador"])
def test_each_player_gets_one_notice_per_wait_over_a_whole_game(started, engine):
    game = started(engine)
    rng = random.Random(17)
    for _ in range(120):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        play_one(game, rng)
    per_wait = Counter(
        Notification.objects.filter(
            kind__in=(Notification.Kind.YOUR_TURN, Notification.Kind.WINDOW)
        ).values_list("user", "game_id", "wait_seq")
    )
    assert per_wait and max(per_wait.values()) == 1
    # and the bell holds at most one open wait notice per game
    for user in seat_users(game).values():
        open_notes = Notification.objects.filter(
            user=user,
            game_id=game.pk,
            read_at__isnull=True,
            kind__in=(Notification.Kind.YOUR_TURN, Notification.Kind.WINDOW),
        )
        assert open_notes.count() <= 1


def test_a_seat_handed_to_the_bot_for_missed_turns_is_taken_back_and_plays_again(started):
    game = started("mogel-motte")  # long games: three rounds
    alice, bob = seat_users(game)[0], seat_users(game)[1]
    services.seat_to_bot(alice, game.pk, 1, "test: a moderator's hand-over")
    with pytest.raises(GameError) as refused:
        services.seat_reclaim(bob, game.pk)
    assert refused.value.code == "not_reclaimable"

    def alices_turn(g: Game) -> bool:
        return waiting(g).kind == "turn" and waiting(g).seats == (0,)

    rng = random.Random(2)
    for _ in range(300):  # alice is away: every wait on her times out, until the bot has her seat
        seat = Seat.objects.get(game=game, index=0)
        if seat.is_bot:
            break
        game.refresh_from_db()
        if 0 in waiting(game).seats:
            services.force_deadline(game.created_by, game.pk, "test: alice is away")
        else:
            play_one(game, rng)
    seat = Seat.objects.get(game=game, index=0)
    assert seat.is_bot and seat.bot_reason == "timeouts"
    services.seat_reclaim(alice, game.pk)
    seat.refresh_from_db()
    assert not seat.is_bot and seat.consecutive_timeouts == 0

    def alices_turn_opened_by_another(g: Game) -> bool:
        # a turn her own move opened tells her nothing (she is at the table): not this one
        return (
            alices_turn(g)
            and not Event.objects.filter(
                game=g, seat=0, reason="move", created_at__gte=g.wait_opened_at
            ).exists()
        )

    game = drive_until(game, alices_turn_opened_by_another, random.Random(4))
    assert Notification.objects.filter(
        user=alice, kind=Notification.Kind.YOUR_TURN, wait_seq=game.wait_seq
    ).exists()
    moves_before = Event.objects.filter(game=game, seat=0, reason="move").count()
    play_one(game, random.Random(6))
    assert Event.objects.filter(game=game, seat=0, reason="move").count() == moves_before + 1


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _live_table(trio) -> Game:
    alice, bob, carol = trio
    game = services.game_create(
        alice, engine="cockroach-poker-royal", seats=3, pace="live", invite=["bob", "carol"]
    )
    services.game_join(bob, game.pk)
    services.game_join(carol, game.pk)
    return game


def test_a_live_table_starts_when_everyone_pressed_ready(trio):
    alice, bob, carol = trio
    game = _live_table(trio)
    host = _client(alice)
    page = host.post(reverse("games:command", args=[game.pk, "start"]), follow=True)
    assert "Not everyone is ready" in page.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.Status.LOBBY
    for user in (bob, carol):
        page = _client(user).post(reverse("games:command", args=[game.pk, "ready"]), follow=True)
        assert "You are ready." in page.content.decode()
    host.post(reverse("games:command", args=[game.pk, "start"]))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert not Seat.objects.filter(game=game, is_bot=True).exists()


def test_starting_a_live_table_anyway_gives_the_absent_seat_to_the_bot_until_taken_back(trio):
    alice, bob, carol = trio
    game = _live_table(trio)
    _client(bob).post(reverse("games:command", args=[game.pk, "ready"]))
    _client(alice).post(reverse("games:command", args=[game.pk, "start_anyway"]))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    absent = Seat.objects.get(game=game, user=carol)
    assert absent.is_bot and absent.bot_reason == "absent"
    assert not Seat.objects.get(game=game, user=bob).is_bot
    carols = _client(carol)
    page = carols.get(reverse("games:table", args=[game.pk])).content.decode()
    assert "Take back my seat" in page
    revision = game.revision
    carols.post(reverse("games:command", args=[game.pk, "reclaim"]))
    absent.refresh_from_db()
    game.refresh_from_db()
    assert not absent.is_bot and absent.bot_reason == ""
    assert game.revision == revision + 1, "open pages hear of it"
    assert (
        "Take back my seat"
        not in carols.get(reverse("games:table", args=[game.pk])).content.decode()
    )


def test_games_in_play_before_the_wait_was_stored_get_their_current_wait(started):
    import importlib

    from django.apps import apps

    game = started("cockroach-poker-royal")
    expected = (game.wait_kind, game.wait_seat)
    Game.objects.filter(pk=game.pk).update(  # a row as the first version stored it
        wait_seq=0, wait_kind="", wait_window="", wait_seat=None, wait_opened_at=None
    )
    importlib.import_module("games.migrations.0006_fill_current_waits").fill(apps, None)
    game.refresh_from_db()
    assert (game.wait_kind, game.wait_seat) == expected and game.wait_seq == 1
    assert game.wait_opened_at is not None
