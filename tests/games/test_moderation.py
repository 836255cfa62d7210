"""Moderation: every admin action goes through games.services and writes a moderation log row;
players report each other from a table; the full event log is for staff only."""

from __future__ import annotations

import difflib
import html
import json
import random
import re

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts.models import ModerationLog, Notification, User
from games import broadcast, services
from games.engines import registry
from games.errors import GameError
from games.models import Event, Game, Invitation, Report, Seat
from tests.games.helpers import assert_replays, seat_users, to_the_show_of_hands

pytestmark = pytest.mark.django_db

GAME = "cockroach-poker-royal"


@pytest.fixture
def pings(monkeypatch):
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(
        broadcast,
        "notify_game_changed",
        lambda g, v, seats=None, version=0, users=(): sent.append((g, v)),
    )
    return sent


def post_action(client, model, name, objects, **extra):
    data = {"action": name, ACTION_CHECKBOX_NAME: [obj.pk for obj in objects], "index": 0}
    data.update(extra)
    return client.post(reverse(f"admin:games_{model}_changelist"), data)


def snapshot(game: Game) -> dict:
    game = Game.objects.get(pk=game.pk)
    return {
        "state": json.dumps(game.state, sort_keys=True),
        "version": game.version,
        "seed": game.seed,
        "result": game.result,
        "events": list(Event.objects.filter(game=game).values_list("seq", "action")),
        "seats": list(
            Seat.objects.filter(game=game).values_list("index", "user", "is_bot", "bot_reason")
        ),
    }


def waited_seat(game: Game) -> int:
    game.refresh_from_db()
    waiting = registry.get(game.engine).waiting_for(game.state)
    assert waiting.kind == "turn"
    return waiting.seats[0]


def logs() -> list[tuple]:
    return list(
        ModerationLog.objects.order_by("id").values_list(
            "actor__username", "action", "target_user__username", "game_id", "reason"
        )
    )


# --- Abort --------------------------------------------------------------------------------


def test_abort_asks_for_a_reason_on_an_intermediate_page_first(as_admin, started):
    game = started(GAME)
    before = snapshot(game)

    response = post_action(as_admin, "game", "abort_games", [game])

    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="reason"' in body and 'name="apply"' in body and str(game) in body
    assert snapshot(game) == before
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    assert logs() == []


def test_abort_through_the_admin_aborts_and_changes_nothing_else(
    as_admin, started, pings, django_capture_on_commit_callbacks
):
    game = started(GAME)
    before = snapshot(game)

    with django_capture_on_commit_callbacks(execute=True):
        response = post_action(
            as_admin, "game", "abort_games", [game], apply="yes", reason=" Players asked "
        )

    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.deadline_at is None and game.finished_at is not None
    assert snapshot(game) == before  # state, version, log and seats untouched
    assert logs() == [("root", "game_abort", None, game.pk, "Players asked")]
    assert pings == [(game.pk, game.revision)]
    told = Notification.objects.filter(game_id=game.pk, kind="finished")
    assert sorted(told.values_list("user__username", flat=True)) == ["alice", "bob", "carol"]
    # Nobody can move any more, and aborting twice is refused without a second log row.
    with pytest.raises(GameError):
        services.game_abort(User.objects.get(username="root"), game.pk, "again")
    assert len(logs()) == 1


def test_abort_without_a_reason_is_refused(as_admin, started):
    game = started(GAME)
    before = snapshot(game)

    response = post_action(as_admin, "game", "abort_games", [game], apply="yes", reason="  ")

    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["reason"]
    assert snapshot(game) == before and logs() == []


def test_aborting_a_lobby_cancels_its_pending_invitations(admin_user, trio):
    alice, _bob, _carol = trio
    game = services.game_create(alice, engine=GAME, seats=3, invite=["bob", "carol"])

    services.game_abort(admin_user, game.pk, "spam table")

    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert set(Invitation.objects.filter(game=game).values_list("status", flat=True)) == {
        Invitation.Status.CANCELLED
    }
    assert logs() == [("root", "game_abort", None, game.pk, "spam table")]


# --- Replace a seat by the bot ------------------------------------------------------------


