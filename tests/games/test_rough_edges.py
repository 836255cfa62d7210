"""The rough edges a newcomer hit (issue 16), each driven through the Django test client."""

from __future__ import annotations

import json
import re
from html import unescape
from importlib import import_module
from urllib.parse import quote

import pytest
from django.conf import settings
from django.template import loader
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import Notification
from accounts.services import friendship_create, user_block
from games import selectors, services
from games.engines import registry
from games.errors import GameError, NotActive, NotAllowed
from games.models import Event, Game, Invitation, Seat
from tests.games.helpers import form_fields, seat_users, strip_tokens

PASSWORD = "a-long-test-password"


def log_in(client: Client, login: str, next_url: str | None = None, follow: bool = False):
    url = reverse("account_login") + (f"?next={next_url}" if next_url else "")
    data = {"login": login, "password": PASSWORD}
    if next_url:
        data["next"] = next_url
    return client.post(url, data, follow=follow)


# --- 1. after logging in: My games, or the table the login interrupted -----------------------


def test_logging_in_lands_on_my_games_not_the_marketing_page(alice):
    response = log_in(Client(), "alice")

    assert response.status_code == 302
    assert response["Location"] == reverse("games:my_games")


def test_a_logged_out_visitor_opening_a_table_returns_to_it_after_logging_in(trio):
    alice, _bob, _carol = trio
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=3, invite=["bob"])
    table = reverse("games:table", args=[game.pk])
    client = Client()

    bounced = client.get(table)
    assert bounced.status_code == 302
    login_url = bounced["Location"]
    assert login_url.startswith(reverse("account_login"))
    page = client.get(login_url)
    assert f'name="next" value="{table}"' in page.content.decode()

    response = client.post(
        login_url, {"login": "bob", "password": PASSWORD, "next": table}, follow=True
    )
    assert response.redirect_chain[-1][0] == table
    assert response.status_code == 200
    assert f"#{game.pk}" in response.content.decode()


# --- 6. a favicon: linked from every page, and /favicon.ico answered ------------------------


def _fetch_static(client: Client, url: str):
    response = client.get(url)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response, body


def test_every_page_links_our_svg_favicon_and_favicon_ico_leads_to_it(alice):
    client = Client()
    client.force_login(alice)
    pages = [(client, reverse("home")), (client, reverse("games:my_games"))]
    for client, page in [*pages, (Client(), reverse("account_login"))]:
        html = client.get(page).content.decode()
        found = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', html)
        assert found, page
        icon, body = _fetch_static(client, found.group(1))
        assert icon.status_code == 200 and body.lstrip().startswith(b"<svg")

    redirect = Client().get("/favicon.ico")
    assert redirect.status_code in (301, 302)
    icon, body = _fetch_static(Client(), redirect["Location"])
    assert icon.status_code == 200
    assert icon["Content-Type"].startswith("image/svg+xml")
    assert b"<svg" in body


# --- 8. the vacation page is linked from the profile menu -----------------------------------


def test_the_profile_menu_links_the_vacation_page(alice):
    client = Client()
    client.force_login(alice)
    html = client.get(reverse("games:my_games")).content.decode()

    menu = re.search(r'<details class="account-menu">.*?</details>', html, re.S)
    assert menu and f'href="{reverse("games:vacation")}"' in menu.group(0)
    assert client.get(reverse("games:vacation")).status_code == 200


# --- 7. friendly 404 and 500 pages in every language ----------------------------------------


def _in(language: str) -> Client:
    client = Client(raise_request_exception=False)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.mark.parametrize(
    ("language", "title", "direction"),
    [("en", "Page not found", "ltr"), ("fa", "صفحه پیدا نشد", "rtl")],
)
@pytest.mark.django_db
def test_a_missing_page_is_a_friendly_404_in_the_visitors_language(language, title, direction):
    response = _in(language).get("/games/no-such-thing/here/")

    assert response.status_code == 404
    html = response.content.decode()
    assert f"<h1>{title}</h1>" in html
    assert f'dir="{direction}"' in html
    assert 'class="site-header"' in html  # the site's own page, with its way back


