"""Two requests crossing: a change of a player's account (a ban, a vacation, a closing) while a
move or a join at one of their tables holds, or waits for, that table's lock. Each crossing is made deterministic: the
move stops just before its write (the game row locked) until the other request waits for that
lock, then writes; the two must queue, never deadlock (PostgreSQL would cancel one of them:
"The site is busy" for the move, or the moderator's ban, lost)."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.messages import get_messages
from django.db import connection, transaction
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from accounts import services as account_services
from accounts.models import Friendship, Notification, User
from accounts.services import account_close
from games import services, table_write
from games.engines import registry
from games.errors import NotActive, NotAllowed
from games.models import ChatMessage, Event, Game, Report, Seat
from games.services import bot_time, chat, moderation, notify, vacation
from games.services.departure import player_departed
from tests.games.helpers import (
    a_move_that_ends_the_turn,
    next_human_move,
    play_until,
    seat_users,
    to_the_show_of_hands,
    turn_game,
)
from tests.lock_waits import until_queued, waiting_for_a_lock

PASSWORD = "a-long-test-password"


def _pause_the_move_before_its_write(
    monkeypatch: pytest.MonkeyPatch, name: str = "move"
) -> tuple[Any, Any]:
    """The thread ``name`` stops inside its change (the game locked, nothing written) until
    ``go`` is set; ``locked`` says it got there."""
    locked, go = threading.Event(), threading.Event()
    real = table_write.write_change

    def write_change(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread().name == name:
            locked.set()
            assert go.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(table_write, "write_change", write_change)
    return locked, go


def _outcomes() -> tuple[dict[str, Any], Callable[[str, Callable[[], Any]], None]]:
    """What each crossing thread ended with, by its name (its answer, or the error it raised,
    collected and asserted by the test), and the ``run(name, work)`` each thread runs."""
    outcomes: dict[str, Any] = {}

    def run(name: str, work: Callable[[], Any]) -> None:
        try:
            outcomes[name] = work()
        except Exception as error:  # collected and asserted by the test
            outcomes[name] = error
        finally:
            connection.close()

    return outcomes, run


def _pause_after(
    monkeypatch: pytest.MonkeyPatch, module: Any, function: str, thread: str
) -> tuple[threading.Event, threading.Event]:
    """In the thread named ``thread``, ``module.function`` does its work, then stops (inside
    its change: written, not committed) until ``go`` is set; ``paused`` says it got there."""
    paused, go = threading.Event(), threading.Event()
    real = getattr(module, function)

    def pausing(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        if threading.current_thread().name == thread:
            paused.set()
            assert go.wait(10)
        return result

    monkeypatch.setattr(module, function, pausing)
    return paused, go


def _cross(
    monkeypatch: pytest.MonkeyPatch,
    move: Callable[[], Any],
    other: Callable[[], Any],
    name: str = "move",
) -> dict[str, Any]:
    """``move`` takes the game's lock and stops; ``other`` starts and waits for that lock;
    then the move writes. Each thread's outcome (under ``name``, and "other"): its answer,
    or the error it raised."""
    locked, go = _pause_the_move_before_its_write(monkeypatch, name)
    outcomes, run = _outcomes()

    mover = threading.Thread(target=run, args=(name, move), name=name)
    mover.start()
    assert locked.wait(10)
    crosser = threading.Thread(target=run, args=("other", other), name="other")
    crosser.start()
    until_queued()  # the other request queues behind the move's lock
    go.set()
    mover.join(30)
    crosser.join(30)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_a_ban_crossing_the_banned_players_own_move_keeps_the_move_and_bans(
    started, admin_user, monkeypatch
):
    """The admin's ban locks the player's row, then waits for each of their tables; the
    player's move at one of them, already holding it, writes its event (which names the
    player): the two must queue, the move first, then the seat goes to the bot."""
    game = started("cockroach-poker-royal")
    seat, action = next_human_move(game, random.Random(5))
    player = seat_users(game)[seat]
    version = game.version_for(seat)
    ban = _close_or_ban("ban", player, admin_user)

    outcomes = _cross(
        monkeypatch, lambda: services.act(player, game.pk, version, action, "k").replayed, ban
    )

    assert outcomes == {"move": False, "other": 302}
    assert Event.objects.filter(game=game, reason="move", actor=player).count() == 1
    assert User.objects.get(pk=player.pk).banned_at is not None
    held = Seat.objects.get(game=game, index=seat)
    assert (held.is_bot, held.bot_reason) == (True, "banned")


@pytest.mark.django_db(transaction=True)
def test_a_vacation_crossing_a_move_that_asks_the_player_queues_behind_it(started, monkeypatch):
    """A player goes on vacation (their row locked, then each of their tables) while another
    player's move, holding one of those tables, writes the notice that asks them: the
    vacation waits for the move, then pushes the new turn's deadline."""
    game = started("cockroach-poker-royal")
    engine = registry.get(game.engine)
    users = seat_users(game)
    mover, action = next_human_move(game, random.Random(5))
    after, _events = engine.apply(game.state, mover, action)
    asked = [s for s in engine.waiting_for(after).seats if s != mover and s in users]
    assert engine.waiting_for(after).kind == "turn" and asked, "the move must hand a turn on"
    away = users[asked[0]]
    version = game.version_for(mover)

    outcomes = _cross(
        monkeypatch,
        lambda: services.act(users[mover], game.pk, version, action, "k").replayed,
        lambda: vacation.vacation_start(away, 3).pk,
    )

    assert outcomes == {"move": False, "other": away.pk}
    assert Event.objects.filter(game=game, reason="move").count() == 1
    game = Game.objects.get(pk=game.pk)
    away_until = User.objects.get(pk=away.pk).away_until
    assert away_until is not None and game.deadline_at >= away_until  # the turn waits