def test_replace_by_bot_on_the_seat_the_game_waits_on_makes_the_bot_move(as_admin, started):
    game = started(GAME)
    index = waited_seat(game)
    seat = Seat.objects.select_related("user").get(game=game, index=index)
    version = game.version

    confirm = post_action(as_admin, "seat", "replace_by_bot", [seat])
    assert confirm.status_code == 200 and 'name="reason"' in confirm.content.decode()
    # whose seat it is, not only its number
    assert f"game {game.pk} seat {index} ({seat.user.username})" in confirm.content.decode()
    assert Game.objects.get(pk=game.pk).version == version

    response = post_action(as_admin, "seat", "replace_by_bot", [seat], apply="yes", reason="AFK")

    assert response.status_code == 302
    seat.refresh_from_db()
    assert seat.is_bot and seat.bot_reason == "admin"
    game.refresh_from_db()
    assert game.version > version
    first = Event.objects.get(game=game, seq=version + 1)
    assert (first.reason, first.seat) == ("bot", index)
    assert game.deadline_at is not None
    assert index not in registry.get(game.engine).waiting_for(game.state).seats
    assert logs() == [("root", "seat_to_bot", seat.user.username, game.pk, "AFK")]
    assert Notification.objects.filter(user=seat.user, kind="seat_to_bot").count() == 1
    assert_replays(game)


def test_replace_by_bot_off_turn_changes_only_the_seat(admin_user, started, pings):
    game = started(GAME)
    index = next(i for i in range(3) if i != waited_seat(game))
    before = snapshot(game)

    services.seat_to_bot(admin_user, game.pk, index, "asked to leave")

    after = snapshot(game)
    assert after["version"] == before["version"] and after["events"] == before["events"]
    assert Seat.objects.get(game=game, index=index).bot_reason == "admin"
    # Already the bot's: refused, no second log row.
    with pytest.raises(GameError):
        services.seat_to_bot(admin_user, game.pk, index, "again")
    assert len(logs()) == 1


# --- Force the deadline -------------------------------------------------------------------


def test_force_deadline_applies_exactly_one_timeout(as_admin, started):
    game = started(GAME)
    index = waited_seat(game)
    player = Seat.objects.get(game=game, index=index).user
    version = game.version
    old_deadline = game.deadline_at

    confirm = post_action(as_admin, "game", "force_deadlines", [game])
    assert confirm.status_code == 200
    assert Game.objects.get(pk=game.pk).version == version

    response = post_action(
        as_admin, "game", "force_deadlines", [game], apply="yes", reason="stalling"
    )

    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == version + 1
    assert list(Event.objects.filter(game=game, seq__gt=version).values_list("reason", "seat")) == [
        ("timeout", index)
    ]
    assert Seat.objects.get(game=game, index=index).consecutive_timeouts == 1
    assert game.deadline_at is not None and game.deadline_at >= old_deadline
    assert logs() == [("root", "force_deadline", player.username, game.pk, "stalling")]
    assert_replays(game)


def test_force_deadline_on_a_finished_table_is_refused(admin_user, started):
    game = started(GAME)
    services.game_abort(admin_user, game.pk, "done")

    with pytest.raises(GameError):
        services.force_deadline(admin_user, game.pk, "late")
    assert [row[1] for row in logs()] == ["game_abort"]


# --- Bans ---------------------------------------------------------------------------------


def _ban(as_admin: Client, user: User, reason: str = "abuse"):
    """The admin's "Ban selected users…" action, with its reason, for ``user``."""
    return as_admin.post(
        reverse("admin:accounts_user_changelist"),
        {
            "action": "ban_users",
            ACTION_CHECKBOX_NAME: [user.pk],
            "index": 0,
            "apply": "yes",
            "reason": reason,
        },
    )


def test_banning_a_user_hands_their_open_seats_to_the_bot(as_admin, started, trio):
    _alice, bob, _carol = trio
    game = started(GAME)
    finished = started(GAME)
    services.game_abort(User.objects.get(username="root"), finished.pk, "old")
    bob_seat = Seat.objects.get(game=game, user=bob)
    # Make it bob's turn if it is not, so the bot must move at once.
    while waited_seat(game) != bob_seat.index:
        index = waited_seat(game)
        engine = registry.get(game.engine)
        move = engine.bot_action(game.state, index, random.Random(index))
        services.act(
            Seat.objects.get(game=game, index=index).user, game.pk, game.version_for(index), move
        )
    version = Game.objects.get(pk=game.pk).version

    response = _ban(as_admin, bob)

    assert response.status_code == 302
    bob_seat.refresh_from_db()
    assert bob_seat.is_bot and bob_seat.bot_reason == "banned"
    assert not Seat.objects.get(game=finished, user=bob).is_bot  # over: left as it was
    game.refresh_from_db()
    assert game.version > version
    assert Event.objects.get(game=game, seq=version + 1).reason == "bot"
    assert logs()[-2:] == [
        ("root", "ban", "bob", None, "abuse"),
        ("root", "banned_seat_to_bot", "bob", game.pk, "abuse"),
    ]


