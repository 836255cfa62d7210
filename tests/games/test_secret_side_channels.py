"""Side channels around the engines that told a seat what the rules keep from it (an attacker's
review): a seat taken back in a window told whether its bot had answered; the handover after
missed turns told who cheated; the admin's notices told staff without the event log who had
answered a window."""

from __future__ import annotations

import asyncio
import itertools
import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Notification
from games import services
from games.engines import registry
from games.engines.core import Waiting
from games.models import Game, Seat
from games.services import bot_time, tables
from tests.games.helpers import (
    bots_moment_now,
    miss_turns,
    miss_until_the_bot_plays,
    play_one_step,
    seat_users,
    to_the_show_of_hands,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _watcher_sees(client: Client, user, game_id: int) -> tuple[str | None, int]:
    """What the watching seat can read: the API's deadline, and how many notices it has."""
    deadline = client.get(f"/api/games/{game_id}").json()["deadline"]
    return deadline, Notification.objects.filter(user=user, game_id=game_id).count()


def _a_show_of_hands_asking_the_bot_and_a_person(game: Game, bot: int) -> Waiting:
    """Plays on (people by the engine's bot, bots at once) until a show of hands asks the
    bot's seat, not answered yet, and a person; returns that wait."""
    engine = registry.get(game.engine)
    rng = random.Random(5)
    for _move in range(400):
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE, "the game ended first"
        waiting = engine.waiting_for(game.state)
        people = set(seat_users(game))
        if (
            waiting.window == "hands"
            and bot in waiting.seats
            and people & set(waiting.seats)
            and engine.may_act(game.state, bot)
        ):
            return waiting
        play_one_step(game, seat_users(game), rng)
    raise AssertionError("no show of hands asked the bot's seat and a person")


def seeded(monkeypatch) -> None:
    """The tables started from now on are dealt from one seed and their bots choose from
    seeded randomness: a run that gets to the moment a test needs gets there every time."""
    seeds = itertools.count(1)
    monkeypatch.setattr(bot_time, "new_rng", lambda: random.Random(next(seeds)))
    monkeypatch.setattr(tables.secrets, "randbits", lambda _bits: 1)


def _hand_down(state: dict, seat: int, rng: random.Random) -> dict:
    """The others keep their hands down: nobody raised, so the emperor stays, missing turn
    after turn (the successor is chosen among those who raised)."""
    return {"type": "hand", "choice": "down"}


def _reclaim_in_the_show_of_hands(started, monkeypatch, answered_first: bool) -> tuple[bool, bool]:
    """The first emperor of an Imperador table misses his turns until the bot takes his seat
    (the others keep their hands down, so he stays emperor); then a show of hands asks that
    seat and a person. The bot answers (secretly) or not, then
    its player takes the seat back. Returns what the other asked seat observed: (the deadline
    moved, a new notice came)."""
    seeded(monkeypatch)
    game = started("imperador")
    users = seat_users(game)
    reclaimed = game.state["emperor"]
    game = miss_until_the_bot_plays(game, {reclaimed}, monkeypatch, choose=_hand_down)
    assert Seat.objects.get(game=game, index=reclaimed).bot_reason == "timeouts"
    waiting = _a_show_of_hands_asking_the_bot_and_a_person(game, reclaimed)
    watcher = next(s for s in waiting.seats if s != reclaimed)
    a_minute_on = timezone.now() + timedelta(minutes=1)  # a deadline drawn afresh would move
    monkeypatch.setattr(timezone, "now", lambda: a_minute_on)
    client = Client()
    client.force_login(users[watcher])
    before = _watcher_sees(client, users[watcher], game.pk)
    if answered_first:
        game.refresh_from_db()
        assert bots_moment_now(game, random.Random(3)), "the bot answered its window"
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE and game.wait_window == "hands"
        assert _watcher_sees(client, users[watcher], game.pk) == before  # a secret answer
    services.seat_reclaim(users[reclaimed], game.pk)
    after = _watcher_sees(client, users[watcher], game.pk)
    return after[0] != before[0], after[1] != before[1]


def test_taking_a_seat_back_in_a_secret_window_does_not_tell_whether_its_bot_answered(
    started, monkeypatch
):
    not_answered = _reclaim_in_the_show_of_hands(started, monkeypatch, answered_first=False)
    answered = _reclaim_in_the_show_of_hands(started, monkeypatch, answered_first=True)
    assert not_answered == answered, (
        f"the watcher saw (deadline moved, new notice) = {not_answered} when the seat had not "
        f"answered, {answered} when its bot had"
    )


def staff_without_the_event_log(make_user):
    """A staff member who may read games and notices, not the event log (hidden cards)."""
    from django.contrib.auth.models import Permission

    staff = make_user("helper", is_staff=True)
    staff.user_permissions.add(
        Permission.objects.get(codename="view_game"),
        Permission.objects.get(codename="view_notification"),
    )
    return staff


def test_staff_without_the_event_permission_cannot_tell_who_answered_a_window(
    started, make_user, settings
):
    from datetime import timedelta

    from django.contrib.auth.models import Permission
    from django.urls import reverse
    from django.utils import timezone

    from accounts import email_queue

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = started("imperador")
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    answering, silent = waiting.seats[0], waiting.seats[1]
    services.act(
        users[answering],
        game.pk,
        game.version_for(answering),
        {"type": "hand", "choice": "down"},
    )
    email_queue.sweep(timezone.now() + timedelta(seconds=settings.NOTIFICATION_EMAIL_DELAY + 5))
    staff = staff_without_the_event_log(make_user)
    window = Notification.Kind.WINDOW
    notes = {
        who: Notification.objects.get(user=users[who], game_id=game.pk, kind=window)
        for who in (answering, silent)
    }
    assert notes[answering].email != notes[silent].email, "what the admin must not show"

    def pages(viewer) -> tuple[str, dict[int, tuple[int, str]]]:
        client = Client()
        client.force_login(viewer)
        listed = client.get(reverse("admin:accounts_notification_changelist"))
        assert listed.status_code == 200
        opened = {}
        for who, note in notes.items():
            page = client.get(reverse("admin:accounts_notification_change", args=[note.pk]))
            opened[who] = (page.status_code, page.content.decode())
        return listed.content.decode(), opened

    listed, opened = pages(staff)
    for state in ("Sent", "Skipped", "sent", "skipped"):
        assert f">{state}<" not in listed, f"the email state {state!r} is listed"
    assert "column-email" not in listed and "column-read_at" not in listed
    # a window's notices are not shown at all: who gets its later ones (its reminder, its
    # notices when it starts afresh) is who has not answered it
    assert [status for status, _page in opened.values()] == [302, 302]
    for note in notes.values():
        assert f"/admin/accounts/notification/{note.pk}/change/" not in listed
    others = Notification.objects.filter(game_id=game.pk, kind=Notification.Kind.YOUR_TURN)
    assert any(f"/admin/accounts/notification/{n.pk}/change/" in listed for n in others), (
        "the game's other notices are listed"
    )

    # staff who may read the event log (and so every hidden card) see the queue as before
    staff.user_permissions.add(Permission.objects.get(codename="view_event"))
    staff = type(staff).objects.get(pk=staff.pk)  # permissions are cached on the instance
    listed, opened = pages(staff)
    assert "column-email" in listed and opened[silent][0] == 200
    assert "field-email" in opened[silent][1]


def bobs_turn(game: Game) -> bool:
    from games.engines import registry

    waiting = registry.get(game.engine).waiting_for(game.state)
    return waiting.kind == "turn" and waiting.seats == (1,)


def _handed_over_after_a_cheat_by(started, monkeypatch, cheater: int) -> tuple[bool, list[str]]:
    """Mogel Motte: bob (seat 1) misses two of his turns (their deadlines pass; the table saw
    it), then somebody cheats (the anonymous fidget notice): bob or carol. Play goes on to
    bob's next turn, which times out again. Returns whether bob's seat went to the bot, and
    the players as alice's API shows them."""
    seeded(monkeypatch)
    game = started("mogel-motte", options={"first_seat": 0})
    users = seat_users(game)
    engine = registry.get(game.engine)

    def cheats(game: Game) -> list[dict]:
        legal = engine.legal_actions(game.state, cheater)
        return [action for action in legal if action["type"] == "cheat"]

    def two_missed_and_a_cheat_open(game: Game) -> bool:
        missed = Seat.objects.get(game=game, index=1).consecutive_timeouts
        return missed == 2 and not bobs_turn(game) and bool(cheats(game))

    game = miss_turns(game, {1}, monkeypatch, until=two_missed_and_a_cheat_open)
    services.act(users[cheater], game.pk, game.version_for(cheater), cheats(game)[0])
    rng = random.Random(7)
    for _step in range(40):  # up to bob's turn, with whatever windows open on the way
        game.refresh_from_db()
        if bobs_turn(game):
            break
        play_one_step(game, users, rng)
    assert bobs_turn(game)
    assert Seat.objects.get(game=game, index=1).consecutive_timeouts == 2
    late = Game.objects.get(pk=game.pk).deadline_at + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: late)  # bob's time runs out
    assert services.apply_deadline(game.pk)
    client = Client()
    client.force_login(users[0])
    players = client.get(f"/api/games/{game.pk}").json()["players"]
    return Seat.objects.get(game=game, index=1).is_bot, players


