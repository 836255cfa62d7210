"""Table talk: players talk, spectators read (or talk among themselves), mute, report, hide."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.test import Client
from django.urls import reverse

from accounts.models import ModerationLog
from accounts.services import friendship_create
from games.models import ChatMessage, Game, Report

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def say(client: Client, game: Game, text: str):
    return client.post(reverse("games:chat_post", args=[game.pk]), {"text": text}, follow=True)


def talk(client: Client, game: Game) -> str:
    return client.get(reverse("games:chat", args=[game.pk])).content.decode()


def test_players_talk_and_a_spectating_friend_reads_without_writing(started, make_user):
    game = started("imperador")
    alice, bob = game.seats.get(index=0).user, game.seats.get(index=1).user
    dave = make_user("dave")
    friendship_create(alice, dave)
    say(client_for(alice), game, "Nice bluff, Bob")
    assert "Nice bluff, Bob" in talk(client_for(bob), game)
    assert "Nice bluff, Bob" in talk(client_for(dave), game)
    page = say(client_for(dave), game, "psst, Alice holds the fox")
    assert "they do not write" in page.content.decode()
    assert not ChatMessage.objects.filter(author=dave).exists()
    assert (
        client_for(make_user("stranger")).get(reverse("games:chat", args=[game.pk])).status_code
        == 404
    )


def test_with_their_own_channel_spectators_cannot_coach_the_players(started, make_user):
    game = started("imperador")
    Game.objects.filter(pk=game.pk).update(spectator_chat="own")
    alice = game.seats.get(index=0).user
    dave = make_user("dave")
    friendship_create(alice, dave)
    say(client_for(dave), game, "Alice holds the fox")
    assert "Alice holds the fox" in talk(client_for(dave), game)
    assert "Alice holds the fox" not in talk(client_for(alice), game)


def test_mute_report_and_the_unread_count(started):
    game = started("cockroach-poker-royal")
    alice, bob, carol = (game.seats.get(index=i).user for i in range(3))
    say(client_for(bob), game, "You will lose, Alice")
    my_games = client_for(alice).get(reverse("games:my_games")).content.decode()
    assert "💬 1" in my_games
    client_for(alice).get(reverse("games:table", args=[game.pk]))  # read
    assert "💬" not in client_for(alice).get(reverse("games:my_games")).content.decode()
    message = ChatMessage.objects.get(author=bob)
    client_for(carol).post(reverse("games:chat_report", args=[game.pk, message.seq]))
    report = Report.objects.get(reporter=carol)
    assert report.reported == bob and "You will lose, Alice" in report.text
    client_for(alice).post(reverse("games:chat_mute", args=["bob"]), {"mute": "1"})
    assert "You will lose" not in talk(client_for(alice), game)
    assert "You will lose" in talk(client_for(carol), game)


def hide(as_admin: Client, messages: list[ChatMessage], reason: str | None):
    """The list's hide action: its page asking why, then (with a reason) the hiding."""
    data = {
        "action": "hide_messages",
        ACTION_CHECKBOX_NAME: [m.pk for m in messages],
        "index": 0,
    }
    if reason is not None:
        data.update(apply="1", reason=reason)
    return as_admin.post(reverse("admin:games_chatmessage_changelist"), data, follow=True)


def test_staff_hide_a_message_from_everyone_with_a_moderation_log_row(started, as_admin):
    game = started("imperador")
    bob = game.seats.get(index=1).user
    say(client_for(bob), game, "something rude")
    message = ChatMessage.objects.get(author=bob)

    asked = hide(as_admin, [message], None).content.decode()
    assert "Hide messages" in asked and 'name="reason"' in asked
    assert ChatMessage.objects.get(pk=message.pk).hidden_at is None
    done = hide(as_admin, [message], "insults").content.decode()

    message.refresh_from_db()
    assert message.hidden_at is not None
    assert "Hid 1 message." in done
    assert list(
        ModerationLog.objects.filter(action="chat_hide", target_user=bob).values_list(
            "reason", flat=True
        )
    ) == ["insults"]
    assert "something rude" not in talk(client_for(game.seats.get(index=0).user), game)

    # again (a second tab, another moderator first): said, not logged twice
    again = hide(as_admin, [message], "insults").content.decode()
    assert "This message was already hidden." in again and "Hid 1 message." not in again
    assert ModerationLog.objects.filter(action="chat_hide").count() == 1