def test_a_banned_player_leaves_the_tables_in_the_lobby(as_admin, trio):
    """The tables a banned player had not started stayed, waiting for him to start them; his
    seat at another's stayed taken, as "(bot)"; his invitations pending (social review,
    2026-12-01). He leaves them as a closed account does."""
    alice, bob, carol = trio
    his = services.game_create(bob, engine=GAME, seats=3, invite=["alice", "carol"])
    services.game_join(alice, his.pk)
    hers = services.game_create(carol, engine=GAME, seats=3, invite=["bob", "alice"])
    services.game_join(bob, hers.pk)
    invited = services.game_create(alice, engine=GAME, seats=3, invite=["bob"])

    response = _ban(as_admin, bob)

    assert response.status_code == 302
    assert Game.objects.get(pk=his.pk).status == Game.Status.ABORTED
    # stopped as a moderator stops a table: in the log, and told without his name
    assert ("root", "game_abort", None, his.pk, "abuse") in logs()
    for user in (alice, carol):  # the seated and the still invited
        told = Notification.objects.filter(user=user, game_id=his.pk, kind="finished").get()
        assert "moderator closed the table" in told.text and "bob" not in told.text.lower()
    assert not Seat.objects.filter(game=hers, user=bob).exists()
    assert not Seat.objects.filter(game=hers, is_bot=True).exists()  # the seat is free
    assert Invitation.objects.get(game=invited, to_user=bob).status == "declined"


def test_a_lobby_stopped_by_a_moderator_takes_its_invitations_off_the_bell(trio):
    alice, bob, _carol = trio
    game = services.game_create(alice, engine=GAME, seats=3, invite=["bob"])
    root = User.objects.create_superuser("root", "root@example.com", "x-long-password-1")

    services.game_abort(root, game.pk, "spam")

    assert not Notification.objects.filter(
        user=bob, game_id=game.pk, kind="invitation", read_at=None
    ).exists()


def test_seats_to_bot_for_banned_refuses_a_player_who_is_not_banned(admin_user, started, trio):
    started(GAME)
    with pytest.raises(GameError):
        services.seats_to_bot_for_banned(admin_user, trio[1])
    assert not Seat.objects.filter(is_bot=True, user__isnull=False).exists()


# --- The event log with hidden cards ------------------------------------------------------


def _played_once(started) -> tuple[Game, dict]:
    game = started(GAME)
    index = waited_seat(game)
    engine = registry.get(game.engine)
    move = engine.bot_action(game.state, index, random.Random(7))
    services.act(
        Seat.objects.get(game=game, index=index).user, game.pk, game.version_for(index), move
    )
    hidden = next(
        e for row in Event.objects.filter(game=game) for e in row.events if e["to"] is not None
    )
    return game, hidden


def test_the_event_log_inline_shows_every_hidden_card_to_a_superuser(as_admin, started):
    game, hidden = _played_once(started)
    page = reverse("admin:games_game_change", args=[game.pk])
    step = reverse("admin:games_game_reveal", args=[game.pk])
    shown = html.escape(json.dumps(hidden["data"]))

    # the game's page keeps them behind an explicit step, which the moderation log records
    plain = as_admin.get(page).content.decode()
    assert shown not in plain and "your_card" not in plain
    assert f'href="{step}"' in plain
    # a bare link (any page can make a moderator follow one) shows and logs nothing: it
    # leads to the step, whose own page asks (a web attacker's review)
    bare = as_admin.get(page, {"reveal": "1"}, HTTP_REFERER="https://evil.example/")
    assert bare.status_code == 302 and bare["Location"] == step
    asked = as_admin.get(step).content.decode()
    assert "The moderation log notes that you looked" in asked and 'method="post"' in asked
    assert f'<a href="{page}">' in asked  # the trail back to the game's page
    assert not ModerationLog.objects.filter(action="reveal_hidden").exists()

    done = as_admin.post(step)

    assert done.status_code == 302 and done["Location"] == f"{page}?reveal=1"
    assert ModerationLog.objects.filter(action="reveal_hidden", game_id=game.pk).count() == 1
    response = as_admin.get(done["Location"])
    body = response.content.decode()
    assert response.status_code == 200
    assert shown in body
    assert "only seats " + ", ".join(map(str, hidden["to"])) in body
    assert 'name="state"' not in body and 'name="_save"' not in body  # nothing is editable

    full = as_admin.get(reverse("admin:games_game_full_log", args=[game.pk]))
    assert full.status_code == 200
    assert "The log replays to the stored state." in full.content.decode()
    assert shown in full.content.decode()
    # one look, one row: the step covers the game's page and its full log for a while
    assert ModerationLog.objects.filter(action="reveal_hidden", game_id=game.pk).count() == 1


