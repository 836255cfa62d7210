"""Staff pages keep a table's secrets from staff who play at it, as the game's own page does,
and moderators hold no secret by default (a review of the moderation change): the notices'
list named who had not answered a show of hands, a seat's page which seat was reminded, the
chat list a table's spectators' channel; a moderator could rename a superuser unlogged; a late
reminder said "due in 0 minutes"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts.models import ModerationLog, Notification, User
from accounts.moderators import make_moderator
from games import services
from games.models import Game, Seat
from games.services import chat, notify
from tests.games.helpers import seat_users, to_the_show_of_hands, turn_game

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=user.pk))  # permissions fresh
    return client


def _one_answered_and_reminded(game: Game) -> tuple[dict, int, int, int]:
    """An Imperador show of hands: one asked seat answers, the 80 % reminder goes to the
    other. Returns the users, the answering, the silent and the unasked seat."""
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    answering, silent = waiting.seats[0], waiting.seats[1]
    (unasked,) = [i for i in range(3) if i not in waiting.seats]
    game.refresh_from_db()
    down = {"type": "hand", "choice": "down"}
    services.act(users[answering], game.pk, game.version_for(answering), down)
    game = Game.objects.get(pk=game.pk)
    assert game.wait_window == "hands"
    assert notify.send_due_reminders(game.remind_at + timedelta(seconds=1)) == 1
    return users, answering, silent, unasked


def test_moderators_hold_no_hidden_card_by_default(make_user):
    moderator = make_user("moddy")
    make_moderator(moderator)
    assert not User.objects.get(pk=moderator.pk).has_perm("games.view_event")


def test_staff_with_the_event_log_do_not_read_the_window_notices_of_a_table_they_play(
    started, make_user
):
    game = started("imperador")
    users, _answering, silent, unasked = _one_answered_and_reminded(game)
    event_log = Permission.objects.get(codename="view_event")
    seated = users[unasked]
    make_moderator(seated)
    seated.user_permissions.add(event_log)
    outsider = make_user("outsider")
    make_moderator(outsider)
    outsider.user_permissions.add(event_log)
    reminders = reverse("admin:accounts_notification_changelist") + "?kind__exact=reminder"
    reminded = Notification.objects.get(kind=Notification.Kind.REMINDER)
    row = f"/admin/accounts/notification/{reminded.pk}/change/"
    assert reminded.user == users[silent]

    assert row not in _client(seated).get(reminders).content.decode()
    assert row in _client(outsider).get(reminders).content.decode()  # the permission's use


def test_a_seats_page_does_not_say_which_seat_was_reminded(started, make_user):
    game = started("imperador")
    _users, answering, silent, _unasked = _one_answered_and_reminded(game)
    moderator = make_user("moddy")
    make_moderator(moderator)
    client = _client(moderator)
    for index in (answering, silent):
        seat = Seat.objects.get(game=game, index=index)
        page = client.get(reverse("admin:games_seat_change", args=[seat.pk]))
        assert page.status_code == 200
        body = page.content.decode()
        assert "reminded_for_wait" not in body and "nudged_for_wait" not in body


def test_the_chat_list_keeps_a_tables_spectators_talk_from_staff_who_play_there(started, make_user):
    game = started("imperador", spectator_chat="own", allow_spectators=True)
    users = seat_users(game)
    leaver, seated = users[0], users[1]
    services.game_quit(leaver, game.pk)
    chat.post(User.objects.get(pk=leaver.pk), game.pk, "my old hand held the Emperor")
    make_moderator(seated)
    outsider = make_user("outsider")
    make_moderator(outsider)
    talk = reverse("admin:games_chatmessage_changelist") + f"?game__id__exact={game.pk}"

    assert "held the Emperor" not in _client(seated).get(talk).content.decode()
    assert "held the Emperor" in _client(outsider).get(talk).content.decode()


def test_the_table_talk_links_count_only_the_lines_the_viewer_may_read(started, make_user):
    """The game's and a report's "table talk" link counted the spectators' lines too, for
    staff seated there who do not see that channel in the list."""
    game = started("imperador", spectator_chat="own", allow_spectators=True)
    users = seat_users(game)
    leaver, seated, talker = users[0], users[1], users[2]
    services.game_quit(leaver, game.pk)
    chat.post(User.objects.get(pk=leaver.pk), game.pk, "my old hand held the Emperor")
    chat.post(talker, game.pk, "good luck all")
    report = services.report_create(talker, game.pk, leaver, "abuse", "spoilers")
    make_moderator(seated)
    outsider = make_user("outsider")
    make_moderator(outsider)
    pages = (
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_report_change", args=[report.pk]),
    )

    for page in pages:
        assert ">1 message</a>" in _client(seated).get(page).content.decode(), page
        assert ">2 messages</a>" in _client(outsider).get(page).content.decode(), page


def test_a_moderator_reads_staff_accounts_and_edits_players_with_a_log_row(make_user, admin_user):
    moderator = make_user("moddy")
    make_moderator(moderator)
    player = make_user("rude", display_name="Rude Name")
    client = _client(moderator)

    staff_page = reverse("admin:accounts_user_change", args=[admin_user.pk])
    assert client.get(staff_page).status_code == 200
    assert 'name="_save"' not in client.get(staff_page).content.decode()
    assert client.post(staff_page, {"username": "not-root"}).status_code == 403
    assert User.objects.get(pk=admin_user.pk).username == admin_user.username

    page = reverse("admin:accounts_user_change", args=[player.pk])
    form = client.get(page).context["adminform"].form
    data = {  # the form as the page fills it, the read-only fields aside
        name: ("" if form.initial.get(name) is None else form.initial.get(name))
        for name in form.fields
        if name != "password"
    }
    data.update(display_name="Tidy Name", _save="Save")
    answer = client.post(page, data)
    assert answer.status_code == 302, answer.context["adminform"].form.errors
    assert User.objects.get(pk=player.pk).display_name == "Tidy Name"
    entry = ModerationLog.objects.get(action="user_edited")
    assert (entry.actor, entry.target_user, entry.reason) == (
        moderator,
        player,
        # the field's label, in the moderator's language, and what it was: the name a
        # moderator replaced is the evidence (the log kept only "Display name")
        "Changed: Display name (Rude Name → Tidy Name)",
    )


def test_a_reminder_late_into_the_last_minute_says_a_minute(started):
    game = turn_game(started)
    game.refresh_from_db()
    assert notify.send_due_reminders(game.deadline_at - timedelta(seconds=40)) == 1
    text = Notification.objects.get(kind=Notification.Kind.REMINDER).text
    assert text.endswith("is due in 1\xa0minute."), text
