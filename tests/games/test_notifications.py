"""Notifications and emails: who is told what, when, and never a card."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from accounts import notifications
from accounts.models import EmailPreference, Notification
from accounts.services import friend_request_send, friendship_create, profile_update, user_block
from accounts.tasks import send_daily_digests, send_due_emails, send_notification_email
from games import services
from games.engines import registry
from games.errors import GameError
from games.models import Event, Game, Seat
from games.services import notify, vacation
from tests.games.helpers import (
    next_human_move,
    play_to_the_end,
    seat_users,
    to_the_show_of_hands,
    turn_game,
)

pytestmark = pytest.mark.django_db


def waited_user(game: Game):
    engine = registry.get(game.engine)
    seat = engine.waiting_for(game.state).seats[0]
    return seat, seat_users(game)[seat]


def test_the_player_whose_turn_it_is_gets_a_notification_and_one_email_with_links(started):
    game = turn_game(started)
    seat, user = waited_user(game)
    note = Notification.objects.get(user=user, kind=Notification.Kind.YOUR_TURN, game_id=game.pk)
    assert note.email == Notification.Email.PENDING
    others = [u for s, u in seat_users(game).items() if s != seat]
    assert not Notification.objects.filter(
        user__in=others, kind=Notification.Kind.YOUR_TURN
    ).exists()
    assert send_notification_email(note.pk) == "send"
    assert len(mail.outbox) == 1
    email = mail.outbox[0]
    assert email.to == [user.email]
    assert f"/games/{game.pk}/" in email.body and "/unsubscribe/" in email.body
    assert email.alternatives and f"/games/{game.pk}/" in email.alternatives[0][0]
    assert "List-Unsubscribe" in email.extra_headers
    assert send_notification_email(note.pk) == "done", "a redelivered task sends nothing more"
    assert len(mail.outbox) == 1


def test_no_more_than_one_email_per_game_per_hour(started, monkeypatch):
    game = turn_game(started)
    _seat, user = waited_user(game)
    first = notifications.notify(user, Notification.Kind.YOUR_TURN, "one", "/x", game.pk)
    second = notifications.notify(user, Notification.Kind.NUDGE, "two", "/x", game.pk)
    assert send_notification_email(first.pk) == "send"
    assert send_notification_email(second.pk) == "skip"
    sent_at = Notification.objects.get(pk=first.pk).emailed_at
    assert sent_at is not None
    # the clock moves on, the email stays where the send put it
    for minutes, outcome in ((59, "skip"), (61, "send")):
        monkeypatch.setattr(timezone, "now", lambda m=minutes: sent_at + timedelta(minutes=m))
        later = notifications.notify(user, Notification.Kind.NUDGE, "later", "/x", game.pk)
        assert send_notification_email(later.pk) == outcome, minutes
    assert [m.to for m in mail.outbox] == [[user.email], [user.email]]


def test_a_tables_emails_are_one_thread_and_another_tables_another(started, monkeypatch):
    """A game over days sent one unconnected email a move (mail review)."""
    game, other = turn_game(started), turn_game(started)
    _seat, user = waited_user(game)
    start = timezone.now()
    for hours, table in enumerate((game, game, other)):
        # two hours apart: past the one email a table an hour
        monkeypatch.setattr(timezone, "now", lambda h=hours: start + timedelta(hours=2 * h))
        note = notifications.notify(user, Notification.Kind.NUDGE, "your move", "/x", table.pk)
        assert send_notification_email(note.pk) == "send"
    first, second, third = (m.message() for m in mail.outbox[-3:])
    assert first["References"] == second["References"] != third["References"]
    assert first["Message-ID"] != second["Message-ID"]
    assert first["References"].startswith(f"<table-{game.pk}@")
    assert third["References"].startswith(f"<table-{other.pk}@")


def test_no_email_while_the_player_has_the_table_open(started):
    game = turn_game(started)
    _seat, user = waited_user(game)
    at_table = Client()
    at_table.force_login(user)
    at_table.get(reverse("games:table", args=[game.pk]))  # the real path: the table is open
    # a notice that arrives while the page is open (opening it read the ones before)
    note = notifications.notify(user, Notification.Kind.NUDGE, "t", "/x", game.pk)
    assert Notification.objects.get(pk=note.pk).read_at is None
    assert send_notification_email(note.pk) == "skip"
    assert mail.outbox == []


def test_a_reminder_asked_for_is_emailed_inside_the_hour_after_the_turns_email(started):
    """At the Fast pace the reminder falls 48 minutes after the turn's email: the one email a
    game an hour rule dropped it, so the profile's "remind me by email" did nothing there
    (mail review)."""
    game = turn_game(started, pace="fast")
    assert game.move_seconds == 3600
    _seat, user = waited_user(game)
    assert user.email_reminders
    turn = Notification.objects.get(user=user, game_id=game.pk, kind=Notification.Kind.YOUR_TURN)
    assert send_notification_email(turn.pk) == "send"
    game.refresh_from_db()
    assert notify.send_due_reminders(game.remind_at + timedelta(seconds=1)) == 1
    reminder = Notification.objects.get(user=user, kind=Notification.Kind.REMINDER)

    assert send_notification_email(reminder.pk) == "send"
    # the time left is counted again as it leaves (here the clock's, before the reminder's)
    reminded = reminder.text.split(" is due in ")[0]
    assert reminded.startswith("Reminder:") and reminded in mail.outbox[-1].subject


def test_preferences_none_and_daily_digest_are_honoured(started):
    game = turn_game(started)
    _seat, user = waited_user(game)
    user.email_preference = EmailPreference.NONE
    user.save()
    note = notifications.notify(user, Notification.Kind.YOUR_TURN, "none", "/x", game.pk)
    assert send_notification_email(note.pk) == "skip"
    user.email_preference = EmailPreference.DIGEST
    user.save()
    a = notifications.notify(user, Notification.Kind.YOUR_TURN, "digest one", "/games/1/", game.pk)
    b = notifications.notify(user, Notification.Kind.NUDGE, "digest two", "/games/1/", game.pk)
    assert send_notification_email(a.pk) == "digest" and send_notification_email(b.pk) == "digest"
    assert mail.outbox == []
    seven_utc = timezone.now().replace(hour=7, minute=0)
    assert send_daily_digests(seven_utc - timedelta(hours=1)) == 0, "not yet 07:00 for them"
    assert send_daily_digests(seven_utc) == 1
    assert (
        len(mail.outbox) == 1
        and "digest one" in mail.outbox[0].body
        and "digest two" in mail.outbox[0].body
    )
    assert send_daily_digests(seven_utc) == 0


def test_the_digest_leaves_out_what_no_longer_holds_at_seven(started, make_user):
    """A 07:00 digest listed "Your turn in …" for a move made the evening before (mail
    review): what a notice says is judged again when the digest goes."""
    game = turn_game(started)
    seat, user = waited_user(game)
    user.email_preference = EmailPreference.DIGEST
    user.save()
    turn = Notification.objects.get(user=user, game_id=game.pk, kind=Notification.Kind.YOUR_TURN)
    assert send_notification_email(turn.pk) == "digest"
    _seat, move = next_human_move(game, random.Random(1))
    services.act(user, game.pk, game.version_for(seat), move)  # through the API: nothing read
    dora = make_user("dora")
    friendship_create(dora, user)
    table = services.game_create(dora, engine="imperador", seats=3, invite=[user.username])
    request = Notification.objects.get(user=user, game_id=table.pk)
    assert send_notification_email(request.pk) == "digest"

    assert send_daily_digests(timezone.now().replace(hour=7, minute=0)) == 1

    body = mail.outbox[0].body
    assert request.text in body and turn.text not in body
    turn.refresh_from_db()
    assert turn.email == Notification.Email.SKIPPED


def test_the_digest_goes_out_at_seven_in_the_players_own_time_zone(started):
    game = turn_game(started)
    _seat, user = waited_user(game)
    user.email_preference = EmailPreference.DIGEST
    user.time_zone = "Asia/Tehran"  # UTC+03:30
    user.save()
    note = notifications.notify(user, Notification.Kind.YOUR_TURN, "tehran", "/g/", game.pk)
    assert send_notification_email(note.pk) == "digest"
    seven_utc = timezone.now().replace(hour=7, minute=0)
    assert send_daily_digests(seven_utc) == 0
    assert send_daily_digests(seven_utc.replace(hour=3, minute=30)) == 1
    assert "tehran" in mail.outbox[0].body


def test_pages_show_times_in_the_players_own_time_zone(started):
    game = turn_game(started)
    seat, user = waited_user(game)
    services.act(user, game.pk, game.version_for(seat), next_human_move(game, random.Random(1))[1])
    user.time_zone = "Asia/Tehran"  # UTC+03:30: no clock time reads the same in UTC
    user.save()
    client = Client()
    client.force_login(user)
    html = client.get(reverse("games:table", args=[game.pk])).content.decode()
    moved = Event.objects.filter(game=game).latest("seq").created_at
    tehran = moved.astimezone(ZoneInfo("Asia/Tehran")).strftime("%H:%M")
    utc = moved.astimezone(ZoneInfo("UTC")).strftime("%H:%M")
    assert f"{tehran}</time>" in html and f"{utc}</time>" not in html


def test_a_reminder_goes_out_once_at_80_percent_of_the_deadline(started):
    game = turn_game(started)
    _seat, user = waited_user(game)
    game.refresh_from_db()
    # the wait's reminder time is stored with its deadline: 80 % of the time allowed
    assert game.remind_at == game.deadline_at - timedelta(seconds=game.move_seconds * 0.2)
    assert notify.send_due_reminders(game.remind_at - timedelta(seconds=1)) == 0
    now = game.remind_at + timedelta(seconds=1)
    assert notify.send_due_reminders(now) == 1
    assert notify.send_due_reminders(now) == 0
    game.refresh_from_db()
    assert game.remind_at is None  # cleared once sent
    reminder = Notification.objects.get(user=user, kind=Notification.Kind.REMINDER)
    # in hours at a daily pace, not "287 minutes" (mail review)
    assert game.move_seconds == 86400
    assert reminder.text.endswith("is due in 4\xa0hours, 47\xa0minutes."), reminder.text
    user.email_reminders = False
    user.save()
    assert send_notification_email(reminder.pk) == "skip"


def test_any_other_player_may_nudge_once_per_turn_but_not_themselves(started):
    game = turn_game(started)
    seat, user = waited_user(game)
    other = next(u for s, u in seat_users(game).items() if s != seat)
    with pytest.raises(GameError):
        notify.nudge(user, game.pk)
    client = Client()
    client.force_login(other)
    page = client.get(reverse("games:table", args=[game.pk])).content.decode()
    assert f"Nudge {user.name}" not in page, "a turn just begun: a nudge would only nag"
    with pytest.raises(GameError, match="only just begun"):
        notify.nudge(other, game.pk)
    # a third of the turn's time goes by (the clock, not the game: its wait moved back)
    game.refresh_from_db()
    third = (game.deadline_at - game.wait_opened_at) / 3 + timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(
        wait_opened_at=F("wait_opened_at") - third, deadline_at=F("deadline_at") - third
    )
    page = client.get(reverse("games:table", args=[game.pk])).content.decode()
    assert f"Nudge {user.name}" in page
    response = client.post(reverse("games:command", args=[game.pk, "nudge"]), follow=True)
    assert "Nudge sent." in response.content.decode()
    assert Notification.objects.filter(user=user, kind=Notification.Kind.NUDGE).count() == 1
    with pytest.raises(GameError, match="already nudged"):
        notify.nudge(other, game.pk)
    assert Notification.objects.filter(user=user, kind=Notification.Kind.NUDGE).count() == 1


def test_nobody_can_nudge_during_a_secret_window(started):
    for _ in range(40):
        game = started("imperador")
        engine = registry.get(game.engine)
        rng = random.Random(1)
        for _step in range(30):
            if engine.waiting_for(game.state).kind == "window":
                break
            seat, action = next_human_move(game, rng)
            services.act(seat_users(game)[seat], game.pk, game.version_for(seat), action)
            game.refresh_from_db()
        if engine.waiting_for(game.state).kind == "window":
            user = seat_users(game)[0]
            with pytest.raises(GameError, match="not during a window"):
                notify.nudge(user, game.pk)
            return
    raise AssertionError("never reached a window")


def test_invitations_friend_requests_results_and_hand_overs_notify(trio, make_user):
    alice, bob, _carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob"])
    invitation = Notification.objects.get(
        user=bob, kind=Notification.Kind.INVITATION, game_id=game.pk
    )
    # its table's number, as every other notice (two invitations to one game looked alike)
    assert invitation.text == f"{alice.name} invites you to Imperador #{game.pk}."
    dave = make_user("dave")
    friend_request_send(dave, alice)
    assert (
        Notification.objects.filter(user=alice, kind=Notification.Kind.FRIEND_REQUEST).count() == 1
    )
    erin = make_user("erin")
    user_block(alice, erin)
    friend_request_send(erin, alice)  # silenced: the blocker never hears of it
    assert (
        Notification.objects.filter(user=alice, kind=Notification.Kind.FRIEND_REQUEST).count() == 1
    )
    solo = services.game_create(bob, engine="cockroach-poker-royal", seats=2, bots=1)
    services.game_start(bob, solo.pk)
    solo.refresh_from_db()
    for _ in range(200):
        solo.refresh_from_db()
        if solo.status != Game.Status.ACTIVE:
            break
        services.force_deadline(bob, solo.pk, "test: bob is away")
    (handed,) = Notification.objects.filter(
        user=bob, kind=Notification.Kind.SEAT_TO_BOT, game_id=solo.pk
    )
    # and by email: the player away for three turns is the one to hear it (mail review)
    assert handed.email == Notification.Email.PENDING
    assert send_notification_email(handed.pk) == "send"
    assert mail.outbox[-1].subject.endswith(handed.text)
    assert Seat.objects.get(game=solo, user=bob).is_bot
    solo.refresh_from_db()
    assert solo.status == Game.Status.FINISHED
    assert Notification.objects.filter(
        user=bob, kind=Notification.Kind.GAME_FINISHED, game_id=solo.pk
    ).exists()


def test_the_bell_counts_unread_and_marking_read_clears_it(alice):
    notifications.notify(alice, Notification.Kind.INVITATION, "hello there", "/games/")
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("notifications")).content.decode()
    assert "hello there" in page and 'class="badge">1<' in page
    client.post(reverse("notifications_read"))
    assert 'class="badge"' not in client.get(reverse("notifications")).content.decode()


def test_one_click_unsubscribe_turns_game_email_off(alice):
    token = notifications.unsubscribe_token(alice)
    # the link travels with forwarded mail: the page names the address only enough to
    # recognise one's own (a web attacker's review)
    asked = Client().get(reverse("unsubscribe", args=[token])).content.decode()
    assert "alice@example.com" not in asked and "a•••@example.com" in asked
    response = Client().post(reverse("unsubscribe", args=[token]))
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.email_preference == EmailPreference.NONE
    assert Client().post(reverse("unsubscribe", args=["forged"])).status_code == 400


def test_an_invitation_answered_or_ended_leaves_the_bell(trio, make_user):
    """An invitation to a table that started without you, or that you declined or joined,
    stayed unread on the bell (social review, 2026-12-01)."""
    alice, bob, carol = trio
    dave = make_user("dave")
    friendship_create(alice, dave)
    game = services.game_create(alice, engine="imperador", seats=4, invite=["bob", "carol", "dave"])

    def unread(user) -> bool:
        return Notification.objects.filter(
            user=user, game_id=game.pk, kind=Notification.Kind.INVITATION, read_at=None
        ).exists()

    assert unread(bob) and unread(carol) and unread(dave)
    services.invitation_decline(bob, game.pk)
    services.game_join(carol, game.pk)
    assert not unread(bob) and not unread(carol) and unread(dave)
    services.game_start(alice, game.pk)
    assert not unread(dave)


def test_the_unsubscribe_page_speaks_the_language_of_the_email(alice):
    """Opened from a Persian email in another browser, the page was English (review)."""
    alice.language = "fa"
    alice.save(update_fields=["language"])
    token = notifications.unsubscribe_token(alice)

    page = Client().get(reverse("unsubscribe", args=[token])).content.decode()

    with translation.override("fa"):
        heading = translation.gettext("Game emails")
    assert heading != "Game emails" and f"<h1>{heading}</h1>" in page
    assert 'dir="rtl"' in page


def test_the_unsubscribe_pages_language_menu_changes_its_language(alice):
    """The page spoke the email's language whatever its own menu chose (review)."""
    alice.language = "fa"
    alice.save(update_fields=["language"])
    url = reverse("unsubscribe", args=[notifications.unsubscribe_token(alice)])
    client = Client()

    page = client.post(
        reverse("set_language"), {"language": "fr", "next": url}, follow=True
    ).content.decode()

    with translation.override("fr"):
        heading = translation.gettext("Game emails")
    assert heading != "Game emails" and f"<h1>{heading}</h1>" in page
    assert 'dir="rtl"' not in page