def test_the_full_log_asks_for_the_step_first_and_the_step_needs_its_token(as_admin, started):
    game, hidden = _played_once(started)
    full_log = reverse("admin:games_game_full_log", args=[game.pk])
    step = reverse("admin:games_game_reveal", args=[game.pk])

    asked = as_admin.get(full_log)

    assert asked.status_code == 302 and asked["Location"] == f"{step}?to=full"
    forged = Client(enforce_csrf_checks=True)
    forged.cookies = as_admin.cookies
    assert forged.post(step).status_code == 403  # a form from elsewhere
    assert not ModerationLog.objects.filter(action="reveal_hidden").exists()
    done = as_admin.post(f"{step}?to=full")
    assert done["Location"] == full_log
    assert html.escape(json.dumps(hidden["data"])) in as_admin.get(full_log).content.decode()


def test_staff_playing_at_a_table_cannot_reveal_its_hidden_cards_until_it_ends(admin_user, trio):
    """A moderator who sits at a table in play (against bots, or friends) reads no hand there:
    not in the game's page, its event log, nor its full log."""
    from accounts.services import friendship_create

    alice, bob, _carol = trio
    friendship_create(admin_user, alice)
    friendship_create(admin_user, bob)
    game = services.game_create(admin_user, engine=GAME, seats=3, invite=["alice", "bob"])
    services.game_join(alice, game.pk)
    services.game_join(bob, game.pk)
    services.game_start(admin_user, game.pk)
    client = Client()
    client.force_login(admin_user)
    page = reverse("admin:games_game_change", args=[game.pk])

    response = client.get(page, {"reveal": "1"})

    body = response.content.decode()
    assert response.status_code == 200
    assert "its hidden cards stay hidden from you until the game is over" in body
    assert "Show the full state" not in body and "your_card" not in body
    step = reverse("admin:games_game_reveal", args=[game.pk])
    assert step not in client.get(page).content.decode()  # not offered, only refused
    for refused in (client.get(step), client.post(step)):
        assert refused.status_code == 403  # the site's page, saying why
        assert "its hidden cards stay hidden from you" in refused.content.decode()
    full_log = reverse("admin:games_game_full_log", args=[game.pk])
    refused = client.get(full_log)
    assert refused.status_code == 403  # the site's page, saying why (it was a bare "403")
    assert "its hidden cards stay hidden from you" in refused.content.decode()
    assert not ModerationLog.objects.filter(action="reveal_hidden").exists()

    services.game_abort(admin_user, game.pk, "test over")
    assert client.post(step).status_code == 302
    assert "Show the full state" in client.get(page, {"reveal": "1"}).content.decode()
    assert client.get(full_log).status_code == 200


def test_a_game_is_found_by_its_number(as_admin, started):
    game = started(GAME)
    other = started(GAME)
    url = reverse("admin:games_game_changelist")

    for term in (f"#{game.pk}", str(game.pk), f" #{game.pk} "):
        found = list(as_admin.get(url, {"q": term}).context["cl"].result_list)
        assert found == [game], term
    assert other not in as_admin.get(url, {"q": f"#{game.pk}"}).context["cl"].result_list


def test_a_tables_reports_are_found_by_its_number(as_admin, started, trio):
    """Players name a table "#12" in their reports and messages; the reports' search read
    only names and what they wrote."""
    alice, _bob, carol = trio
    game, other = started(GAME), started(GAME)
    here = services.report_create(alice, game.pk, "bob", "abuse", "rude")
    services.report_create(carol, other.pk, "bob", "abuse", "rude")
    url = reverse("admin:games_report_changelist")

    for term in (f"#{game.pk}", f" {game.pk} "):
        found = list(as_admin.get(url, {"q": term}).context["cl"].result_list)
        assert found == [here], term
    assert as_admin.get(url, {"q": "rude"}).context["cl"].result_count == 2


