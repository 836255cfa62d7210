"""Blocking: it ends friendships and requests, stops new ones, and the blocked player never learns."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts import selectors, services
from accounts.models import Block, FriendRequest

pytestmark = pytest.mark.django_db

Status = FriendRequest.Status


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def send(client, who):
    return client.post(reverse("friend_request_send"), {"who": who}, follow=True)


def page_messages(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_blocking_a_friend_ends_the_friendship(alice, bob):
    services.friendship_create(alice, bob)

    response = client_for(alice).post(reverse("block", args=[bob.pk]), follow=True)

    assert page_messages(response) == [
        "You blocked bob. They can no longer send you requests or invitations."
    ]
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    assert selectors.has_blocked(alice, bob)
    assert not selectors.has_blocked(bob, alice)
    assert not selectors.are_friends(alice, bob)
    assert list(selectors.blocked_by(alice)) == [bob]
    assert "Blocked players" in response.content.decode()


@pytest.mark.parametrize("direction", ["incoming", "outgoing"])
def test_blocking_closes_pending_requests_both_ways(alice, bob, direction):
    sender, recipient = (bob, alice) if direction == "incoming" else (alice, bob)
    _outcome, request = services.friend_request_send(sender, recipient)

    client_for(alice).post(reverse("block", args=[bob.pk]))

    request.refresh_from_db()
    assert request.status == (Status.DECLINED if direction == "incoming" else Status.CANCELLED)
    assert not selectors.incoming_requests(alice).exists()
    assert not selectors.incoming_requests(bob).exists()
    assert not selectors.outgoing_requests(alice).exists()
    assert not selectors.outgoing_requests(bob).exists()


def test_blocking_leaves_other_friendships_alone(alice, bob, carol):
    services.friendship_create(alice, bob)
    services.friendship_create(alice, carol)
    services.friendship_create(bob, carol)

    services.user_block(alice, bob)

    assert list(selectors.friends_of(alice)) == [carol]
    assert list(selectors.friends_of(bob)) == [carol]


def test_a_blocked_player_is_told_the_same_as_anyone_else(alice, bob, carol):
    services.user_block(alice, bob)

    as_bob = send(client_for(bob), "alice")
    as_carol = send(client_for(carol), "alice")

    # Same words, same page, for the blocked bob and the unblocked carol.
    assert page_messages(as_bob) == ["Friend request sent to alice."]
    assert page_messages(as_carol) == ["Friend request sent to alice."]
    bob_request = FriendRequest.objects.get(from_user=bob)
    assert bob_request.status == Status.PENDING and bob_request.silenced
    assert "Requests you sent" in as_bob.content.decode()
    assert list(selectors.outgoing_requests(bob)) == [bob_request]
    assert selectors.relationship(bob, alice) == "outgoing"
    assert selectors.relationship(carol, alice) == "outgoing"


def test_the_blocker_never_sees_the_silenced_request(alice, bob):
    services.user_block(alice, bob)
    send(client_for(bob), "alice")
    request = FriendRequest.objects.get(from_user=bob)

    as_alice = client_for(alice)
    body = as_alice.get(reverse("friends")).content.decode()

    assert not selectors.incoming_requests(alice).exists()
    assert "Requests for you" not in body
    assert reverse("friend_request_accept", args=[request.pk]) not in body
    # Nor can she (or anyone) act on it by guessing its id.
    assert as_alice.post(reverse("friend_request_accept", args=[request.pk])).status_code == 404
    assert as_alice.post(reverse("friend_request_decline", args=[request.pk])).status_code == 404
    request.refresh_from_db()
    assert request.status == Status.PENDING
    assert not selectors.are_friends(alice, bob)


def test_a_blocked_player_repeating_the_request_hears_the_usual_duplicate_message(alice, bob):
    services.user_block(alice, bob)
    as_bob = client_for(bob)
    send(as_bob, "alice")

    response = send(as_bob, "alice")

    assert page_messages(response) == ["You have already sent alice a friend request."]
    assert FriendRequest.objects.filter(from_user=bob).count() == 1


def test_a_blocked_player_may_cancel_the_silenced_request(alice, bob):
    services.user_block(alice, bob)
    _outcome, request = services.friend_request_send(bob, alice)

    response = client_for(bob).post(reverse("friend_request_cancel", args=[alice.pk]), follow=True)

    assert page_messages(response) == ["You cancelled your request to alice."]
    request.refresh_from_db()
    assert request.status == Status.CANCELLED


def test_the_blocker_cannot_send_a_request_to_the_blocked(alice, bob, state):
    services.user_block(alice, bob)
    before = state()

    response = send(client_for(alice), "bob")

    assert page_messages(response) == ["You have blocked bob. Unblock them first."]
    assert state() == before


def test_the_blocked_players_search_looks_normal(alice, bob):
    services.user_block(alice, bob)

    response = client_for(bob).get(reverse("friends"), {"who": "alice"})

    assert response.context["found"]["relation"] == "none"
    body = response.content.decode()
    assert "Send friend request" in body
    assert "blocked" not in body.lower()


def test_unblock_cancels_requests_sent_while_blocked(alice, bob):
    services.user_block(alice, bob)
    _outcome, silenced = services.friend_request_send(bob, alice)

    response = client_for(alice).post(reverse("unblock", args=[bob.pk]), follow=True)

    assert page_messages(response) == ["You unblocked bob."]
    assert not Block.objects.exists()
    silenced.refresh_from_db()
    assert silenced.status == Status.CANCELLED
    assert not selectors.incoming_requests(alice).exists()
    # From now on bob's requests arrive as usual.
    outcome, request = services.friend_request_send(bob, alice)
    assert outcome is services.RequestOutcome.SENT
    assert not request.silenced
    assert list(selectors.incoming_requests(alice)) == [request]


def test_blocking_yourself_is_refused(alice, state):
    before = state()
    response = client_for(alice).post(reverse("block", args=[alice.pk]), follow=True)
    assert page_messages(response) == ["You cannot block yourself."]
    assert state() == before


def test_blocking_twice_is_refused(alice, bob, state):
    services.user_block(alice, bob)
    before = state()
    response = client_for(alice).post(reverse("block", args=[bob.pk]), follow=True)
    assert page_messages(response) == ["You have already blocked bob."]
    assert state() == before


def test_unblocking_someone_not_blocked_is_refused(alice, bob, state):
    services.user_block(bob, alice)  # the other way round: alice must not be able to undo it
    before = state()
    response = client_for(alice).post(reverse("unblock", args=[bob.pk]), follow=True)
    assert page_messages(response) == ["You have not blocked bob."]
    assert state() == before
    assert selectors.has_blocked(bob, alice)


def test_a_blocked_player_cannot_be_accepted_through_an_old_request(alice, bob, state):
    """Even a request object fetched before the block cannot be accepted afterwards."""
    _outcome, request = services.friend_request_send(bob, alice)
    services.user_block(alice, bob)
    before = state()

    with pytest.raises(services.FriendError) as error:
        services.friend_request_accept(alice, request)

    assert error.value.code == "not_pending"
    assert state() == before


def test_mutual_blocks(alice, bob):
    services.user_block(alice, bob)
    services.user_block(bob, alice)

    with pytest.raises(services.FriendError) as error:
        services.friend_request_send(bob, alice)
    assert error.value.code == "you_blocked"
    services.user_unblock(bob, alice)
    outcome, request = services.friend_request_send(bob, alice)
    assert outcome is services.RequestOutcome.SENT and request.silenced


def test_blocking_the_sender_reads_their_friend_request_notice(alice, bob):
    """The "bob sent you a friend request" notice stayed unread in alice's bell after she
    blocked bob (the request was gone; the notice still led to it)."""
    from accounts.models import Notification

    services.friend_request_send(bob, alice)
    notice = Notification.objects.get(user=alice, kind=Notification.Kind.FRIEND_REQUEST)
    assert notice.read_at is None and notice.url.endswith(
        f"#request-{FriendRequest.objects.get().pk}"
    )
    services.user_block(alice, bob)
    notice.refresh_from_db()
    assert notice.read_at is not None