def test_vacation_extends_turn_deadlines_and_is_capped_at_14_days_a_year(started):
    game = turn_game(started)
    _seat, user = waited_user(game)
    before = game.deadline_at
    vacation.vacation_start(user, 3)
    game.refresh_from_db()
    assert game.deadline_at >= before + timedelta(days=3) - timedelta(seconds=5)
    client = Client()
    client.force_login(next(u for u in seat_users(game).values() if u != user))
    assert "away until" in client.get(reverse("games:table", args=[game.pk])).content.decode()
    with pytest.raises(GameError):
        vacation.vacation_start(user, 2)  # already away
    vacation.vacation_end(user)
    user.refresh_from_db()
    assert vacation.days_left(user) == 13  # the day begun counts; two unused whole days came back
    with pytest.raises(GameError):
        vacation.vacation_start(user, 14)
    game.refresh_from_db()
    assert game.deadline_at < before + timedelta(days=1)


def test_no_notification_or_email_names_a_card(started):
    game = started("cockroach-poker-royal")
    engine = registry.get(game.engine)
    rng = random.Random(8)
    for _ in range(400):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        seat, action = next_human_move(game, rng)
        services.act(seat_users(game)[seat], game.pk, game.version_for(seat), action)
    for note in Notification.objects.filter(email=Notification.Email.PENDING):
        send_notification_email(note.pk)
    species = set(engine.view(game.state, None)["claims"]) | {"joker", "blank"}
    texts = [n.text for n in Notification.objects.all()] + [m.body for m in mail.outbox]
    assert texts
    for text in texts:
        # Links carry random signed tokens ("…fLy…"): only the words are checked.
        words = re.sub(r"https?://\S+", "", text)
        lowered = words.lower().replace(engine.name.lower(), "")
        for word in species:
            assert word.replace("_", " ") not in lowered, (word, text)