def test_a_player_is_sent_to_the_admin_login(started, bob):
    game, _hidden = _played_once(started)
    client = Client()
    client.force_login(bob)

    for url in (
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_game_full_log", args=[game.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))


def test_staff_without_the_event_permission_see_no_hidden_card(started, make_user):
    game, hidden = _played_once(started)
    staff = make_user("helper", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_game"))
    client = Client()
    client.force_login(staff)

    response = client.get(reverse("admin:games_game_change", args=[game.pk]))

    assert response.status_code == 200
    body = response.content.decode()
    assert html.escape(json.dumps(hidden["data"])) not in body
    assert "your_card" not in body
    assert client.get(reverse("admin:games_game_full_log", args=[game.pk])).status_code == 403
    # No change permission: the moderation actions are not offered.
    changelist = client.get(reverse("admin:games_game_changelist")).content.decode()
    assert "abort_games" not in changelist


def test_game_admin_lists_filters_and_searches_by_player(as_admin, started, make_user):
    game = started(GAME)
    url = reverse("admin:games_game_changelist")

    by_player = as_admin.get(url, {"q": "carol"})
    nobody = as_admin.get(url, {"q": "nobody-plays"})
    by_status = as_admin.get(url, {"status__exact": "active", "engine": GAME})

    assert list(by_player.context["cl"].result_list) == [game]
    assert list(nobody.context["cl"].result_list) == []
    assert list(by_status.context["cl"].result_list) == [game]
    assert "alice, bob, carol" in by_player.content.decode()
    # the game by its name, in the column and the filter (they showed the slug)
    listed = by_status.content.decode()
    assert '<td class="field-game_name">Cockroach Poker Royal</td>' in listed
    assert ">cockroach-poker-royal<" not in listed and ">Mogel Motte</a>" in listed


def test_invitations_are_read_only_in_the_admin(as_admin, trio):
    services.game_create(trio[0], engine=GAME, seats=3, invite=["bob"])
    invitation = Invitation.objects.get()

    assert as_admin.get(reverse("admin:games_invitation_changelist")).status_code == 200
    assert as_admin.get(reverse("admin:games_invitation_add")).status_code == 403
    page = as_admin.get(reverse("admin:games_invitation_change", args=[invitation.pk]))
    assert 'name="_save"' not in page.content.decode()


# --- Reports ------------------------------------------------------------------------------


def test_report_rules(started, trio, make_user):
    alice, bob, carol = trio
    game = started(GAME)
    stranger = make_user("dave")
    other = started(GAME)

    def refused(code, *args):
        with pytest.raises(GameError) as error:
            services.report_create(*args)
        assert error.value.code == code

    refused("not_seated", stranger, game.pk, "bob", "abuse", "")
    refused("not_seated", alice, game.pk, "dave", "abuse", "")
    refused("self", alice, game.pk, "alice", "abuse", "")
    refused("self", alice, game.pk, 0, "abuse", "")
    refused("bad_reason", alice, game.pk, "bob", "ugly-shoes", "")
    refused("too_long", alice, game.pk, "bob", "abuse", "x" * 2001)

    report = services.report_create(alice, game.pk, "Bob", "abuse", "  rude in chat ")
    assert (report.reporter, report.reported, report.game, report.status, report.text) == (
        alice,
        bob,
        game,
        "open",
        "rude in chat",
    )
    # One open report per reporter, reported player and table ...
    refused("duplicate", alice, game.pk, 1, "stalling", "")
    # ... but another table, another reporter or another player is fine.
    services.report_create(alice, other.pk, "bob", "abuse", "")
    services.report_create(carol, game.pk, "bob", "abuse", "")
    services.report_create(alice, game.pk, 2, "stalling", "")
    # Once closed, the same report can be made again.
    services.report_resolve(
        User.objects.create_superuser("mod", "m@example.com", "x"), report, "dismissed", "ok"
    )
    services.report_create(alice, game.pk, "bob", "abuse", "again")
    assert Report.objects.count() == 5


def test_a_bot_seat_cannot_be_reported(trio):
    alice = trio[0]
    game = services.game_create(alice, engine=GAME, seats=3, bots=1, invite=["bob"])
    with pytest.raises(GameError) as error:
        services.report_create(alice, game.pk, 1, "abuse", "")
    assert error.value.code == "bot_seat"


def test_report_page_lists_the_other_players_and_files_the_report(started, trio, make_user):
    alice, bob, _carol = trio
    game = started(GAME)
    url = reverse("games:report", args=[game.pk])
    client = Client()
    client.force_login(alice)

    page = client.get(url)
    assert page.status_code == 200
    choices = [label for _value, label in page.context["form"].fields["reported"].choices]
    assert choices == ["Choose a player", "bob", "carol"]

    # the form as it opens, sent by a stray tap: nobody is reported (review, 2026-12-01)
    untouched = client.post(url, {"reported": "", "reason": "abuse", "text": ""})
    assert untouched.status_code == 200 and untouched.context["form"].errors["reported"]
    assert not Report.objects.exists()

    response = client.post(
        url, {"reported": "1", "reason": "abuse", "text": "insults"}, follow=True
    )
    assert response.redirect_chain == [(reverse("games:table", args=[game.pk]), 302)]
    assert "The moderators will look at your report." in response.content.decode()
    assert Report.objects.get().reported == bob

    again = client.post(url, {"reported": "1", "reason": "abuse", "text": ""})
    assert again.status_code == 200
    assert "already reported" in again.content.decode()
    assert Report.objects.count() == 1

    stranger = Client()
    stranger.force_login(make_user("dave"))
    assert stranger.get(url).status_code == 404


def test_reports_are_resolved_and_dismissed_through_the_admin(as_admin, started, trio):
    alice, bob, carol = trio
    game = started(GAME)
    first = services.report_create(alice, game.pk, "bob", "abuse", "rude")
    second = services.report_create(carol, game.pk, "bob", "stalling", "")

    confirm = post_action(as_admin, "report", "resolve_reports", [first])
    assert confirm.status_code == 200 and 'name="reason"' in confirm.content.decode()
    assert Report.objects.get(pk=first.pk).status == "open"

    post_action(as_admin, "report", "resolve_reports", [first], apply="yes", reason="warned bob")
    post_action(as_admin, "report", "dismiss_reports", [second], apply="yes", reason="no stall")
    # Closing a closed report again is refused and logs nothing.
    post_action(as_admin, "report", "dismiss_reports", [first], apply="yes", reason="oops")

    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, first.resolved_by.username, first.resolution) == (
        "resolved",
        "root",
        "warned bob",
    )
    assert first.resolved_at is not None
    assert (second.status, second.resolution) == ("dismissed", "no stall")
    assert logs() == [
        ("root", "report_resolved", "bob", game.pk, "warned bob"),
        ("root", "report_dismissed", "bob", game.pk, "no stall"),
    ]
    page = as_admin.get(reverse("admin:games_report_change", args=[first.pk])).content.decode()
    assert reverse("admin:games_game_change", args=[game.pk]) in page
    assert reverse("admin:accounts_user_change", args=[bob.pk]) in page
    listing = as_admin.get(reverse("admin:games_report_changelist"), {"status__exact": "open"})
    assert list(listing.context["cl"].result_list) == []
    # each reporter hears once that a moderator looked: not the decision, not the note
    for reporter in (alice, carol):
        (notice,) = Notification.objects.filter(user=reporter, kind=Notification.Kind.REPORT)
        assert notice.text == (
            f"A moderator reviewed your report about {bob.name}. Thank you for telling us."
        )
        assert notice.url == reverse("games:table", args=[game.pk])
    assert not Notification.objects.filter(user=bob, kind=Notification.Kind.REPORT).exists()


def test_a_reports_own_page_resolves_it_and_the_list_shows_what_was_written(
    as_admin, started, trio
):
    """Actions were only on the list (ticked, then chosen), and the list did not show the
    report's text (admin review)."""
    alice, _bob, _carol = trio
    game = started(GAME)
    report = services.report_create(alice, game.pk, "bob", "abuse", "He called me names")
    page = reverse("admin:games_report_change", args=[report.pk])
    changelist = reverse("admin:games_report_changelist")

    shown = as_admin.get(page).content.decode()
    assert f'action="{changelist}"' in shown and ">Resolve…<" in shown and ">Dismiss…<" in shown
    from_page = {
        "action": "resolve_reports",
        ACTION_CHECKBOX_NAME: [report.pk],
        "_from_object": report.pk,
    }
    asked = as_admin.post(changelist, from_page)
    assert asked.status_code == 200 and 'name="reason"' in asked.content.decode()
    assert f'name="_from_object" value="{report.pk}"' in asked.content.decode()
    done = as_admin.post(changelist, {**from_page, "apply": "yes", "reason": "warned"})
    assert Report.objects.get(pk=report.pk).status == "resolved"
    assert done.status_code == 302 and done["Location"] == page  # back on the report
    assert ">Resolve…<" not in as_admin.get(page).content.decode()  # nothing left to do
    assert "He called me names" in as_admin.get(changelist).content.decode()


def test_a_report_closed_by_mistake_is_reopened_with_a_log_row(as_admin, started, trio):
    """A closed report could not be opened again but in the database (moderation review)."""
    alice, _bob, _carol = trio
    game = started(GAME)
    report = services.report_create(alice, game.pk, "bob", "abuse", "rude")
    post_action(as_admin, "report", "dismiss_reports", [report], apply="yes", reason="misread")
    assert Report.objects.get(pk=report.pk).status == "dismissed"

    asked = post_action(as_admin, "report", "reopen_reports", [report])
    assert 'name="reason"' in asked.content.decode()
    post_action(as_admin, "report", "reopen_reports", [report], apply="yes", reason="look again")

    report.refresh_from_db()
    assert (report.status, report.resolved_by, report.resolution) == ("open", None, "")
    assert logs()[-1] == ("root", "report_reopened", "bob", game.pk, "look again")
    post_action(as_admin, "report", "reopen_reports", [report], apply="yes", reason="twice")
    assert [row[1] for row in logs()].count("report_reopened") == 1  # open already: refused


def test_staff_without_the_event_permission_cannot_tell_who_answered_a_secret_window(
    started, make_user
):
    """In Imperador's show of hands the answers are secret until everyone has given one. Staff
    who may not read hidden information see the game page (and the list) exactly as before a
    player answered: the seats asked, not the ones still owing; the public version, not the
    total that counts secret answers."""
    game = started("imperador")
    users = seat_users(game)
    waiting = to_the_show_of_hands(game)
    engine = registry.get("imperador")
    staff = make_user("helper", is_staff=True)
    staff.user_permissions.add(
        Permission.objects.get(codename="view_game"), Permission.objects.get(codename="view_seat")
    )
    client = Client()
    client.force_login(staff)

    def pages() -> list[str]:
        urls = [
            reverse("admin:games_game_change", args=[game.pk]),
            reverse("admin:games_game_changelist"),
        ]
        return [
            re.sub(r'csrfmiddlewaretoken" value="[^"]*"', "", client.get(u).content.decode())
            for u in urls
        ]

    before = pages()
    answering = waiting.seats[0]
    services.act(
        users[answering], game.pk, game.version_for(answering), {"type": "hand", "choice": "down"}
    )
    game.refresh_from_db()
    assert answering not in engine.waiting_for(game.state).seats  # it did answer
    assert game.version > game.version_for(None)  # ... in secret
    after = pages()
    for old, new in zip(before, after, strict=True):
        assert old == new, "\n".join(
            difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="")
        )