def _close_or_ban(how: str, player: User, admin_user: User) -> Callable[[], int]:
    """The player closes their account from the profile (the password given again first), or
    a moderator bans them in the admin: the request, ready to send."""
    client = Client()
    if how == "close":
        client.force_login(player)
        reauth = client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
        assert reauth.status_code == 302
        return lambda: client.post(reverse("account_close"), {"confirm": "on"}).status_code
    client.force_login(admin_user)
    data = {
        "action": "ban_users",
        ACTION_CHECKBOX_NAME: [player.pk],
        "index": 0,
        "apply": "yes",
        "reason": "trolling",
    }
    return lambda: client.post(reverse("admin:accounts_user_changelist"), data).status_code


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", ["close", "ban"])
def test_a_join_crossing_the_players_account_closed_or_banned_leaves_no_seat(trio, admin_user, how):
    """Bob presses "Join" at an open table whose lock another change holds, and his account
    is closed (or banned) while the join waits: the closing must not miss the table the join
    is about to seat him at. Nobody would play that seat."""
    alice, bob, _carol = trio
    table = services.game_create(
        alice, engine="cockroach-poker-royal", seats=3, join_policy=Game.JoinPolicy.ANYONE
    )
    held, release = threading.Event(), threading.Event()
    answers, run = _outcomes()

    def hold() -> None:  # another change at the table, under way
        try:
            with transaction.atomic():
                Game.objects.select_for_update(no_key=True).get(pk=table.pk)
                held.set()
                assert release.wait(10)
        finally:
            connection.close()

    join_client = Client()
    join_client.force_login(bob)
    join = reverse("games:command", args=[table.pk, "join"])
    leave = _close_or_ban(how, bob, admin_user)
    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    joiner = threading.Thread(target=run, args=("join", lambda: join_client.post(join).status_code))
    joiner.start()
    until_queued()  # the join waits for the table
    leaver = threading.Thread(target=run, args=(how, leave))
    leaver.start()
    until_queued(leaver, waiting=2, polls=40)  # done, or waiting for the join
    release.set()
    for thread in (holder, joiner, leaver):
        thread.join(30)

    assert answers == {"join": 302, how: 302}
    assert not User.objects.get(pk=bob.pk).is_active
    assert not Seat.objects.filter(game=table, user=bob).exists()
    assert Game.objects.get(pk=table.pk).status == Game.Status.LOBBY