@pytest.mark.parametrize(
    ("language", "title", "direction"),
    [("en", "Something went wrong", "ltr"), ("fa", "مشکلی پیش آمد", "rtl")],
)
@pytest.mark.urls("tests.games.error_urls")
@pytest.mark.django_db
def test_a_crash_is_a_friendly_500_in_the_visitors_language(language, title, direction):
    assert settings.DEBUG is False
    response = _in(language).get("/boom/")

    assert response.status_code == 500
    html = response.content.decode()
    assert f"<h1>{title}</h1>" in html
    assert f'dir="{direction}"' in html and f'lang="{language}"' in html
    assert "a bug, on purpose" not in html


def test_the_500_page_renders_without_a_database_or_a_request(django_db_blocker):
    with django_db_blocker.block(), translation.override("fa"):
        html = loader.get_template("500.html").render()  # as Django's server_error does

    assert "<h1>مشکلی پیش آمد</h1>" in html
    assert 'dir="rtl"' in html


# --- 4. Cancel asks first (a second POST step, which works without JavaScript) --------------


def test_cancel_asks_for_confirmation_before_it_cancels(trio):
    alice, _bob, _carol = trio
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=3, invite=["bob"])
    client = Client()
    client.force_login(alice)
    cancel = reverse("games:command", args=[game.pk, "cancel"])

    table = client.get(reverse("games:table", args=[game.pk])).content.decode()
    # with JavaScript: confirm() first
    assert re.search(rf'<form [^>]*action="{cancel}"[^>]* data-confirm="', table)

    asked = client.post(cancel)
    game.refresh_from_db()
    assert asked.status_code == 200 and game.status == Game.Status.LOBBY
    html = asked.content.decode()
    assert f'action="{cancel}"' in html and 'name="confirmed" value="1"' in html
    assert f'href="{reverse("games:table", args=[game.pk])}"' in html  # "keep the table"

    done = client.post(cancel, {"confirmed": "1"})
    game.refresh_from_db()
    assert done.status_code == 302 and game.status == Game.Status.ABORTED


def test_a_command_url_opened_by_get_goes_back_to_its_table(trio):
    alice, _bob, _carol = trio
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=3)
    client = Client()
    client.force_login(alice)

    response = client.get(reverse("games:command", args=[game.pk, "cancel"]))
    game.refresh_from_db()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[game.pk])
    assert game.status == Game.Status.LOBBY


# --- 2. invitation rows tell tables apart; the live list follows who answered ----------------


def _invitation_rows(html: str) -> list[str]:
    section = re.search(r'<section aria-labelledby="inv-h">.*?</section>', html, re.S)
    assert section, "no invitations listed"
    return re.findall(r"<li>.*?</li>", section.group(0), re.S)


def test_invitation_rows_show_table_pace_seats_bots_and_every_invitees_answer(trio, make_user):
    alice, bob, carol = trio
    dave = make_user("dave")
    friendship_create(alice, dave)
    first = services.game_create(
        alice, engine="cockroach-poker-royal", seats=5, bots=1, invite=["bob", "carol", "dave"]
    )
    second = services.game_create(
        alice, engine="cockroach-poker-royal", seats=3, pace="fast", invite=["carol"]
    )
    services.game_join(bob, first.pk)
    services.invitation_decline(dave, first.pk)
    client = Client()
    client.force_login(carol)

    rows = _invitation_rows(client.get(reverse("games:my_games")).content.decode())

    assert len(rows) == 2 and rows[0] != rows[1]
    newer, older = rows  # newest first or not: find each by its number
    if f"#{first.pk}" in newer:
        newer, older = older, newer
    assert f"#{first.pk}<" in older and f"#{second.pk}<" in newer
    assert "Daily: 24 hours a move" in older and "Fast: 1 hour a move" in newer
    assert "3 of 5 seats taken." in older and "1 of 3 seats taken." in newer
    assert "1 bot" in older and 'class="bots"' not in newer
    assert 'data-status="accepted">bob (accepted)' in older
    assert 'data-status="pending">carol (pending)' in older
    assert 'data-status="declined">dave (declined)' in older
    # the markup the forms and scripts rely on is still there
    assert f'action="{reverse("games:command", args=[first.pk, "join"])}"' in older
    assert f'action="{reverse("games:command", args=[first.pk, "decline"])}"' in older

    # the live list (the per-player socket's fragment) shows the same, and its stamp moves
    # when another invitee answers
    stamp = selectors.lists_stamp(carol)
    part = client.get(reverse("games:my_games") + "?part=lists").content.decode()
    assert [strip_tokens(r) for r in _invitation_rows(part)] == [strip_tokens(r) for r in rows]
    services.game_invite(alice, second.pk, ["bob"])
    invited = selectors.lists_stamp(carol)
    assert invited != stamp
    services.game_join(bob, second.pk)
    assert selectors.lists_stamp(carol) != invited
    part = client.get(reverse("games:my_games") + "?part=lists").content.decode()
    # the page's stamp (from the invitations it read) is the one the socket sends
    assert f'data-stamp="{selectors.lists_stamp(carol)}"' in part
    assert any('data-status="accepted">bob (accepted)' in row for row in _invitation_rows(part))