def test_a_reaction_window_notifies_every_asked_player_and_emails_them(started):
    for _attempt in range(20):
        game = started("imperador")
        engine = registry.get(game.engine)
        rng = random.Random(3)
        for _step in range(30):
            waiting = engine.waiting_for(game.state)
            if waiting.kind == "window":
                break
            seat, action = next_human_move(game, rng)
            services.act(seat_users(game)[seat], game.pk, game.version_for(seat), action)
            game.refresh_from_db()
        waiting = engine.waiting_for(game.state)
        if waiting.kind != "window":
            continue
        users = seat_users(game)
        asked = [users[s] for s in waiting.seats if s in users]
        assert asked
        # Nothing was emailed before (no worker here) and nobody has the table open: every
        # asked player is owed an email.
        for user in asked:
            note = Notification.objects.filter(
                user=user, kind=Notification.Kind.WINDOW, game_id=game.pk
            ).latest("created_at")
            assert send_notification_email(note.pk) == "send", user
        assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in asked)
        return
    raise AssertionError("never reached a window")


def test_a_player_moving_against_bots_is_not_pinged_for_the_turn_that_comes_straight_back(trio):
    alice = trio[0]

    def turns() -> int:
        return Notification.objects.filter(user=alice, kind=Notification.Kind.YOUR_TURN).count()

    rng = random.Random(4)
    for _table in range(10):  # a table that ends within the moves cannot test the second half
        game = services.game_create(alice, engine="cockroach-poker-royal", seats=3, bots=2)
        services.game_start(alice, game.pk)
        for _ in range(15):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            before = turns()
            seat, action = next_human_move(game, rng)
            services.act(alice, game.pk, game.version_for(seat), action)
            assert turns() == before
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            continue
        before = turns()
        # the bot moved for her: she was away, so she hears of it
        services.force_deadline(alice, game.pk, "test: alice is away")
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            continue  # the bot's move for her ended the game: no next turn to hear of
        assert turns() == before + 1
        return
    raise AssertionError("no table stayed in play for 15 moves and a missed turn")