@pytest.mark.django_db(transaction=True)
def test_a_join_sent_before_the_account_closed_and_run_after_is_refused(trio):
    """A join from a second device, authenticated before Bob closed his account on the first,
    reaches the table after the closing: it is refused, and no seat is his."""
    alice, bob, _carol = trio
    table = services.game_create(
        alice, engine="cockroach-poker-royal", seats=3, join_policy=Game.JoinPolicy.ANYONE
    )
    device = User.objects.get(pk=bob.pk)  # the second device's request, signed in
    with transaction.atomic():  # as the profile's "Close my account" does it
        player_departed(bob)
        account_close(bob)

    with pytest.raises(NotAllowed) as refused:
        services.game_join(device, table.pk)

    assert refused.value.message == "Your account is closed or suspended: it cannot take a seat."
    assert not Seat.objects.filter(game=table, user=bob).exists()


@pytest.mark.django_db(transaction=True)
def test_a_table_created_from_a_device_signed_in_before_the_account_closed_is_refused(trio):
    """A "Create table" from a second device reaches the site after Bob closed his account on
    the first: the closing has already left his tables, so a table made now would stay in the
    lobby under a closed account, open to anyone, that nobody may start."""
    _alice, bob, _carol = trio
    device = User.objects.get(pk=bob.pk)  # the second device's request, signed in
    with transaction.atomic():  # as the profile's "Close my account" does it
        player_departed(bob)
        account_close(bob)

    with pytest.raises(NotAllowed) as refused:
        services.game_create(
            device, engine="cockroach-poker-royal", seats=3, join_policy=Game.JoinPolicy.ANYONE
        )

    assert refused.value.message == "Your account is closed or suspended: it cannot take a seat."
    assert not Game.objects.filter(created_by=bob).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", ["close", "ban"])
@pytest.mark.parametrize("whose", ["alice", "bob"])
def test_leaving_every_table_crossing_a_start_hands_the_started_seat_to_the_bot(
    trio, admin_user, monkeypatch, how, whose
):
    """Bob sits at Alice's table in the lobby; Alice presses Start as Bob closes his account
    (or is banned). The closing lists the table as in the lobby, then waits for it while the
    start writes: it finds a game in play, whose seat the bot then takes, as at any table in
    play; the closing goes through. The same when the table is Bob's and he presses Start: the
    game that started goes on (a ban stopped it, as it stops his tables in the lobby)."""
    alice, bob, _carol = trio
    creator = bob if whose == "bob" else alice
    others = [u for u in trio if u.pk != creator.pk]
    table = services.game_create(
        creator, engine="cockroach-poker-royal", seats=3, invite=[u.username for u in others]
    )
    for player in others:
        services.game_join(player, table.pk)
    leave = _close_or_ban(how, bob, admin_user)

    def start() -> str:
        services.game_start(creator, table.pk)
        return "started"

    outcomes = _cross(monkeypatch, start, leave, name="start")

    assert outcomes == {"start": "started", "other": 302}
    assert not User.objects.get(pk=bob.pk).is_active
    assert Game.objects.get(pk=table.pk).status == Game.Status.ACTIVE
    held = Seat.objects.get(game=table, user=bob)
    assert (held.is_bot, held.bot_reason) == (True, "closed" if how == "close" else "banned")


@pytest.mark.django_db(transaction=True)
def test_two_players_closing_their_accounts_at_each_others_tables_both_close(trio, monkeypatch):
    """Alice sits at Bob's table and Bob at hers, both in the lobby, and they close their
    accounts at the same moment. Each closing cancels its own table and leaves the other's:
    taken in one order (the tables' ids) they queue; taken as "mine first" each held the
    table the other waited for (a deadlock: one closing failed)."""
    alice, bob, _carol = trio
    hers = services.game_create(alice, engine="cockroach-poker-royal", seats=3, invite=["bob"])
    services.game_join(bob, hers.pk)
    his = services.game_create(bob, engine="cockroach-poker-royal", seats=3, invite=["alice"])
    services.game_join(alice, his.pk)

    outcomes = _cross(
        monkeypatch,
        _close_or_ban("close", alice, alice),
        _close_or_ban("close", bob, bob),
        name="alice",
    )

    assert outcomes == {"alice": 302, "other": 302}
    assert not User.objects.filter(pk__in=[alice.pk, bob.pk], is_active=True).exists()
    for table in (hers, his):
        assert Game.objects.get(pk=table.pk).status == Game.Status.ABORTED