def test_the_handover_for_missed_turns_does_not_tell_who_cheated(started, monkeypatch):
    bob_cheated = _handed_over_after_a_cheat_by(started, monkeypatch, cheater=1)
    carol_cheated = _handed_over_after_a_cheat_by(started, monkeypatch, cheater=2)
    assert bob_cheated == carol_cheated, (
        f"bob's seat handed to the bot: {bob_cheated[0]} when bob cheated, "
        f"{carol_cheated[0]} when carol did; alice's API: {bob_cheated[1]} / {carol_cheated[1]}"
    )


def test_a_windows_reminder_does_not_tell_staff_who_had_not_answered(started, make_user):
    """An Imperador show of hands (secret answers) at the daily pace: one asked seat answers,
    the other does not; at 80% of the window's time the reminder goes to the seat the window
    still waits on. The admin's notices listed that reminder (who, which game, when) to staff
    who may not read the event log: the silent seat named, as the email state named it."""
    from datetime import timedelta

    from django.urls import reverse

    from games.services import notify

    game = started("imperador")
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    answering, silent = waiting.seats[0], waiting.seats[1]
    game.refresh_from_db()
    services.act(
        users[answering], game.pk, game.version_for(answering), {"type": "hand", "choice": "down"}
    )
    game = Game.objects.get(pk=game.pk)
    assert game.wait_window == "hands" and game.remind_at is not None
    assert notify.send_due_reminders(game.remind_at + timedelta(seconds=1)) == 1
    reminded = Notification.objects.filter(game_id=game.pk, kind=Notification.Kind.REMINDER)
    assert [n.user_id for n in reminded] == [users[silent].pk], "what the admin must not show"

    client = Client()
    client.force_login(staff_without_the_event_log(make_user))
    listed = client.get(
        reverse("admin:accounts_notification_changelist"), {"kind__exact": "reminder"}
    )
    assert listed.status_code == 200
    assert users[silent].username not in listed.content.decode(), "the silent seat, named"
    opened = client.get(reverse("admin:accounts_notification_change", args=[reminded.get().pk]))
    assert opened.status_code == 302, "the admin's 'no such notice': it is not shown"