def test_staff_cannot_question_the_hidden_state_through_the_lists_url_filters(started, make_user):
    """Django's changelist filters on any column named in the URL; a count of 1 or 0 results
    answered yes/no questions about the seed, the state's hidden cards and the wait. Only the
    page's own filters (and the links between admin pages) may be used."""
    game, _hidden = _played_once(started)
    staff = make_user("helper", is_staff=True)
    staff.user_permissions.add(
        Permission.objects.get(codename="view_game"),
        Permission.objects.get(codename="view_seat"),
        Permission.objects.get(codename="view_report"),
    )
    client = Client()
    client.force_login(staff)
    games = reverse("admin:games_game_changelist")
    key = next(iter(game.state))
    for truth, lie in (
        ({"seed": game.seed}, {"seed": game.seed + 1}),
        ({"state__has_key": key}, {"state__has_key": "no-such-key"}),
        ({"version": game.version}, {"version": game.version + 1}),
        ({"wait_mask": game.wait_mask}, {"wait_mask": game.wait_mask + 1}),
        ({"seats__user__username": "alice"}, {"seats__user__username": "nobody"}),
    ):
        right = client.get(games, {"id": game.pk, **truth})
        wrong = client.get(games, {"id": game.pk, **lie})
        assert right.status_code == wrong.status_code == 400, truth

    # what the pages offer still works: their filters, the date drill-down, the links
    offered = [
        (games, {"status__exact": "active", "engine__exact": GAME, "id": game.pk}),
        (games, {"created_at__year": game.created_at.year}),
        (reverse("admin:games_seat_changelist"), {"game__id__exact": game.pk}),
        (reverse("admin:games_seat_changelist"), {"game__status__exact": "active"}),
        (reverse("admin:games_report_changelist"), {"reported__id__exact": staff.pk}),
    ]
    for url, params in offered:
        response = client.get(url, params)
        assert response.status_code == 200, (url, params)
    listed = client.get(games, {"status__exact": "active", "id": game.pk})
    assert list(listed.context["cl"].result_list) == [game]


