"""Side channels around the engines that told a seat what the rules keep from it (an attacker's
review): a seat taken back in a window told whether its bot had answered; the handover after
missed turns told who cheated; the admin's notices told staff without the event log who had
answered a window."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from accounts.models import Notification
from games import services
from games.models import Game, Seat
from tests.games.helpers import bots_moment_now, play_one_step, seat_users, to_the_show_of_hands

pytestmark = pytest.mark.django_db(transaction=True)


def _watcher_sees(client: Client, user, game_id: int) -> tuple[str | None, int]:
    """What the watching seat can read: the API's deadline, and how many notices it has."""
    deadline = client.get(f"/api/games/{game_id}").json()["deadline"]
    return deadline, Notification.objects.filter(user=user, game_id=game_id).count()


def _reclaim_in_the_show_of_hands(started, answered_first: bool) -> tuple[bool, bool]:
    """An Imperador show of hands asks two seats; one of them is the bot's (its player missed
    turns). The bot answers (secretly) or not, then its player takes the seat back. Returns
    what the other asked seat observed: (the deadline moved, a new notice came)."""
    game = started("imperador")
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    reclaimed, watcher = waiting.seats[0], waiting.seats[1]
    Seat.objects.filter(game=game, index=reclaimed).update(is_bot=True, bot_reason="timeouts")
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


def test_taking_a_seat_back_in_a_secret_window_does_not_tell_whether_its_bot_answered(started):
    not_answered = _reclaim_in_the_show_of_hands(started, answered_first=False)
    answered = _reclaim_in_the_show_of_hands(started, answered_first=True)
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


def _handed_over_after_a_cheat_by(started, cheater: int) -> tuple[bool, list[str]]:
    """Mogel Motte, alice guard and on turn; bob (seat 1) has missed two turns in a row, which
    the table saw (his deadlines passed). Then somebody cheats (the anonymous fidget notice):
    bob or carol. alice plays; bob's turn times out again. Returns whether bob's seat went to
    the bot, and the players as alice's API shows them."""
    from datetime import timedelta
    from unittest import mock

    from django.utils import timezone

    from games.engines import registry

    game = started("mogel-motte", options={"first_seat": 0})
    users = seat_users(game)
    engine = registry.get(game.engine)
    Seat.objects.filter(game=game, index=1).update(consecutive_timeouts=2)
    cheat = next(a for a in engine.legal_actions(game.state, cheater) if a["type"] == "cheat")
    services.act(users[cheater], game.pk, game.version_for(cheater), cheat)
    rng = random.Random(7)
    for _step in range(40):  # alice's turn, and whatever windows it opens, up to bob's turn
        game.refresh_from_db()
        if bobs_turn(game):
            break
        play_one_step(game, users, rng)
    assert bobs_turn(game)
    assert Seat.objects.get(game=game, index=1).consecutive_timeouts == 2
    late = Game.objects.get(pk=game.pk).deadline_at + timedelta(seconds=1)
    with mock.patch.object(timezone, "now", lambda: late):  # bob's time runs out
        assert services.apply_deadline(game.pk)
    client = Client()
    client.force_login(users[0])
    players = client.get(f"/api/games/{game.pk}").json()["players"]
    return Seat.objects.get(game=game, index=1).is_bot, players


def test_the_handover_for_missed_turns_does_not_tell_who_cheated(started):
    bob_cheated = _handed_over_after_a_cheat_by(started, cheater=1)
    carol_cheated = _handed_over_after_a_cheat_by(started, cheater=2)
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