def test_opening_the_table_marks_its_notifications_read(started):
    game = turn_game(started)
    _seat, user = waited_user(game)
    assert Notification.objects.filter(user=user, game_id=game.pk, read_at__isnull=True).exists()
    client = Client()
    client.force_login(user)
    client.get(reverse("games:table", args=[game.pk]))
    assert not Notification.objects.filter(
        user=user, game_id=game.pk, read_at__isnull=True
    ).exists()


def test_a_turn_email_is_skipped_once_its_wait_is_over_or_its_notice_read(started):
    game = turn_game(started)
    seat, user = waited_user(game)
    note = Notification.objects.get(user=user, kind=Notification.Kind.YOUR_TURN)
    assert note.wait_seq == game.wait_seq
    services.act(user, game.pk, game.version_for(seat), next_human_move(game, random.Random(2))[1])
    assert send_notification_email(note.pk) == "skip", "the turn it announced is over"
    game.refresh_from_db()
    _waited_seat, waited = waited_user(game)
    fresh = Notification.objects.filter(user=waited, kind=Notification.Kind.YOUR_TURN).latest(
        "created_at"
    )
    assert fresh.wait_seq == game.wait_seq
    notifications.mark_read(waited, [fresh.pk])
    assert send_notification_email(fresh.pk) == "skip", "read in the app already"
    assert mail.outbox == []