@pytest.mark.django_db(transaction=True)
def test_a_moderator_hides_a_reported_line_and_closes_the_report_outside_a_test_transaction(
    started, trio, make_user
):
    """The admin's requests run without a surrounding transaction (no ATOMIC_REQUESTS): a
    report's resolve and dismiss lock its row, and ended in "select_for_update cannot be used
    outside of a transaction" (a 500) once the reopen service took their decorator. The other
    tests run inside the test's transaction, which hid it."""
    from accounts.moderators import make_moderator
    from games.services import chat

    alice, bob, carol = trio
    game = started(GAME)
    line = chat.post(alice, game.pk, "you cheat, idiot")
    report = chat.report(bob, game.pk, line.seq)
    other = services.report_create(carol, game.pk, "alice", "abuse", "rude too")
    moderator = make_user("moddy")
    make_moderator(moderator)
    client = Client()
    client.force_login(moderator)

    hidden = post_action(
        client, "chatmessage", "hide_messages", [line], apply="yes", reason="abuse"
    )
    assert hidden.status_code == 302
    changelist = reverse("admin:games_report_changelist")
    done = client.post(
        changelist,
        {
            "action": "resolve_reports",
            ACTION_CHECKBOX_NAME: [report.pk],
            "_from_object": report.pk,
            "apply": "yes",
            "reason": "line hidden",
        },
    )
    dismissed = post_action(client, "report", "dismiss_reports", [other], apply="yes", reason="dup")

    assert done.status_code == 302
    assert done["Location"] == reverse("admin:games_report_change", args=[report.pk])
    assert dismissed.status_code == 302
    report.refresh_from_db()
    assert (report.status, report.resolved_by, report.resolution) == (
        "resolved",
        moderator,
        "line hidden",
    )
    assert Report.objects.get(pk=other.pk).status == "dismissed"
    assert logs() == [
        ("moddy", "chat_hide", "alice", game.pk, "abuse"),
        ("moddy", "report_resolved", "alice", game.pk, "line hidden"),
        ("moddy", "report_dismissed", "alice", game.pk, "dup"),
    ]