@pytest.mark.django_db(transaction=True)
def test_a_double_click_on_report_this_message_makes_one_report(started, monkeypatch):
    """Carol's two presses of "Report this message" arrive together: the first is checked
    (no open report of Bob by her at this table) and stops before it writes; the second must
    then wait for it and hear that Bob is already reported, not make a second report."""
    game = started("cockroach-poker-royal")
    _alice, bob, carol = (seat_users(game)[i] for i in range(3))
    line = chat.post(bob, game.pk, "You will lose, Alice")
    paused, go = threading.Event(), threading.Event()
    real = Report.objects.create

    def create(**fields: Any) -> Report:
        if threading.current_thread().name == "first":
            paused.set()
            assert go.wait(10)
        return real(**fields)

    monkeypatch.setattr(Report.objects, "create", create)
    answers: dict[str, list[str]] = {}

    def press(name: str) -> None:
        try:
            client = Client()
            client.force_login(carol)
            response = client.post(reverse("games:chat_report", args=[game.pk, line.seq]))
            answers[name] = [str(m) for m in get_messages(response.wsgi_request)]
        finally:
            connection.close()

    first = threading.Thread(target=press, args=("first",), name="first")
    first.start()
    assert paused.wait(10)
    second = threading.Thread(target=press, args=("second",), name="second")
    second.start()
    until_queued(second, polls=60)  # the second press done, or waiting for the first
    go.set()
    first.join(30)
    second.join(30)

    assert Report.objects.filter(reporter=carol, reported=bob).count() == 1
    assert answers == {
        "first": ["Thank you. The moderators will read the message."],
        "second": [
            f"You have already reported {bob.name} at this table; the moderators will look at it."
        ],
    }


def _a_game_bob_and_alice_left_on_his_turn(
    started: Callable[[str], Game], admin_user: User, monkeypatch: pytest.MonkeyPatch
) -> tuple[Game, list[User], Notification]:
    """A Cockroach Poker Royal table dealt on Bob's turn (the deals that were not are aborted:
    no tables of theirs), which Bob then Alice left: Carol still plays, the bot plays their
    seats with seeded randomness, and Bob's "your turn" stays unread. The table, its players
    (alice, bob, carol) and that notice."""
    seeds = iter(range(1000))
    monkeypatch.setattr(bot_time, "new_rng", lambda: random.Random(next(seeds)))
    for _deal in range(20):
        game = started("cockroach-poker-royal")
        if list(registry.get(game.engine).waiting_for(game.state).seats) == [1]:
            break
        services.game_abort(admin_user, game.pk, "dealt again")
    else:
        raise AssertionError("no deal opened on Bob's turn")
    players = [seat_users(game)[i] for i in range(3)]
    alice, bob = players[0], players[1]
    services.game_quit(bob, game.pk)
    services.game_quit(alice, game.pk)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE  # Carol still plays
    his_turn = Notification.objects.get(user=bob, game_id=game.pk, kind=Notification.Kind.YOUR_TURN)
    assert his_turn.read_at is None
    return game, players, his_turn