def test_the_language_chosen_in_the_header_is_the_one_of_a_players_notices(
    started, trio, make_user
):
    """Alice picks Persian in the header's menu (not in her profile): her next turn notice is
    written in Persian too. The menu used to set only the cookie, so her notices and emails
    stayed English inside Persian pages."""
    alice = trio[0]
    client = Client()
    client.force_login(alice)
    answer = client.post("/i18n/setlang/", {"language": "fa", "next": "/"})
    assert answer.status_code == 302
    alice.refresh_from_db()
    assert alice.language == "fa"
    game = started("cockroach-poker-royal")
    users = seat_users(game)
    rng = random.Random(2)
    for _move in range(40):
        game.refresh_from_db()
        notice = Notification.objects.filter(user=alice, kind=Notification.Kind.YOUR_TURN).first()
        if notice is not None:
            break
        seat, action = next_human_move(game, rng)
        services.act(users[seat], game.pk, game.version_for(seat), action)
    assert notice is not None
    assert re.search("[\u0600-\u06ff]", notice.text), notice.text  # Persian letters
    # bob, who chose nothing, still reads English
    bob_notice = Notification.objects.filter(user=trio[1]).first()
    assert bob_notice is None or not re.search("[\u0600-\u06ff]", bob_notice.text)
    # Back in English, her list marks the Persian notice as Persian, right to left (a screen
    # reader read it with an English voice); a notice in the page's language is not marked.
    assert notice.language == "fa"
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    alice.refresh_from_db()
    friend_request_send(make_user("dora"), alice)
    english = Notification.objects.get(user=alice, kind=Notification.Kind.FRIEND_REQUEST)
    assert english.language == "en"
    page = client.get(reverse("notifications")).content.decode()
    assert re.search(
        r'<span lang="fa" dir="rtl">[^<]*<a href="[^"]*">' + re.escape(notice.text), page
    )
    assert re.search(r"<span><a href=\"[^\"]*\">" + re.escape(english.text), page)


@pytest.mark.parametrize("engine", ["cockroach-poker-royal", "mogel-motte"])
def test_a_finished_game_leaves_no_your_turn_notice_unread(started, engine):
    """Once the game is over nothing waits: its "your turn", "quick!" and invitation notices
    are read with the result, which is the one notice left unread (the bell kept old ones)."""
    game = play_to_the_end(started(engine))
    unread = Notification.objects.filter(game_id=game.pk, read_at__isnull=True)
    assert set(unread.values_list("kind", flat=True)) == {Notification.Kind.GAME_FINISHED}
    assert unread.count() == 3  # one result for each player
    assert Notification.objects.filter(game_id=game.pk, kind__in=notify.WAIT_KINDS).exists()


def test_a_persian_players_emails_read_right_to_left(started):
    """The turn email and the digest carry the language and direction of the player's own
    language: without them a Persian sentence was laid out left to right, its full stop at
    the wrong end."""
    game = turn_game(started)
    _seat, user = waited_user(game)
    user.language = "fa"
    user.save()
    # a turn notice written in Persian (the start's was written while the player read English,
    # and its email speaks English: test_email_sweep)
    game.refresh_from_db()
    note = notifications.notify(
        user, Notification.Kind.YOUR_TURN, "نوبت شما", "/games/1/", game.pk, game.wait_seq
    )
    assert note.language == "fa"
    assert send_notification_email(note.pk) == "send"
    user.email_preference = EmailPreference.DIGEST
    user.save()
    later = notifications.notify(user, Notification.Kind.NUDGE, "digest", "/games/1/", game.pk)
    assert send_notification_email(later.pk) == "digest"
    assert send_daily_digests(timezone.now().replace(hour=7, minute=0)) == 1
    other = next(u for u in seat_users(game).values() if u != user)
    english = notifications.notify(other, Notification.Kind.NUDGE, "hi", "/games/1/", game.pk)
    assert send_notification_email(english.pk) == "send"
    persian, digest, plain = (m.alternatives[0][0] for m in mail.outbox)
    for page in (persian, digest):
        assert '<html lang="fa" dir="rtl">' in page and '<body dir="rtl"' in page
    assert '<html lang="en" dir="ltr">' in plain
    # the subject too: a right-to-left mark before the Latin "[Fibbers]" (mail review)
    subjects = [m.subject for m in mail.outbox]
    assert subjects[0].startswith("\u200f[Fibbers] ") and subjects[1].startswith("\u200f[")
    assert subjects[2].startswith("[Fibbers] ")
    # and each line of the plain-text part: one opening with a name, a number or a link was
    # set left to right, the sentence's words out of order
    for message in mail.outbox[:2]:
        lines = [line for line in message.body.splitlines() if line.strip() not in ("", "--")]
        assert lines and all(line.startswith("\u200f") for line in lines), message.body
    assert "\u200f" not in mail.outbox[2].body


def _unread_turns(user, game) -> int:
    return Notification.objects.filter(
        user=user, game_id=game.pk, kind=Notification.Kind.YOUR_TURN, read_at__isnull=True
    ).count()


def test_a_move_through_the_api_or_a_turn_timed_out_reads_its_your_turn(started, monkeypatch):
    """A "Your turn" stayed unread on the bell after the move was made through the API (only
    the table page read it), and after the bot played the turn (mail review)."""
    from accounts.services import api_token_create

    game = turn_game(started)
    seat, user = waited_user(game)
    assert _unread_turns(user, game) == 1
    _seat, move = next_human_move(game, random.Random(1))
    _token, raw = api_token_create(user, "bot")
    answer = Client(headers={"Authorization": f"Bearer {raw}"}).post(
        f"/api/games/{game.pk}/actions",
        {"version": game.version_for(seat), "action": move, "key": "k1"},
        content_type="application/json",
    )
    assert answer.status_code == 200
    assert _unread_turns(user, game) == 0

    game.refresh_from_db()
    waiting = registry.get(game.engine).waiting_for(game.state)
    (next_seat,) = waiting.seats
    next_user = seat_users(game)[next_seat]
    assert _unread_turns(next_user, game) == 1
    timed_out_wait = game.wait_seq
    later = game.deadline_at + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert services.apply_if_expired(Game.objects.get(pk=game.pk))
    # that wait's notice is read; the bot's call may leave the same player a new decision (a
    # special card to name), a wait of its own with its own notice (flaky before: some deals)
    unread = Notification.objects.filter(
        user=next_user, game_id=game.pk, kind=Notification.Kind.YOUR_TURN, read_at__isnull=True
    )
    assert not unread.filter(wait_seq=timed_out_wait).exists()
    assert all(n.wait_seq == Game.objects.get(pk=game.pk).wait_seq for n in unread)
    assert Notification.objects.filter(
        user=next_user, game_id=game.pk, kind=Notification.Kind.TIMEOUT, read_at__isnull=True
    ).exists()