def test_a_report_leads_the_moderator_to_its_tables_talk(started, as_admin):
    game = started("imperador")
    other = started("imperador")
    alice, bob = game.seats.get(index=0).user, game.seats.get(index=1).user
    say(client_for(bob), game, "the line reported")
    say(client_for(alice), game, "what was said before")
    say(client_for(bob), other, "talk at another table")
    line = ChatMessage.objects.get(text="the line reported")
    client_for(alice).post(reverse("games:chat_report", args=[game.pk, line.seq]))
    report = Report.objects.get(reported=bob)

    page = as_admin.get(reverse("admin:games_report_change", args=[report.pk])).content.decode()
    talk_url = reverse("admin:games_chatmessage_changelist") + f"?game__id__exact={game.pk}"
    assert f'href="{talk_url}"' in page.replace("&amp;", "&") and "2 messages" in page
    listed = as_admin.get(talk_url)
    assert listed.status_code == 200
    assert {m.text for m in listed.context["cl"].result_list} == {
        "the line reported",
        "what was said before",
    }
    game_page = as_admin.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert f'href="{talk_url}"' in game_page.replace("&amp;", "&")


def test_the_chat_list_shows_the_latest_lines_first(started, as_admin):
    """It listed by table, oldest table first: with thousands of lines a reported one said
    just now was on the last page, and a search's answers too (a moderation review)."""
    older, newer = started("imperador"), started("imperador")
    alice, bob = older.seats.get(index=0).user, older.seats.get(index=1).user
    say(client_for(alice), older, "first, at the older table")
    say(client_for(bob), newer, "then at the newer table")
    say(client_for(alice), older, "just now, at the older table")

    listed = as_admin.get(reverse("admin:games_chatmessage_changelist"))

    assert [m.text for m in listed.context["cl"].result_list] == [
        "just now, at the older table",
        "then at the newer table",
        "first, at the older table",
    ]


def test_a_messages_own_admin_page_offers_nothing_to_save(started, as_admin):
    game = started("imperador")
    say(client_for(game.seats.get(index=1).user), game, "hello")
    message = ChatMessage.objects.get()
    url = reverse("admin:games_chatmessage_change", args=[message.pk])

    page = as_admin.get(url).content.decode()

    assert 'name="_save"' not in page and 'name="_continue"' not in page
    as_admin.post(url, {"text": "changed"})
    assert ChatMessage.objects.get(pk=message.pk).text == "hello"


def test_rate_length_and_character_rules(started):
    game = started("imperador")
    alice = game.seats.get(index=0).user
    client = client_for(alice)
    for k in range(5):
        say(client, game, f"message {k}")
    assert "writing too fast" in say(client, game, "one more").content.decode()
    assert ChatMessage.objects.filter(author=alice).count() == 5
    bob = client_for(game.seats.get(index=1).user)
    assert "under 500 characters" in say(bob, game, "x" * 501).content.decode()
    assert "control or direction" in say(bob, game, "abc\u202edef").content.decode()
    # nothing a reader would see: fifty zero-width joiners, marks on nothing, a blank pattern
    for unseen in ("\u200d" * 50, "\u0301" * 400, "\u2800\u3164", "\u00a0\u2003"):
        assert "Write something first." in say(bob, game, unseen).content.decode(), repr(unseen)
    say(bob, game, "é\u0301 ok")  # a mark on a letter shows: posted
    assert ChatMessage.objects.count() == 6
    assert ChatMessage.objects.filter(author=game.seats.get(index=1).user).count() == 1


def test_report_and_mute_opened_by_get_change_nothing_and_a_forged_next_stays_on_our_site(
    started,
):
    """A login that interrupted a Report or Mute POST comes back as a GET: no 405, nothing done;
    the mute form's "next" may only lead to our own pages."""
    game = started("cockroach-poker-royal")
    alice, bob, carol = (game.seats.get(index=i).user for i in range(3))
    say(client_for(bob), game, "Hello")
    message = ChatMessage.objects.get(author=bob)

    reported = client_for(carol).get(reverse("games:chat_report", args=[game.pk, message.seq]))
    assert reported.status_code == 302 and reported["Location"] == reverse("games:my_games")
    assert not Report.objects.exists()
    muted = client_for(alice).get(reverse("games:chat_mute", args=["bob"]))
    assert muted.status_code == 302
    assert "Hello" in talk(client_for(alice), game)

    mute = reverse("games:chat_mute", args=["bob"])
    away = client_for(alice).post(mute, {"mute": "1", "next": "https://evil.example/x"})
    assert away["Location"] == reverse("games:my_games")
    table = reverse("games:table", args=[game.pk])
    home = client_for(alice).post(mute, {"mute": "0", "next": table})
    assert home["Location"] == table


def test_each_line_keeps_its_own_direction_beside_an_isolated_name(started):
    """A Persian line on an English page (or the reverse) is laid out by its own script, and
    a name never pulls the punctuation around it: the text takes dir="auto", the name <bdi>."""
    game = started("imperador")
    alice = game.seats.get(index=0).user
    say(client_for(alice), game, "سلام! Nice bluff?")
    html = talk(client_for(alice), game)
    assert '<span dir="auto">سلام! Nice bluff?</span>' in html
    assert f"<bdi>{alice.name}</bdi>" in html
    assert 'id="chat-text" type="text" dir="auto"' in html