def _bobs_closing_crossing_carols_quit_that_ends_the_game(
    monkeypatch: Any, game: Game, bob: User, carol: User, admin_user: User
) -> dict[str, Any]:
    """Carol's quit ends the game and stops once the end is written, not yet committed; Bob's
    closing starts then and is left waiting (for what the quit holds); the quit goes on. What
    each returned (None) or raised."""
    ended, go = _pause_after(monkeypatch, notify, "game_finished", "quit")
    outcomes, run = _outcomes()
    close = _close_or_ban("close", bob, admin_user)
    quitter = threading.Thread(
        target=run, args=("quit", lambda: services.game_quit(carol, game.pk)), name="quit"
    )
    quitter.start()
    assert ended.wait(30)
    closer = threading.Thread(target=run, args=("close", close), name="close")
    closer.start()
    until_queued(closer)
    go.set()
    quitter.join(30)
    closer.join(30)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_a_game_the_bots_end_as_the_player_who_left_it_closes_his_account_is_no_deadlock(
    started, admin_user, monkeypatch
):
    """Bob left a game on his turn (his "your turn" stays unread: the bot played it), then
    Alice left it too. Carol leaves it as Bob closes his account: the bots play it to the
    end, and the end marks Bob's old notice read and tells him the result. Bob's closing,
    which deletes his notices, must queue behind Carol's change: that change, committing,
    checks Bob's row (the new notice names him), which a closing that held his row FOR UPDATE
    while it waited for the notice made wait in turn (a deadlock, Carol's quit or Bob's
    closing cancelled: "The site is busy"). The closing now also takes that table first."""
    game, (_alice, bob, carol), his_turn = _a_game_bob_and_alice_left_on_his_turn(
        started, admin_user, monkeypatch
    )

    # Bob's closing waits for his notice the end marked read
    outcomes = _bobs_closing_crossing_carols_quit_that_ends_the_game(
        monkeypatch, game, bob, carol, admin_user
    )
    assert outcomes == {"quit": None, "close": 302}
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert User.objects.get(pk=bob.pk).closed_at is not None
    assert not Notification.objects.filter(pk=his_turn.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_a_ban_that_ends_a_game_the_closing_player_left_then_waits_for_his_table_is_no_deadlock(
    started, admin_user, monkeypatch
):
    """Bob closes his account as a moderator bans Carol. At a table Bob left on his turn (his
    "your turn" still unread) and Alice left too, the ban hands Carol's seat to the bot: the
    bots play it to the end, which marks Bob's notice read; then the ban waits for the next
    table, which Bob's closing holds. The closing, at its end, deletes Bob's notices: had it
    not also locked the table that notice is about, in its tables' order, it would wait for
    the ban and the ban for it."""
    left, (alice, bob, carol), _his_turn = _a_game_bob_and_alice_left_on_his_turn(
        started, admin_user, monkeypatch
    )
    shared = started("cockroach-poker-royal")  # all three play it, after the other

    outcomes = _cross(
        monkeypatch,
        _close_or_ban("close", bob, admin_user),  # stops at the shared table, holding it
        _close_or_ban("ban", carol, admin_user),
    )

    assert outcomes == {"move": 302, "other": 302}
    assert Game.objects.get(pk=left.pk).status == Game.Status.FINISHED
    assert User.objects.get(pk=bob.pk).closed_at is not None
    assert User.objects.get(pk=carol.pk).banned_at is not None
    seats = {s.user_id: s.bot_reason for s in Seat.objects.filter(game=shared)}
    assert seats == {alice.pk: "", bob.pk: "closed", carol.pk: "banned"}


@pytest.mark.django_db(transaction=True)
def test_a_table_cancelled_as_the_invited_player_closes_his_account_is_no_deadlock(
    trio, admin_user, monkeypatch
):
    """Alice cancels the table she invited Bob to as Bob closes his account: the cancel marks
    his invitation read and tells him, and, committing, checks his row (the new notice names
    him). His closing, which holds his row, waits for that table to decline the invitation:
    had it taken his row FOR UPDATE, the cancel's check would wait for it in turn (a
    deadlock: the cancel or the closing lost). (An invitation sent once his closing is under
    way waits for it: see the test after the friendship's.)"""
    alice, bob, _carol = trio
    table = services.game_create(alice, engine="imperador", seats=3)
    services.game_invite(alice, table.pk, ["bob"])
    # the cancel stops once Bob is told, not yet committed
    cancel_paused, cancel_go = _pause_after(monkeypatch, notify, "table_cancelled", "cancel")
    outcomes, run = _outcomes()

    canceller = threading.Thread(
        target=run, args=("cancel", lambda: services.game_cancel(alice, table.pk)), name="cancel"
    )
    canceller.start()
    assert cancel_paused.wait(10)
    closer = threading.Thread(
        target=run, args=("close", _close_or_ban("close", bob, admin_user)), name="close"
    )
    closer.start()
    until_queued(closer)  # the closing, holding Bob's row, waits for the table the cancel holds
    cancel_go.set()
    closer.join(30)
    canceller.join(30)

    assert outcomes == {"close": 302, "cancel": None}
    assert User.objects.get(pk=bob.pk).closed_at is not None
    assert Game.objects.get(pk=table.pk).status == Game.Status.ABORTED
    assert not Notification.objects.filter(user=bob).exists()


@pytest.mark.django_db(transaction=True)
def test_a_friendship_ended_as_the_friend_closes_his_account_is_no_deadlock(
    started, admin_user, monkeypatch
):
    """Alice unfriends Bob as Bob closes his account. The closing holds Bob's row and tells
    Alice, at their table, that the bot plays his seat; committing, it checks her row (the
    notice names her). The unfriending locks the two rows in id order, Alice's first: taken
    FOR UPDATE, her row kept the closing's check waiting while the unfriending waited for
    Bob's row (a deadlock: the closing, or the unfriending, lost)."""
    game = started("cockroach-poker-royal")
    alice, bob = seat_users(game)[0], seat_users(game)[1]
    assert alice.pk < bob.pk  # her row first

    outcomes = _cross(
        monkeypatch,
        _close_or_ban("close", bob, admin_user),  # stops at their table, holding it and his row
        lambda: account_services.friendship_remove(alice, bob),
    )

    # the unfriending, after the closing: the friendship went with Bob's account
    assert outcomes["move"] == 302
    assert isinstance(outcomes["other"], account_services.FriendError)
    assert outcomes["other"].code == "not_friends"
    assert not Friendship.objects.filter(Q(user_low=bob) | Q(user_high=bob)).exists()
    held = Seat.objects.get(game=game, user=bob)
    assert (held.is_bot, held.bot_reason) == (True, "closed")
    assert Notification.objects.filter(
        user=alice, game_id=game.pk, kind=Notification.Kind.SEAT_TO_BOT
    ).exists()


@pytest.mark.django_db(transaction=True)
def test_a_turn_played_as_the_reminder_sweep_reads_it_is_not_reminded(started, monkeypatch):
    """The reminder sweep reads a turn due for its reminder and clears the game's reminder
    time; the player moves right then. The reminder, sent after the move, told them their move
    was due in hours (and, as a notice about the game's wait, marked their newer notices
    there read). The sweep sends it only if the wait it read is still the game's, under the
    game's lock, as a move checks it."""
    game = turn_game(started)
    seat = registry.get(game.engine).waiting_for(game.state).seats[0]
    player = seat_users(game)[seat]
    move = a_move_that_ends_the_turn(game, seat)
    read, go = threading.Event(), threading.Event()
    real = registry.get

    def get(*args: Any) -> Any:
        if threading.current_thread().name == "reminders":  # the turn read, the time cleared
            read.set()
            assert go.wait(10)
        return real(*args)

    monkeypatch.setattr(registry, "get", get)
    sent: list[int] = []

    def remind() -> None:
        try:
            sent.append(notify.send_due_reminders(game.remind_at + timedelta(seconds=1)))
        finally:
            connection.close()

    sweep = threading.Thread(target=remind, name="reminders")
    sweep.start()
    assert read.wait(10)
    services.act(player, game.pk, game.version_for(seat), move)
    go.set()
    sweep.join(30)

    assert sent == [0]
    assert not Notification.objects.filter(user=player, kind=Notification.Kind.REMINDER).exists()


def _a_move_asking(game: Game, mover: int, asked: int) -> dict[str, Any] | None:
    """A legal move of ``mover`` after which the game waits on ``asked``."""
    engine = registry.get(game.engine)
    for action in engine.legal_actions(game.state, mover):
        after, _events = engine.apply(game.state, mover, action)
        if asked in engine.waiting_for(after).seats:
            return action
    return None


@pytest.mark.django_db(transaction=True)
def test_a_closing_crossing_a_move_that_asks_the_player_again_queues_behind_it(
    started, admin_user, monkeypatch
):
    """Bob let a show of hands time out (a moderator forced its deadline: his "Quick!"
    notice stays unread); a later move asks him again, and marks that old notice read, as
    Bob closes his account. The move holds the table, then writes Bob's notices; the closing
    must take the table before Bob's notices too, or each waits for the other (a deadlock:
    the move lost, "The site is busy")."""
    game = started("imperador")
    engine = registry.get(game.engine)
    users = seat_users(game)
    bob_seat = next(s for s in to_the_show_of_hands(game).seats if s in users)
    closing = users[bob_seat]
    moderation.force_deadline(admin_user, game.pk, "test: nobody answered")
    quick = Notification.objects.get(user=closing, game_id=game.pk, kind=Notification.Kind.WINDOW)
    move = None
    for _step in range(20):
        game.refresh_from_db()
        waiting = engine.waiting_for(game.state)
        assert bob_seat not in waiting.seats, "Bob was asked before the crossing"
        mover = waiting.seats[0]
        move = _a_move_asking(game, mover, bob_seat)
        if move is not None:
            break
        step = engine.legal_actions(game.state, mover)[0]
        services.act(users[mover], game.pk, game.version_for(mover), step)
    assert move is not None, "no move asked Bob again"
    quick.refresh_from_db()
    assert quick.read_at is None
    version = game.version_for(mover)

    outcomes = _cross(
        monkeypatch,
        lambda: services.act(users[mover], game.pk, version, move, "k").replayed,
        _close_or_ban("close", closing, admin_user),
    )

    assert outcomes == {"move": False, "other": 302}
    held = Seat.objects.get(game=game, user=closing)
    assert (held.is_bot, held.bot_reason) == (True, "closed")


@pytest.mark.django_db(transaction=True)
def test_two_lines_written_at_once_take_the_next_two_numbers(started, monkeypatch):
    """Alice's line read the table's last number (none yet) and stops before it writes; Bob's
    line is written meanwhile with number 1. Alice's must then take number 2, not fail: lines
    are numbered per table (ChatMessage.seq), with no lock on the game."""
    game = started("cockroach-poker-royal")
    alice, bob = seat_users(game)[0], seat_users(game)[1]
    paused, go = threading.Event(), threading.Event()
    real = ChatMessage.objects.create

    def create(**fields: Any) -> ChatMessage:
        if threading.current_thread().name == "first" and not paused.is_set():
            paused.set()
            assert go.wait(10)
        return real(**fields)

    monkeypatch.setattr(ChatMessage.objects, "create", create)

    def write() -> None:
        try:
            chat.post(alice, game.pk, "from alice")
        finally:
            connection.close()

    first = threading.Thread(target=write, name="first")
    first.start()
    assert paused.wait(10)
    chat.post(bob, game.pk, "from bob")
    go.set()
    first.join(30)
    lines = ChatMessage.objects.filter(game=game).order_by("seq")
    assert [(line.text, line.seq) for line in lines] == [("from bob", 1), ("from alice", 2)]


@pytest.mark.django_db(transaction=True)
def test_an_invitation_sent_as_the_invitee_closes_his_account_is_no_deadlock(
    started, admin_user, monkeypatch
):
    """Bob is closing his account (his row held, then the table he plays with Alice), his
    tables already listed, when Alice invites him to her new table and then closes her own
    account. Her closing cancels that table first (it marks his invitation's notice read),
    then waits for the table Bob's closing holds; Bob's closing, at its end, deletes his
    notices, that one too. Sent and stored after his tables were listed, the invitation made
    each wait for the other (a deadlock: one closing lost). It waits for his row, as a join
    does, and finds a closed account."""
    playing = started("cockroach-poker-royal")  # where Bob's closing stops, holding it
    alice, bob = seat_users(playing)[0], seat_users(playing)[1]
    table = services.game_create(alice, engine="imperador", seats=3)
    close_paused, close_go = _pause_the_move_before_its_write(monkeypatch, "close")
    outcomes, run = _outcomes()

    closer = threading.Thread(
        target=run, args=("close", _close_or_ban("close", bob, admin_user)), name="close"
    )
    closer.start()
    assert close_paused.wait(10)  # Bob's tables listed; the table they play held
    inviter = threading.Thread(
        target=run,
        args=("invite", lambda: len(services.game_invite(alice, table.pk, ["bob"]))),
        name="invite",
    )
    inviter.start()
    until_queued(inviter)  # stored at once, or waiting for Bob's closing
    queued = waiting_for_a_lock()
    her_closing = threading.Thread(
        target=run, args=("alice", _close_or_ban("close", alice, admin_user)), name="alice"
    )
    her_closing.start()
    until_queued(her_closing, waiting=queued + 1)  # she waits for the table Bob's closing holds
    close_go.set()
    for thread in (closer, inviter, her_closing):
        thread.join(30)

    assert outcomes["close"] == 302 and outcomes["alice"] == 302
    assert isinstance(outcomes["invite"], NotActive)  # her table was cancelled meanwhile
    assert not User.objects.filter(pk__in=[alice.pk, bob.pk], is_active=True).exists()
    assert Game.objects.get(pk=table.pk).status == Game.Status.ABORTED
    assert not Notification.objects.filter(user=bob).exists()


def _a_last_move(game: Game) -> tuple[Game, int, dict[str, Any]] | None:
    """A human's legal move that ends ``game``, with the table and the seat."""
    engine = registry.get(game.engine)
    users = seat_users(game)
    for seat in (s for s in engine.waiting_for(game.state).seats if s in users):
        for action in engine.legal_actions(game.state, seat):
            after, _events = engine.apply(game.state, seat, action)
            if engine.result(after) is not None:
                return game, seat, action
    return None


@pytest.mark.django_db(transaction=True)
def test_a_closing_whose_bots_end_one_table_as_a_move_ends_the_next_is_no_deadlock(
    started, admin_user, monkeypatch
):
    """Carol closes her account. At her first table (Alice and Bob left it) the bots, her
    seat handed over, play it to the end, which locks the three players' records; at her
    next table a move that ends the game holds it and, once written, wants the same records.
    The closing, holding the records, waited for that table (a deadlock: the closing lost,
    "The site is busy"). It now locks all its tables before it hands the first over."""
    left, (_alice, _bob, carol), _his_turn = _a_game_bob_and_alice_left_on_his_turn(
        started, admin_user, monkeypatch
    )
    shared, seat, action = play_until(
        lambda: started("cockroach-poker-royal"), _a_last_move, seed=3, tables=10
    )
    assert left.pk < shared.pk  # the table the bots end comes first
    mover = seat_users(shared)[seat]
    version = shared.version_for(seat)

    outcomes = _cross(
        monkeypatch,
        lambda: services.act(mover, shared.pk, version, action, "k").replayed,
        _close_or_ban("close", carol, admin_user),
    )

    assert outcomes == {"move": False, "other": 302}
    assert set(
        Game.objects.filter(pk__in=[left.pk, shared.pk]).values_list("status", flat=True)
    ) == {Game.Status.FINISHED}
    assert User.objects.get(pk=carol.pk).closed_at is not None


@pytest.mark.django_db(transaction=True)
def test_a_game_the_bots_end_as_a_player_who_left_it_closes_leaves_him_no_notice(
    started, admin_user, monkeypatch
):
    """Bob left a table (Alice too) and read his notices; he closes his account as Carol
    leaves it, and the bots play it to the end, which tells every seat's player the result.
    The closing did not take that table (no unread notice of his there, no seat of his own):
    it deleted his notices, committed, and the end's notice, committed after it, stayed with
    the closed account. The closing now takes every table in play he has a seat at, the bot's
    or his, and waits for the end."""
    game, (_alice, bob, carol), _his_turn = _a_game_bob_and_alice_left_on_his_turn(
        started, admin_user, monkeypatch
    )
    bell = Client()
    bell.force_login(bob)
    assert bell.post(reverse("notifications_read")).status_code == 302  # "Mark all read"
    assert not Notification.objects.filter(user=bob, read_at__isnull=True).exists()
    # the closing waits for the table the quit holds (or has closed)
    outcomes = _bobs_closing_crossing_carols_quit_that_ends_the_game(
        monkeypatch, game, bob, carol, admin_user
    )
    assert outcomes == {"quit": None, "close": 302}
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert User.objects.get(pk=bob.pk).closed_at is not None
    assert not Notification.objects.filter(user=bob).exists()