def _unread_waits(user, game) -> int:
    return Notification.objects.filter(
        user=user, game_id=game.pk, kind__in=notify.WAIT_KINDS, read_at__isnull=True
    ).count()


def test_an_answer_inside_a_window_reads_its_own_notice_and_nobody_elses(started):
    """A show of hands' "Quick! ... needs your answer" stayed unread once answered through the
    API while the window waited on others: only a move that opened a new wait read the movers'
    notices (the table page reads them as it draws), so the bell, which now counts live, said
    it until the window ended (review, 2026-12-07). The other asked seat's notice is left as it
    was."""
    game = started("imperador")
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    answering, silent = waiting.seats[0], waiting.seats[1]
    assert _unread_waits(users[answering], game) == 1
    assert _unread_waits(users[silent], game) == 1
    down = {"type": "hand", "choice": "down"}
    services.act(users[answering], game.pk, game.version_for(answering), down)
    game.refresh_from_db()
    assert game.wait_window == "hands"  # the window still waits on the silent seat
    assert _unread_waits(users[answering], game) == 0
    assert _unread_waits(users[silent], game) == 1


def test_no_email_for_a_wait_past_its_deadline_that_the_sweep_has_not_closed_yet(
    started, monkeypatch
):
    """A one-minute turn's email left at its deadline, as the bot was about to play it (mail
    review): a wait past its deadline is over, whether or not its timeout has run. (A
    one-minute turn queues no email now: twenty minutes, and the sweep found it late.)"""
    game = turn_game(started, pace="custom", move_seconds=20 * 60, window_seconds=15)
    _seat, user = waited_user(game)
    turn = Notification.objects.get(user=user, game_id=game.pk, kind=Notification.Kind.YOUR_TURN)
    game.refresh_from_db()
    late = game.deadline_at + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: late)

    assert send_notification_email(turn.pk) == "skip"
    assert mail.outbox == []
    assert Game.objects.get(pk=game.pk).wait_seq == game.wait_seq  # nothing closed it yet


def test_a_digest_says_when_each_wait_is_due_on_the_readers_clock(started, monkeypatch, trio):
    """A reminder's "due in 14 hours, 24 minutes" is written when the reminder is made; a
    07:00 digest carried it as it stood the afternoon before, one minute from the deadline. A
    wait's notice in the digest says when the wait is due, in the reader's zone."""
    from accounts.models import User

    User.objects.filter(pk__in=[u.pk for u in trio]).update(
        time_zone="Europe/Prague", email_preference=EmailPreference.DIGEST
    )
    opened = timezone.now().replace(year=2026, month=12, day=7, hour=6, minute=1, second=0)
    clock = {"now": opened}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    game = turn_game(started, pace="relaxed")  # three days: due at 07:01 on 10 December
    _seat, user = waited_user(game)
    turn = Notification.objects.get(user=user, game_id=game.pk, kind=Notification.Kind.YOUR_TURN)
    assert send_notification_email(turn.pk) == "digest"
    game.refresh_from_db()
    clock["now"] = game.remind_at
    assert notify.send_due_reminders(clock["now"]) == 1
    reminder = Notification.objects.get(user=user, kind=Notification.Kind.REMINDER)
    assert "14\xa0hours, 24\xa0minutes" in reminder.text
    assert send_notification_email(reminder.pk) == "digest"

    clock["now"] = game.deadline_at - timedelta(minutes=1)  # 07:00 in Prague
    assert send_daily_digests(clock["now"]) == 1

    body, html = mail.outbox[0].body, mail.outbox[0].alternatives[0][0]
    for words in (body, html):
        assert "Due by Dec. 10, 2026, 7:01 a.m. (Czechia — Prague)." in words
        # the reminder said again as the digest leaves, as a single email says it
        assert f"your move in Cockroach Poker Royal #{game.pk} is due in 1\xa0minute." in words
        assert "14\xa0hours" not in words
    reminder.refresh_from_db()
    assert "14\xa0hours, 24\xa0minutes" in reminder.text  # the notice as it was made


def test_a_players_vacation_year_turns_at_midnight_on_their_own_clock(alice, monkeypatch):
    """The allowance is 14 days a calendar year: a player in Auckland on the morning of
    1 January read "0 vacation days left this year" (it was still 31 December in UTC)."""
    from accounts.models import User

    User.objects.filter(pk=alice.pk).update(time_zone="Pacific/Auckland")
    clock = {"now": timezone.now().replace(year=2026, month=6, day=1, hour=12)}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    client = Client()
    client.force_login(alice)
    client.post(reverse("games:vacation"), {"days": "14"})
    clock["now"] += timedelta(days=20)  # back since
    client.force_login(alice)  # the session ran out meanwhile
    assert (
        "You have 0 vacation days left this year."
        in client.get(reverse("games:vacation")).content.decode()
    )

    clock["now"] = clock["now"].replace(month=12, day=31, hour=21)  # 10:00, 1 January, there
    client.force_login(alice)
    page = client.get(reverse("games:vacation")).content.decode()
    assert "You have 14 vacation days left this year." in page
    client.post(reverse("games:vacation"), {"days": "3"})
    alice.refresh_from_db()
    assert alice.away_until == clock["now"] + timedelta(days=3)
    assert (alice.vacation_year, alice.vacation_days_used) == (2027, 3)