# --- 3. before the start: the creator invites more, a joined player leaves -------------------


def test_the_creator_invites_more_friends_from_the_table_before_the_start(trio, make_user):
    alice, _bob, carol = trio
    dave = make_user("dave")
    friendship_create(alice, dave)
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=4, invite=["bob"])
    client = Client()
    client.force_login(alice)
    invite = reverse("games:command", args=[game.pk, "invite"])
    revision = Game.objects.get(pk=game.pk).revision

    page = client.get(reverse("games:table", args=[game.pk])).content.decode()
    form = re.search(
        rf'<form class="invite-more" method="post" action="{invite}">.*?</form>', page, re.S
    )
    assert form, "no invite form for the creator"
    offered = set(re.findall(r'name="invite" value="([^"]+)"', form.group(0)))
    assert offered == {"carol", "dave"}  # bob has an open invitation already

    response = client.post(invite, {"invite": ["carol"]}, follow=True)
    assert "Invitations sent." in response.content.decode()
    assert Invitation.objects.get(game=game, to_user=carol).status == Invitation.Status.PENDING
    assert Notification.objects.filter(user=carol, kind=Notification.Kind.INVITATION).exists()
    assert Game.objects.get(pk=game.pk).revision > revision  # a GameChange: sockets hear it
    assert any(f"#{game.pk}" in row for row in _rows_for(carol))


def _rows_for(user) -> list[str]:
    client = Client()
    client.force_login(user)
    return _invitation_rows(client.get(reverse("games:my_games")).content.decode())


def test_inviting_more_gives_clear_errors_in_the_wrong_state(trio, make_user):
    alice, bob, carol = trio
    dave, erin = make_user("dave"), make_user("erin")
    friendship_create(alice, dave)
    friendship_create(alice, erin)
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=3, invite=["bob"])
    services.game_join(bob, game.pk)

    with pytest.raises(NotAllowed, match="Only the table's creator"):
        services.game_invite(bob, game.pk, ["carol"])
    with pytest.raises(GameError, match="bob already has a seat"):
        services.game_invite(alice, game.pk, ["bob"])
    user_block(carol, alice)
    with pytest.raises(GameError, match="only invite friends"):
        services.game_invite(alice, game.pk, ["carol"])
    with pytest.raises(GameError, match="Choose at least one friend"):
        services.game_invite(alice, game.pk, [""])
    with pytest.raises(GameError, match="More invitations than free seats"):
        services.game_invite(alice, game.pk, ["dave", "erin"])
    services.game_invite(alice, game.pk, ["dave"])
    services.game_join(dave, game.pk)
    with pytest.raises(GameError, match="This table is full"):
        services.game_invite(alice, game.pk, ["erin"])
    services.game_start(alice, game.pk)
    with pytest.raises(NotActive, match="already started"):
        services.game_invite(alice, game.pk, ["erin"])
    assert not Invitation.objects.filter(game=game, to_user__in=[carol, erin]).exists()