def test_a_moderator_suspends_a_players_table_talk_for_days_then_restores_it(started, make_user):
    """Hiding lines one by one or a ban were the only sanctions for abusive talk (admin
    review): a suspension keeps the player playing, without talk, for the days chosen."""
    from django.utils import timezone

    from accounts.moderators import make_moderator

    game = started("imperador")
    bob = game.seats.get(index=1).user
    moderator = make_user("moddy")
    make_moderator(moderator)
    staff = client_for(type(moderator).objects.get(pk=moderator.pk))
    users = reverse("admin:accounts_user_changelist")
    pick = {"action": "suspend_talk", ACTION_CHECKBOX_NAME: [bob.pk], "index": 0}

    asked = staff.post(users, pick).content.decode()
    assert 'name="days"' in asked and 'name="reason"' in asked
    staff.post(users, {**pick, "apply": "1", "days": "7", "reason": "insults"})

    bob.refresh_from_db()
    left = bob.talk_suspended_until - timezone.now()
    assert 6.9 < left.total_seconds() / 86400 <= 7
    entry = ModerationLog.objects.get(action="talk_suspended")
    assert (entry.actor, entry.target_user, entry.reason) == (moderator, bob, "7 days: insults")
    as_bob = client_for(bob)
    refused = as_bob.post(
        reverse("games:chat_post", args=[game.pk]), {"text": "still rude"}, follow=True
    )
    said = [str(m) for m in refused.context["messages"]]
    assert len(said) == 1 and said[0].startswith("A moderator suspended your table talk until")
    assert not said[0].endswith("..")  # "6:43 a.m.." (moderation review)
    assert not ChatMessage.objects.filter(author=bob).exists()
    panel = talk(as_bob, game)
    assert "A moderator suspended your table talk until" in panel and 'name="text"' not in panel
    assert game.seats.get(index=1).user.talk_suspended  # still seated, still playing

    restore = {"action": "restore_talk", ACTION_CHECKBOX_NAME: [bob.pk], "index": 0}
    staff.post(users, {**restore, "apply": "1", "reason": "apologised"})
    say(client_for(type(bob).objects.get(pk=bob.pk)), game, "sorry all")
    assert ChatMessage.objects.filter(author=bob, text="sorry all").exists()
    assert ModerationLog.objects.filter(action="talk_restored", target_user=bob).count() == 1


def test_a_line_hidden_by_mistake_shows_again_with_a_log_row(started, as_admin):
    """A hidden line could not be shown again but in the database (moderation review)."""
    game = started("imperador")
    bob = game.seats.get(index=1).user
    say(client_for(bob), game, "a fair remark")
    message = ChatMessage.objects.get(author=bob)
    hide(as_admin, [message], "misread it")
    assert "a fair remark" not in talk(client_for(game.seats.get(index=0).user), game)
    pick = {"action": "show_messages", ACTION_CHECKBOX_NAME: [message.pk], "index": 0}
    changelist = reverse("admin:games_chatmessage_changelist")

    asked = as_admin.post(changelist, pick).content.decode()
    assert 'name="reason"' in asked
    done = as_admin.post(changelist, {**pick, "apply": "1", "reason": "it was fair"}, follow=True)

    assert "Showed 1 message again." in done.content.decode()
    assert ChatMessage.objects.get(pk=message.pk).hidden_at is None
    assert "a fair remark" in talk(client_for(game.seats.get(index=0).user), game)
    entry = ModerationLog.objects.get(action="chat_unhide")
    assert (entry.target_user, entry.reason) == (bob, "it was fair")
    again = as_admin.post(changelist, {**pick, "apply": "1", "reason": "twice"}, follow=True)
    assert "This message is not hidden." in again.content.decode()
    assert ModerationLog.objects.filter(action="chat_unhide").count() == 1


def test_a_persian_players_suspended_talk_says_its_end_on_the_solar_calendar(started, make_user):
    from django.conf import settings
    from django.utils import timezone

    from accounts.models import User
    from accounts.moderators import make_moderator
    from accounts.services import talk_suspend
    from accounts.templatetags.calendar_dates import solar_hijri

    game = started("imperador")
    bob = game.seats.get(index=1).user
    moderator = make_user("moddy")
    make_moderator(moderator)
    User.objects.filter(pk=bob.pk).update(language="fa", time_zone="Asia/Tehran")
    talk_suspend(User.objects.get(pk=moderator.pk), bob, 7, "insults")
    bob = User.objects.get(pk=bob.pk)
    client = Client()
    client.force_login(bob)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    panel = client.get(f"/games/{game.pk}/chat/").content.decode()
    with timezone.override("Asia/Tehran"):
        day = solar_hijri(timezone.localtime(bob.talk_suspended_until), "DATETIME_FORMAT")
    assert day in panel
    assert str(timezone.localtime(bob.talk_suspended_until).year) not in panel