def _turns_waiting_on(user, count: int) -> list[Notification]:
    """``count`` tables of ``user`` and two bots, each waiting on the user's turn: their
    "your turn" notices, queued for the daily digest."""
    notes: list[Notification] = []
    for _table in range(20 * count):
        if len(notes) == count:
            break
        game = services.game_create(user, engine="cockroach-poker-royal", seats=3, bots=2)
        services.game_start(user, game.pk)
        game.refresh_from_db()
        waiting = registry.get(game.engine).waiting_for(game.state)
        if (
            game.status != Game.Status.ACTIVE
            or waiting.kind != "turn"
            or list(waiting.seats) != [0]
        ):
            continue
        note = Notification.objects.get(
            user=user, game_id=game.pk, kind=Notification.Kind.YOUR_TURN
        )
        assert send_notification_email(note.pk) == "digest"
        notes.append(note)
    assert len(notes) == count, "not enough tables opened on the player's turn"
    return notes


def test_a_digest_asks_for_its_waits_in_one_go_however_many_notices_it_holds(alice):
    """The 07:00 digest asked, per notice, whether its wait still stood and when it was due:
    three queries a notice, hundreds for a busy player, every hour of the day somewhere. The
    waits are looked up for the whole digest at once: a digest of three turns costs what a
    digest of one does."""
    alice.email_preference = EmailPreference.DIGEST
    alice.save()
    seven_utc = timezone.now().replace(hour=7, minute=0)

    def digest_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert send_daily_digests(seven_utc) == 1
        return len(queries)

    _turns_waiting_on(alice, 1)
    one = digest_queries()
    three = _turns_waiting_on(alice, 3)
    assert digest_queries() == one

    body = mail.outbox[-1].body
    assert all(note.text in body for note in three)
    assert body.count("Due by ") == 3  # each turn's deadline, read with the others


def _one_click(message) -> int:
    """What a mail provider's one-click unsubscribe does (RFC 8058): a POST of
    ``List-Unsubscribe=One-Click`` to the header's link, with no cookie and no CSRF token."""
    link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert link.startswith(settings.SITE_URL)
    answer = Client(enforce_csrf_checks=True).post(
        link.removeprefix(settings.SITE_URL.rstrip("/")),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    return answer.status_code


def test_a_player_who_unsubscribes_from_the_digest_gets_no_more_digests(started, make_user):
    """The 07:00 digest went out with what was queued before a one-click unsubscribe: the
    digest asked whether the account was active, never whether it still wanted email."""
    game = turn_game(started)
    _seat, user = waited_user(game)
    user.email_preference = EmailPreference.DIGEST
    user.save()
    turn = Notification.objects.get(user=user, game_id=game.pk, kind=Notification.Kind.YOUR_TURN)
    assert send_notification_email(turn.pk) == "digest"
    seven_utc = timezone.now().replace(hour=7, minute=0)
    assert send_daily_digests(seven_utc) == 1
    (yesterdays,) = mail.outbox
    dora = make_user("dora")
    friendship_create(dora, user)
    table = services.game_create(dora, engine="imperador", seats=3, invite=[user.username])
    invitation = Notification.objects.get(user=user, game_id=table.pk)
    assert send_notification_email(invitation.pk) == "digest"

    assert _one_click(yesterdays) == 200

    assert send_daily_digests(seven_utc + timedelta(days=1)) == 0
    assert mail.outbox == [yesterdays]
    invitation.refresh_from_db()
    assert invitation.email == Notification.Email.SKIPPED


def test_a_reminder_queued_for_the_digest_is_left_out_once_reminders_are_turned_off(started):
    """Queued for 07:00, a reminder still went out after the player turned "remind me by
    email" off: only the single emails asked again."""
    from accounts import services as account_services

    game = turn_game(started)
    _seat, user = waited_user(game)
    user.email_preference = EmailPreference.DIGEST
    user.save()
    game.refresh_from_db()
    assert notify.send_due_reminders(game.remind_at + timedelta(seconds=1)) == 1
    reminder = Notification.objects.get(user=user, kind=Notification.Kind.REMINDER)
    assert send_notification_email(reminder.pk) == "digest"

    account_services.profile_update(user, email_reminders=False)

    assert send_daily_digests(timezone.now().replace(hour=7, minute=0)) == 0
    assert mail.outbox == []
    reminder.refresh_from_db()
    assert reminder.email == Notification.Email.SKIPPED


def test_a_game_emails_message_id_names_the_site_not_the_machine_that_sent_it(started, settings):
    """Django names the sending machine (its fully qualified host name) in each Message-ID:
    every game email carried the worker's internal host name in its headers."""
    settings.SITE_URL = "https://fibbers.example"
    game = turn_game(started)
    _seat, user = waited_user(game)
    note = Notification.objects.get(user=user, game_id=game.pk, kind=Notification.Kind.YOUR_TURN)
    assert send_notification_email(note.pk) == "send"
    assert mail.outbox[0].message()["Message-ID"].endswith("@fibbers.example>")


def test_a_suspended_player_gets_no_email_queued_before_the_ban(trio, make_user):
    """Neither the single email nor the digest: both ask at send time whether the account is
    still in use."""
    from accounts.services import user_ban
    from accounts.tasks import send_due_emails

    alice, bob, carol = trio
    carol.email_preference = EmailPreference.DIGEST
    carol.save()
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])
    invited = Notification.objects.filter(game_id=game.pk, kind=Notification.Kind.INVITATION)
    assert invited.count() == 2
    carols = invited.get(user=carol)
    assert send_notification_email(carols.pk) == "digest"
    moderator = make_user("mod", is_staff=True, is_superuser=True)
    user_ban(moderator, bob, "spam")
    user_ban(moderator, carol, "spam")

    later = timezone.now() + timedelta(seconds=settings.NOTIFICATION_EMAIL_DELAY + 1)
    send_due_emails(later)
    assert send_daily_digests(later.replace(hour=7, minute=0)) == 0
    assert mail.outbox == []
    assert set(invited.values_list("email", flat=True)) == {Notification.Email.SKIPPED}


