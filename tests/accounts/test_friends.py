"""Friend requests and friendships through the pages: every flow and every kind of bad input."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import selectors, services
from accounts.models import FriendRequest, Friendship, Notification
from tests.games.helpers import connect

pytestmark = pytest.mark.django_db

Status = FriendRequest.Status


def send(client, who):
    return client.post(reverse("friend_request_send"), {"who": who}, follow=True)


def page_messages(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


@pytest.fixture
def as_alice(client, alice):
    client.force_login(alice)
    return client


def other_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- sending ------------------------------------------------------------------------------


def test_send_request_by_username(as_alice, alice, bob):
    response = send(as_alice, "bob")

    assert page_messages(response) == ["Friend request sent to bob."]
    request = FriendRequest.objects.get()
    assert (request.from_user, request.to_user, request.status) == (alice, bob, Status.PENDING)
    assert not request.silenced
    assert list(selectors.outgoing_requests(alice)) == [request]
    bob_page = other_client(bob).get(reverse("friends")).content.decode()
    assert "Requests for you" in bob_page
    assert reverse("friend_request_accept", args=[request.pk]) in bob_page


def test_send_request_by_exact_email_any_case(as_alice, alice, bob):
    response = send(as_alice, "  BOB@Example.com ")

    assert page_messages(response) == [
        "If a player signed up with bob@example.com, they now have your friend request."
    ]
    assert FriendRequest.objects.filter(from_user=alice, to_user=bob).exists()


def test_an_address_nobody_uses_gets_the_same_answer_and_changes_nothing(as_alice, bob, state):
    def page(address: str) -> str:
        html = as_alice.get(reverse("friends"), {"who": address}).content.decode()
        html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
        return html.replace(address, "X").replace(address.replace("@", "%40"), "X")

    assert page("nobody@example.com") == page("bob@example.com")
    before = state()
    response = send(as_alice, "nobody@example.com")
    assert page_messages(response) == [
        "If a player signed up with nobody@example.com, they now have your friend request."
    ]
    assert state() == before


def test_a_request_sent_to_an_address_does_not_say_whose_it_is(as_alice, alice, bob, carol):
    """After sending to an address, the sender's own friends page listed the request under
    the owner's name: a lookup of who signed up with it. Now the page after a real address
    reads as after a made-up one; bob still gets the request; asking bob by name later shows
    it as sent, as a fresh request would."""

    def friends_page() -> str:
        html = as_alice.get(reverse("friends")).content.decode()
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)

    send(as_alice, "nobody@example.com")
    after_nobody = friends_page()
    send(as_alice, "bob@example.com")
    assert friends_page() == after_nobody
    assert selectors.relationship(alice, bob) == "none"
    assert list(selectors.incoming_requests(bob).values_list("from_user", flat=True)) == [alice.pk]
    assert send(as_alice, "bob@example.com").status_code == 200  # again: the same answer
    assert friends_page() == after_nobody

    # nor by a cancel naming bob: "You cancelled your request to bob." would say it
    hidden = FriendRequest.objects.get(from_user=alice, to_user=bob)
    assert as_alice.post(reverse("friend_request_cancel", args=[bob.pk])).status_code == 404
    assert FriendRequest.objects.get(pk=hidden.pk).status == Status.PENDING
    FriendRequest.objects.filter(pk=hidden.pk).update(created_at=timezone.now() - timedelta(days=2))

    response = send(as_alice, "bob")
    assert page_messages(response) == ["Friend request sent to bob."]
    assert timezone.now() - FriendRequest.objects.get(pk=hidden.pk).created_at < timedelta(
        minutes=1
    )  # as young as a fresh request: its age does not say it was the address's
    assert selectors.relationship(alice, bob) == "outgoing"
    assert FriendRequest.objects.filter(from_user=alice, to_user=bob).count() == 1
    assert bob.notifications.filter(kind="friend_request").count() == 1  # told once


def test_an_address_whose_owner_asked_first_makes_no_friendship(as_alice, alice, bob):
    """Bob asked alice first; alice sending to his address made them friends at once, so her
    friends list named the address's owner. Bob's request still waits for her answer."""
    services.friend_request_send(bob, alice)
    send(as_alice, "bob@example.com")
    assert not selectors.are_friends(alice, bob)
    assert selectors.relationship(alice, bob) == "incoming"


def test_looking_up_addresses_is_limited_to_ten_an_hour(as_alice, alice, bob):
    for k in range(10):
        send(as_alice, f"someone{k}@example.com")
    response = send(as_alice, "bob@example.com")
    assert page_messages(response) == ["Too many addresses looked up. Try again in an hour."]
    assert not FriendRequest.objects.filter(from_user=alice, to_user=bob).exists()


@pytest.mark.parametrize("who", ["nobody", "bo", "example.com", "b%", ""])
def test_unknown_player_is_a_field_error_and_changes_nothing(as_alice, bob, state, who):
    before = state()

    response = as_alice.post(reverse("friend_request_send"), {"who": who})

    assert response.status_code == 200
    form = response.context["find_form"]
    assert "who" in form.errors
    body = response.content.decode()
    assert 'aria-invalid="true"' in body
    assert 'aria-describedby="id_who_helptext id_who_error"' in body
    assert 'id="id_who_error"' in body
    assert state() == before


def test_banned_player_cannot_be_found(as_alice, bob, state):
    bob.is_active = False
    bob.save()
    before = state()

    response = as_alice.post(reverse("friend_request_send"), {"who": "bob"})

    assert "There is no player with that username or email." in response.content.decode()
    assert state() == before


def test_befriending_yourself_is_refused(as_alice, state):
    before = state()

    response = send(as_alice, "alice")

    assert page_messages(response) == ["You cannot send a friend request to yourself."]
    assert state() == before


def test_duplicate_request_is_refused(as_alice, bob, state):
    send(as_alice, "bob")
    before = state()

    response = send(as_alice, "bob")

    assert page_messages(response) == ["You have already sent bob a friend request."]
    assert state() == before
    # by address, nothing about the account behind it is told: the same neutral answer
    response = send(as_alice, "bob@example.com")
    assert page_messages(response) == [
        "If a player signed up with bob@example.com, they now have your friend request."
    ]
    assert state() == before


def test_request_to_a_friend_is_refused(as_alice, alice, bob, state):
    services.friendship_create(alice, bob)
    before = state()

    response = send(as_alice, "bob")

    assert page_messages(response) == ["You and bob are already friends."]
    assert state() == before


def test_asking_someone_who_already_asked_you_makes_you_friends(as_alice, alice, bob):
    services.friend_request_send(bob, alice)

    response = send(as_alice, "bob")

    assert page_messages(response) == ["bob had already asked you, so you are now friends."]
    assert selectors.are_friends(alice, bob)
    assert Friendship.objects.count() == 1
    request = FriendRequest.objects.get()
    assert (request.from_user, request.status) == (bob, Status.ACCEPTED)
    assert request.answered_at is not None
    assert _accepted_notices(bob) == ["alice accepted your friend request."]


# --- answering ----------------------------------------------------------------------------


@pytest.fixture
def bob_asked_alice(alice, bob):
    _outcome, request = services.friend_request_send(bob, alice)
    return request


def test_accept(as_alice, alice, bob, bob_asked_alice):
    url = reverse("friend_request_accept", args=[bob_asked_alice.pk])

    response = as_alice.post(url, follow=True)

    assert page_messages(response) == ["You and bob are now friends."]
    bob_asked_alice.refresh_from_db()
    assert bob_asked_alice.status == Status.ACCEPTED
    assert selectors.are_friends(alice, bob) and selectors.are_friends(bob, alice)
    assert list(selectors.friends_of(alice)) == [bob]
    assert list(selectors.friends_of(bob)) == [alice]
    assert not selectors.incoming_requests(alice).exists()
    assert '/games/new/?invite=bob"' in response.content.decode()
    # the one who asked hears the yes (social review, 2026-12-01)
    assert _accepted_notices(bob) == ["alice accepted your friend request."]


def _accepted_notices(user) -> list[str]:
    return list(
        Notification.objects.filter(user=user, text__contains="accepted your friend request")
        .order_by("pk")
        .values_list("text", flat=True)
    )


def test_accepting_twice_says_so_and_changes_nothing(as_alice, bob_asked_alice, state):
    url = reverse("friend_request_accept", args=[bob_asked_alice.pk])
    as_alice.post(url, follow=True)
    before = state()

    response = as_alice.post(url, follow=True)

    assert page_messages(response) == ["That friend request has already been answered."]
    assert state() == before


def test_decline(as_alice, alice, bob, bob_asked_alice):
    response = as_alice.post(
        reverse("friend_request_decline", args=[bob_asked_alice.pk]), follow=True
    )

    assert page_messages(response) == ["You declined the request from bob."]
    bob_asked_alice.refresh_from_db()
    assert bob_asked_alice.status == Status.DECLINED
    assert not selectors.are_friends(alice, bob)
    assert not Friendship.objects.exists()
    assert not Notification.objects.filter(user=bob).exists()  # a no is not told
    # Bob may ask again later.
    assert services.friend_request_send(bob, alice)[0] is services.RequestOutcome.SENT


def test_a_request_sent_again_soon_after_a_decline_is_listed_without_a_new_notice(alice, bob):
    def bells() -> int:
        return Notification.objects.filter(
            user=alice, kind=Notification.Kind.FRIEND_REQUEST
        ).count()

    _outcome, first = services.friend_request_send(bob, alice)
    services.friend_request_decline(alice, first)
    assert bells() == 1

    outcome, again = services.friend_request_send(bob, alice)

    assert outcome is services.RequestOutcome.SENT  # bob is told nothing of the decline
    assert list(selectors.incoming_requests(alice)) == [again]  # alice can still say yes
    assert bells() == 1
    # a month on, a request rings again
    services.friend_request_cancel(bob, again)
    FriendRequest.objects.filter(pk=first.pk).update(
        answered_at=timezone.now() - services.QUIET_AFTER_DECLINE - timedelta(minutes=1)
    )
    FriendRequest.objects.filter(pk=again.pk).delete()
    services.friend_request_send(bob, alice)
    assert bells() == 2


def test_cancel(alice, bob, bob_asked_alice):
    as_bob = other_client(bob)

    response = as_bob.post(reverse("friend_request_cancel", args=[alice.pk]), follow=True)

    assert page_messages(response) == ["You cancelled your request to alice."]
    bob_asked_alice.refresh_from_db()
    assert bob_asked_alice.status == Status.CANCELLED
    assert not selectors.incoming_requests(alice).exists()
    assert not selectors.outgoing_requests(bob).exists()
    assert not Friendship.objects.exists()


def test_cancelling_an_answered_request_changes_nothing(alice, bob, bob_asked_alice, state):
    services.friend_request_decline(alice, bob_asked_alice)
    before = state()

    response = other_client(bob).post(
        reverse("friend_request_cancel", args=[alice.pk]), follow=True
    )

    assert page_messages(response) == ["That friend request has already been answered."]
    assert state() == before


def test_remove_friend(as_alice, alice, bob):
    services.friendship_create(alice, bob)

    response = as_alice.post(reverse("friend_remove", args=[bob.pk]), follow=True)

    assert page_messages(response) == ["bob is no longer on your friends list."]
    assert not selectors.are_friends(alice, bob)
    assert not Friendship.objects.exists()


def test_removing_someone_who_is_not_a_friend_changes_nothing(as_alice, alice, bob, carol, state):
    services.friendship_create(alice, carol)
    before = state()

    response = as_alice.post(reverse("friend_remove", args=[bob.pk]), follow=True)

    assert page_messages(response) == ["You and bob are not friends."]
    assert state() == before


# --- permissions ----------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["accept", "decline", "cancel"])
def test_a_stranger_cannot_act_on_another_players_request(carol, bob_asked_alice, state, action):
    before = state()

    response = other_client(carol).post(
        reverse(f"friend_request_{action}", args=[bob_asked_alice.pk])
    )

    assert response.status_code == 404
    assert state() == before


def test_sender_cannot_accept_own_request_and_recipient_cannot_cancel_it(
    alice, bob, bob_asked_alice, state
):
    before = state()

    assert (
        other_client(bob)
        .post(reverse("friend_request_accept", args=[bob_asked_alice.pk]))
        .status_code
        == 404
    )
    assert (
        other_client(bob)
        .post(reverse("friend_request_decline", args=[bob_asked_alice.pk]))
        .status_code
        == 404
    )
    assert (
        other_client(alice).post(reverse("friend_request_cancel", args=[bob.pk])).status_code == 404
    )
    assert state() == before


def test_a_stranger_does_not_see_other_players_requests(alice, bob, carol, bob_asked_alice):
    body = other_client(carol).get(reverse("friends")).content.decode()

    assert "Requests for you" not in body
    assert "Requests you sent" not in body
    assert str(reverse("friend_request_accept", args=[bob_asked_alice.pk])) not in body
    assert not selectors.incoming_requests(carol).exists()


def test_unknown_ids_are_404(as_alice, state):
    before = state()
    for name in ["friend_request_accept", "friend_request_decline", "friend_request_cancel"]:
        assert as_alice.post(reverse(name, args=[987654])).status_code == 404
    for name in ["friend_remove", "block", "unblock"]:
        assert as_alice.post(reverse(name, args=[987654])).status_code == 404
    assert state() == before


@pytest.mark.parametrize(
    "name,args",
    [
        ("friend_request_send", []),
        ("friend_request_accept", [1]),
        ("friend_request_decline", [1]),
        ("friend_request_cancel", [1]),
        ("friend_remove", [1]),
        ("block", [1]),
        ("unblock", [1]),
        ("api_token_create", []),
        ("api_token_revoke", [1]),
    ],
)
def test_writes_are_post_only(as_alice, state, name, args):
    before = state()
    # opened by GET, a form's target leads to its page (tests/accounts/test_form_targets.py)
    assert as_alice.get(reverse(name, args=args)).status_code == 302
    assert as_alice.put(reverse(name, args=args)).status_code == 405
    assert state() == before


def test_writes_need_the_csrf_token(alice, bob, state):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    before = state()

    response = client.post(reverse("friend_request_send"), {"who": "bob"})

    assert response.status_code == 403
    assert state() == before


@pytest.mark.parametrize("name", ["friends", "profile"])
def test_pages_need_a_signed_in_player(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response.url.startswith(reverse("account_login"))


def test_anonymous_writes_change_nothing(client, bob_asked_alice, state):
    before = state()
    response = client.post(reverse("friend_request_accept", args=[bob_asked_alice.pk]))
    assert response.status_code == 302
    assert state() == before


# --- the page -------------------------------------------------------------------------------


def test_find_shows_the_player_and_the_request_button(as_alice, bob):
    response = as_alice.get(reverse("friends"), {"who": "bob"})

    assert response.context["found"]["player"] == bob
    assert response.context["found"]["relation"] == "none"
    body = response.content.decode()
    assert 'name="who" value="bob"' in body
    assert "Send friend request" in body


def test_find_unknown_player_shows_the_error_by_the_field(as_alice):
    response = as_alice.get(reverse("friends"), {"who": "nobody"})

    assert response.context["found"] is None
    body = response.content.decode()
    assert 'id="id_who_error"' in body
    assert "There is no player with that username or email." in body


def test_friends_list_shows_online_placeholder_and_invite_link(
    as_alice, alice, bob, carol, monkeypatch
):
    services.friendship_create(alice, bob)
    services.friendship_create(alice, carol)
    now = timezone.now()
    # carol's last request was six minutes ago, bob's one minute ago: each opens a page then
    for user, minutes in ((carol, 6), (bob, 1)):
        monkeypatch.setattr(timezone, "now", lambda m=minutes: now - timedelta(minutes=m))
        their_device = Client()
        their_device.force_login(user)
        assert their_device.get(reverse("games:my_games")).status_code == 200
    monkeypatch.setattr(timezone, "now", lambda: now)

    response = as_alice.get(reverse("friends"))

    friends = {friend.username: friend for friend in response.context["friends"]}
    assert friends["bob"].is_online
    assert not friends["carol"].is_online
    body = response.content.decode()
    assert body.count('<span aria-hidden="true">●</span> online') == 1
    assert body.count('<span aria-hidden="true">○</span> offline') == 1
    assert 'href="/games/new/?invite=bob"' in body
    assert 'href="/games/new/?invite=carol"' in body


@pytest.mark.django_db(transaction=True)  # the socket reads the database from its own thread
def test_a_friend_with_a_page_open_is_online_by_its_sockets_heartbeat(as_alice, alice, bob, carol):
    """bob made no request for hours, but a page of his is open: its own socket (/ws/me/)
    beats, and that alone shows him online; carol, with no socket, is offline."""
    services.friendship_create(alice, bob)
    services.friendship_create(alice, carol)
    hours_ago = timezone.now() - timedelta(hours=3)
    with mock.patch.object(timezone, "now", lambda: hours_ago):  # their last requests
        for user in (bob, carol):
            their_device = Client()
            their_device.force_login(user)
            assert their_device.get(reverse("games:my_games")).status_code == 200
    assert {u.last_seen_at for u in type(bob).objects.filter(pk__in=[bob.pk, carol.pk])} == {
        hours_ago
    }

    def online() -> dict[str, bool]:
        friends = as_alice.get(reverse("friends")).context["friends"]
        return {friend.username: friend.is_online for friend in friends}

    assert online() == {"bob": False, "carol": False}

    async def with_bobs_page_open() -> dict[str, bool]:
        socket, connected, _code = await connect(bob, "/ws/me/")
        assert connected
        await socket.receive_json_from(timeout=5)  # the lists' stamp
        await socket.send_json_to({"type": "heartbeat"})
        await socket.receive_json_from(timeout=5)  # answered: the beat was taken
        try:
            return await sync_to_async(online)()
        finally:
            await socket.disconnect()

    assert asyncio.run(with_bobs_page_open()) == {"bob": True, "carol": False}


def test_header_links_to_friends_and_profile(as_alice):
    body = as_alice.get(reverse("home")).content.decode()
    assert f'href="{reverse("friends")}"' in body
    assert f'href="{reverse("profile")}"' in body


def test_visiting_marks_the_player_as_seen(as_alice, alice):
    assert alice.last_seen_at is None
    as_alice.get(reverse("friends"))
    alice.refresh_from_db()
    assert alice.last_seen_at is not None
    assert alice.is_online