def test_a_player_who_left_cannot_count_the_secret_answers_of_the_bot_in_their_seat(
    started, monkeypatch
):
    """Whoever left a game watches it: their My games stamp and their pings followed the old
    seat's revision, so they could tell when the bot in it answered a show of hands."""
    from django.urls import reverse

    from games import broadcast

    game = started("imperador")
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    left = waiting.seats[0]
    services.game_quit(users[left], game.pk)
    pinged: list[list[int]] = []
    monkeypatch.setattr(
        broadcast,
        "notify_game_changed",
        lambda g, r, seats=None, version=0, users=(): pinged.append(list(users)),
    )
    client = Client()
    client.force_login(users[left])
    my_games_lists = reverse("games:my_games") + "?part=lists"
    before = client.get(my_games_lists).content

    game.refresh_from_db()
    assert bots_moment_now(game, random.Random(3)), "the bot answered its window"
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.wait_window == "hands"  # still secret
    assert pinged and all(users[left].pk not in heard for heard in pinged)
    assert client.get(my_games_lists).content == before


def test_a_players_notices_are_not_named_by_numbers_that_count_the_reminders_between_them(
    started, make_user, endpoint
):
    """The notifications page ("Mark read") and a push named a notice about no table by its
    row number, which the site counts up for every notice it writes. Bob, asked in a show of
    hands with carol, sent himself a friend request (from a second account) before the
    window's reminder and another after: the two numbers differed by one more when carol had
    not answered either, since the reminder goes only to the seats the window waits on."""
    import re

    from accounts.services import friend_request_send
    from accounts.tasks import send_notification_push
    from games.services import notify
    from tests.push_endpoint import subscribe

    game = started("imperador")
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    watcher = users[waiting.seats[0]]
    device = subscribe(watcher, endpoint)
    watcher.refresh_from_db()  # as a request would load him: with his device
    friendly = Notification.Kind.FRIEND_REQUEST

    friend_request_send(make_user("sock1"), watcher)
    game = Game.objects.get(pk=game.pk)
    reminders = notify.send_due_reminders(game.remind_at + timedelta(seconds=1))
    assert reminders == 2, "the reminder came to both asked seats: neither had answered"
    friend_request_send(make_user("sock2"), watcher)
    before, after = Notification.objects.filter(user=watcher, kind=friendly).order_by("pk")
    assert after.pk - before.pk == reminders + 1, "what the names must not count"

    client = Client()
    client.force_login(watcher)
    page = client.get("/notifications/").content.decode()
    posted = re.findall(r'name="id" value="([^"]*)"', page)
    assert len(posted) == 2 and not any(name.isdigit() for name in posted), "row numbers"
    assert send_notification_push(before.pk) == "send"
    (received,) = endpoint.received
    tag = device.read(received)["tag"]
    assert tag.startswith("notice-") and not tag.removeprefix("notice-").isdigit(), tag

    # the page's "Mark read" still marks the one notice it stands for (the page lists the
    # newest first), and not the other
    client.post("/notifications/read/", {"id": posted[0], "page": "1"})
    unread = Notification.objects.filter(user=watcher, kind=friendly, read_at=None)
    assert [note.pk for note in unread] == [before.pk]