def test_a_blocked_player_cannot_nudge_the_blocker_and_is_not_told_why(started):
    game = turn_game(started)
    seat, user = waited_user(game)
    blocked, third = [u for s, u in seat_users(game).items() if s != seat]
    user_block(user, blocked)
    # a third of the turn's time goes by (the clock, not the game: its wait moved back)
    game.refresh_from_db()
    third_of_turn = (game.deadline_at - game.wait_opened_at) / 3 + timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(
        wait_opened_at=F("wait_opened_at") - third_of_turn,
        deadline_at=F("deadline_at") - third_of_turn,
    )
    blocked_client, third_client = Client(), Client()
    blocked_client.force_login(blocked)
    third_client.force_login(third)
    table = reverse("games:table", args=[game.pk])
    assert f"Nudge {user.name}" in third_client.get(table).content.decode()
    # the blocked player is offered no nudge, as before a third of a turn
    assert f"Nudge {user.name}" not in blocked_client.get(table).content.decode()
    mail.outbox.clear()
    # a page loaded before the block still posts: answered as any nudge, delivered to nobody
    response = blocked_client.post(reverse("games:command", args=[game.pk, "nudge"]), follow=True)
    assert "Nudge sent." in response.content.decode()
    assert not Notification.objects.filter(user=user, kind=Notification.Kind.NUDGE).exists()
    assert f"Nudge {user.name}" not in blocked_client.get(table).content.decode()
    # nor does it use up the turn's nudge for the players the blocker still hears from
    response = third_client.post(reverse("games:command", args=[game.pk, "nudge"]), follow=True)
    assert "Nudge sent." in response.content.decode()
    nudges = Notification.objects.filter(user=user, kind=Notification.Kind.NUDGE)
    assert [str(note.text) for note in nudges] == [
        f"{third.name} nudges you: it is your turn in Cockroach Poker Royal #{game.pk}."
    ]


def test_a_zone_switched_back_across_new_year_gives_no_second_allowance(alice, monkeypatch):
    """Alice used her 14 days of 2026 in June. On 31 December at noon (UTC) she moves her
    clock to Auckland, where 2027 has begun, takes a day of 2027's allowance and comes back
    at once; then she moves it to Honolulu, where it is still 31 December 2026. Her year
    went back with her clock: 2026 counted as a fresh year again, and she could take 14 more
    days (and back in Auckland, 2027's again). The allowance's year never goes back: what she
    has left is 2027's."""
    clock = {"now": timezone.now().replace(year=2026, month=6, day=1, hour=12)}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    client = Client()
    client.force_login(alice)
    client.post(reverse("games:vacation"), {"days": "14"})
    clock["now"] = clock["now"].replace(month=12, day=31)  # 01:00, 1 January 2027, in Auckland
    client.force_login(alice)  # the session ran out meanwhile
    profile_update(alice, time_zone="Pacific/Auckland")
    client.post(reverse("games:vacation"), {"days": "1"})
    clock["now"] += timedelta(hours=1)
    client.post(reverse("games:vacation"), {"end": "1"})  # the day begun counts
    profile_update(alice, time_zone="Pacific/Honolulu")  # 03:00, 31 December

    page = client.get(reverse("games:vacation")).content.decode()
    assert "You have 13 vacation days left this year." in page
    client.post(reverse("games:vacation"), {"days": "14"})
    alice.refresh_from_db()
    assert alice.away_until is None
    assert (alice.vacation_year, alice.vacation_days_used) == (2027, 1)


def test_a_window_too_short_for_an_email_is_told_in_the_app_only(started):
    """ "Quick! ... needs your answer" went by email for a Fast table's two-minute window: it
    left a minute later and arrived once the window had closed (a new player's play-through).
    The notice stays on the bell; no email is queued for it."""
    game = started("imperador", pace="fast")
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    for seat in waiting.seats:
        note = Notification.objects.get(
            user=users[seat], game_id=game.pk, kind=Notification.Kind.WINDOW, read_at__isnull=True
        )
        assert note.email == Notification.Email.NONE, note.text

    sweep_at = timezone.now() + timedelta(seconds=settings.NOTIFICATION_EMAIL_DELAY + 1)
    mail.outbox.clear()
    send_due_emails(sweep_at)
    assert not [m for m in mail.outbox if "needs your answer" in m.subject + m.body]


def test_a_queued_email_that_would_arrive_too_late_is_not_sent(started, monkeypatch):
    """A turn's email still queued a few minutes before the turn is due (a mail server down
    for a while, a custom pace) says nothing the player can still act on: skipped."""
    game = turn_game(started, pace="custom", move_seconds=20 * 60, window_seconds=60)
    _seat, user = waited_user(game)
    turn = Notification.objects.get(user=user, game_id=game.pk, kind=Notification.Kind.YOUR_TURN)
    assert turn.email == Notification.Email.PENDING  # twenty minutes: worth an email
    game.refresh_from_db()
    late = game.deadline_at - timedelta(minutes=5)
    monkeypatch.setattr(timezone, "now", lambda: late)

    assert send_notification_email(turn.pk) == "skip"
    assert mail.outbox == []
    turn.refresh_from_db()
    assert turn.email == Notification.Email.SKIPPED and turn.read_at is None