def test_a_moderator_cannot_close_a_report_about_themselves(trio, make_user):
    """A moderator who plays was reported by an opponent, and dismissed it himself: the
    reporter was told a moderator had looked (a moderation review)."""
    from accounts.moderators import make_moderator
    from accounts.services import friendship_create

    _alice, bob, _carol = trio
    moderator = make_user("moddy")
    make_moderator(moderator)
    friendship_create(moderator, bob)
    game = services.game_create(moderator, engine=GAME, seats=3, invite=["bob"])
    services.game_join(bob, game.pk)
    about_him = services.report_create(bob, game.pk, "moddy", "abuse", "he insulted me")
    client = Client()
    client.force_login(moderator)

    answer = post_action(
        client, "report", "dismiss_reports", [about_him], apply="yes", reason="nonsense"
    )

    assert answer.status_code == 302
    told = [str(m) for m in client.get(answer["Location"]).context["messages"]]
    assert told == [f"{about_him}: A report about you is for another moderator to close."]
    assert Report.objects.get(pk=about_him.pk).status == "open"
    assert logs() == []
    assert not Notification.objects.filter(user=bob, kind=Notification.Kind.REPORT).exists()


def test_a_moderator_cannot_stop_time_out_or_hand_over_a_table_he_plays_at(trio, make_user):
    """A moderator who plays forced the deadline of his own game (the bot moved for his
    opponent), could abort it when losing, or hand an opponent's seat to the bot: his own
    tables are for another moderator, as a report about himself is."""
    from accounts.moderators import make_moderator
    from accounts.services import friendship_create

    _alice, bob, _carol = trio
    moderator, other = make_user("moddy"), make_user("other_mod")
    make_moderator(moderator)
    make_moderator(other)
    friendship_create(moderator, bob)
    game = services.game_create(moderator, engine=GAME, seats=3, invite=["bob"])
    services.game_join(bob, game.pk)
    services.game_start(moderator, game.pk, fill_with_bots=True)
    game.refresh_from_db()
    before = snapshot(game)
    client = Client()
    client.force_login(moderator)
    bobs_seat = Seat.objects.get(game=game, user=bob)

    refused = "A table you play at is for another moderator to act on."
    for model, name, target in (
        ("game", "force_deadlines", game),
        ("game", "abort_games", game),
        ("seat", "replace_by_bot", bobs_seat),
    ):
        answer = post_action(client, model, name, [target], apply="yes", reason="mine")
        assert answer.status_code == 302
        told = [str(m) for m in client.get(answer["Location"]).context["messages"]]
        assert told == [f"{target}: {refused}"], (name, told)
    assert snapshot(game) == before
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    assert logs() == []
    # another moderator may
    as_other = Client()
    as_other.force_login(other)
    post_action(as_other, "game", "force_deadlines", [game], apply="yes", reason="stalling")
    assert Game.objects.get(pk=game.pk).version > before["version"]