def test_a_joined_player_leaves_before_the_start_and_the_seat_frees(trio):
    alice, bob, carol = trio
    game = services.game_create(
        alice, engine="cockroach-poker-royal", seats=3, invite=["bob", "carol"]
    )
    services.game_join(bob, game.pk)
    services.game_join(carol, game.pk)
    client = Client()
    client.force_login(bob)
    leave = reverse("games:command", args=[game.pk, "leave"])
    page = client.get(reverse("games:table", args=[game.pk])).content.decode()
    assert f'action="{leave}"' in page
    revision = Game.objects.get(pk=game.pk).revision

    response = client.post(leave)

    assert response.status_code == 302 and response["Location"] == reverse("games:my_games")
    assert not Seat.objects.filter(game=game, user=bob).exists()
    assert Invitation.objects.get(game=game, to_user=bob).status == Invitation.Status.DECLINED
    assert Game.objects.get(pk=game.pk).revision > revision
    creator_page = Client()
    creator_page.force_login(alice)
    html = creator_page.get(reverse("games:table", args=[game.pk])).content.decode()
    assert "2 of 3 seats taken." in html and 'data-status="declined">bob (declined)' in html
    # the freed seat can be offered again, and taken
    services.game_invite(alice, game.pk, ["bob"])
    services.game_join(bob, game.pk)
    assert Seat.objects.filter(game=game).count() == 3


def test_leaving_gives_clear_errors_in_the_wrong_state(trio):
    alice, bob, carol = trio
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=3, invite=["bob"])
    with pytest.raises(NotAllowed, match="not playing at this table"):
        services.game_leave(carol, game.pk)
    with pytest.raises(NotAllowed, match="not playing at this table"):
        services.game_leave(bob, game.pk)  # invited, not seated: decline instead
    with pytest.raises(GameError, match="cancel it instead"):
        services.game_leave(alice, game.pk)
    services.game_join(bob, game.pk)
    services.game_start(alice, game.pk)
    with pytest.raises(NotActive, match="already started"):
        services.game_leave(bob, game.pk)
    assert Seat.objects.filter(game=game, user=bob).exists()


# --- 5. a move posted with an expired session is kept across the login -----------------------


def _chosen(html: str) -> dict[str, str]:
    """The move form's fields the page shows chosen (checked radios, selected options)."""
    chosen = {}
    for name, value in re.findall(
        r'<input type="radio" name="(f_\w+)" value="([^"]*)" required checked>', html
    ):
        chosen[name] = unescape(value)
    for select in re.findall(r'<select [^>]*name="(f_\w+)">(.*?)</select>', html, re.S):
        picked = re.search(r'<option value="([^"]*)" selected>', select[1])
        if picked:
            chosen[select[0]] = unescape(picked.group(1))
    return chosen


def _offer(game: Game) -> tuple[int, dict]:
    """The first player's opening offer (a form with card, player and claim to choose)."""
    engine = registry.get(game.engine)
    seat = engine.waiting_for(game.state).seats[0]
    action = next(a for a in engine.legal_actions(game.state, seat) if a["type"] == "offer")
    return seat, action


def test_a_move_posted_after_the_session_expired_comes_back_chosen_after_the_login(started):
    game = started("cockroach-poker-royal")
    seat, action = _offer(game)
    user = seat_users(game)[seat]
    table = reverse("games:table", args=[game.pk])
    # the page was loaded while logged in (the CSRF check stays on, as in a browser) ...
    expired = Client(enforce_csrf_checks=True)
    expired.force_login(user)
    page = expired.get(table).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    # ... then the session ran out while the player was choosing
    store = import_module(settings.SESSION_ENGINE).SessionStore
    store(expired.cookies[settings.SESSION_COOKIE_NAME].value).delete()

    posted = expired.post(
        reverse("games:act", args=[game.pk]),
        {
            **form_fields(action, game.version_for(seat), "k1"),
            "seat": str(seat),  # the form says whose seat chose it
            "csrfmiddlewaretoken": token,
        },
    )

    assert posted.status_code == 302
    assert posted["Location"] == reverse("account_login") + "?next=" + quote(table, safe="/")
    login_page = expired.get(posted["Location"]).content.decode()
    assert "Log in again to send your move" in login_page
    login_token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page).group(1)
    after = expired.post(
        posted["Location"],
        {
            "login": user.username,
            "password": PASSWORD,
            "next": table,
            "csrfmiddlewaretoken": login_token,
        },
        follow=True,
    )
    assert after.redirect_chain[-1][0] == table and after.status_code == 200
    html = after.content.decode()
    assert "Your move was not sent yet" in html
    chosen = {name: json.loads(value) for name, value in _chosen(html).items()}
    assert chosen == {f"f_{k}": v for k, v in action.items() if k != "type"}
    version = game.version
    game.refresh_from_db()
    assert game.version == version  # never sent by itself
    assert not Event.objects.filter(game=game, reason=Event.Reason.MOVE).exists()
    # kept once: the next visit is a plain table
    again = expired.get(table).content.decode()
    assert "Your move was not sent yet" not in again and _chosen(again) == {}