def test_the_bells_count_on_a_players_own_socket_says_nothing_of_another_seats_answer(
    started, make_user
):
    """The player's own socket carries the bell's count, sent whenever it differs from the
    last one sent, on a ping or a beat. A count changed without a ping (a friend request from
    a second account pings nobody) would turn any ping into a frame: a ping to every seat on
    another's secret answer would then tell bob, waiting without beating, that carol had
    answered. No frame comes until bob beats, and then it carries only his own count."""
    from asgiref.sync import sync_to_async

    from accounts.notifications import unread_count
    from accounts.services import friend_request_send
    from tests.games.helpers import connect

    game = started("imperador")
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    bob, carol = waiting.seats[0], waiting.seats[1]
    game.refresh_from_db()
    second_account = make_user("bobs-sock")

    async def scenario() -> tuple[int, bool, dict]:
        socket, connected, _code = await connect(users[bob], "/ws/me/")
        assert connected
        first = await socket.receive_json_from(timeout=5)
        await sync_to_async(friend_request_send)(second_account, users[bob])  # no ping
        down = {"type": "hand", "choice": "down"}
        await sync_to_async(services.act)(users[carol], game.pk, game.version_for(carol), down)
        silent = await socket.receive_nothing(timeout=1)
        await socket.send_json_to({"type": "heartbeat"})
        beat = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        return first["unread"], silent, beat

    before, silent, beat = asyncio.run(scenario())
    assert Game.objects.get(pk=game.pk).wait_window == "hands"  # carol's answer is secret
    assert silent, "a frame came when carol answered"
    assert beat["unread"] == before + 1 == unread_count(users[bob])  # the request, at the beat