def test_a_kept_move_is_dropped_with_a_word_when_the_game_moved_on(started):
    game = started("cockroach-poker-royal")
    seat, action = _offer(game)
    user = seat_users(game)[seat]
    table = reverse("games:table", args=[game.pk])
    expired = Client()
    expired.post(
        reverse("games:act", args=[game.pk]),
        {**form_fields(action, game.version_for(seat), "k1"), "seat": str(seat)},
    )
    services.act(user, game.pk, game.version_for(seat), action)  # played from another device

    after = expired.post(
        reverse("account_login") + "?next=" + table,
        {"login": user.username, "password": PASSWORD, "next": table},
        follow=True,
    )
    html = after.content.decode()
    assert after.redirect_chain[-1][0] == table
    assert "The game moved on while you were logged out" in html
    assert _chosen(html) == {}


def test_a_move_url_opened_by_get_goes_back_to_its_table(started):
    game = started()
    client = Client()
    client.force_login(seat_users(game)[0])

    response = client.get(reverse("games:act", args=[game.pk]))

    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[game.pk])


@pytest.mark.parametrize("version", [None, "", "abc"])
def test_a_move_form_without_a_version_is_not_possible_not_stale(started, version):
    """A broken or forged move form (no version, or not a number) is refused as not possible,
    not as "the game moved on", which it did not; the game is unchanged."""
    game = started()
    seat, user = next(iter(seat_users(game).items()))
    action = registry.get(game.engine).legal_actions(game.state, seat)
    fields = form_fields(action[0], game.version_for(seat), "k1") if action else {}
    if version is None:
        fields.pop("version", None)
    else:
        fields["version"] = version
    client = Client()
    client.force_login(user)

    response = client.post(reverse("games:act", args=[game.pk]), fields, follow=True)

    text = response.content.decode()
    assert "That move is not possible now." in text
    assert "moved on since you loaded it" not in text
    assert Game.objects.get(pk=game.pk).version == game.version


def test_the_api_invites_more_and_leaves_before_the_start_with_clear_errors(trio, make_user):
    alice, bob, _carol = trio
    dave = make_user("dave")
    friendship_create(alice, dave)
    game = services.game_create(alice, engine="imperador", seats=4, invite=["bob"])
    services.game_join(bob, game.pk)
    creator, seated = Client(), Client()
    creator.force_login(alice)
    seated.force_login(bob)

    invited = creator.post(
        f"/api/games/{game.pk}/invite", {"invite": ["carol", "dave"]}, "application/json"
    )
    assert invited.status_code == 200, invited.content
    assert set(
        Invitation.objects.filter(game=game, status=Invitation.Status.PENDING).values_list(
            "to_user__username", flat=True
        )
    ) == {"carol", "dave"}
    refused = seated.post(f"/api/games/{game.pk}/invite", {"invite": ["dave"]}, "application/json")
    assert refused.status_code == 403 and refused.json()["error"]

    left = seated.post(f"/api/games/{game.pk}/leave")
    assert left.status_code == 204
    assert not Seat.objects.filter(game=game, user=bob).exists()
    creator_leaves = creator.post(f"/api/games/{game.pk}/leave")
    assert creator_leaves.status_code == 400
    assert creator_leaves.json()["code"] == "creator_leaves"
    stranger = Client()
    stranger.force_login(make_user("erin"))
    assert stranger.post(f"/api/games/{game.pk}/leave").status_code == 404
    assert Seat.objects.filter(game=game, user=alice).exists()


def test_the_start_button_speaks_of_bots_only_when_a_seat_is_empty(trio):
    alice, bob, carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])
    services.game_join(bob, game.pk)
    client = Client()
    client.force_login(alice)
    url = reverse("games:table", args=[game.pk])
    assert "Start (empty seats go to bots)" in client.get(url).content.decode()
    services.game_join(carol, game.pk)
    page = client.get(url).content.decode()
    assert "Start the game" in page and "empty seats go to bots" not in page
