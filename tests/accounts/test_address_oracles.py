"""Whether an address has an account, and whose it is, stays unsaid by the hourly limit on
friend requests: a request sent to an address neither counts towards it nor slips past it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import FriendRequest
from accounts.services import FRIEND_REQUESTS_PER_HOUR

pytestmark = pytest.mark.django_db

TOO_MANY = "You have sent many friend requests in the last hour. Try again later."


def send(client, who: str) -> list[str]:
    response = client.post(reverse("friend_request_send"), {"who": who}, follow=True)
    return [str(message) for message in response.context["messages"]]


@pytest.fixture
def as_alice(client, alice):
    client.force_login(alice)
    return client


def test_a_request_to_an_address_leaves_the_hourly_count_as_a_made_up_address_does(
    as_alice, alice, bob, make_user
):
    """One short of the limit, a request to bob's address used up the last one (a made-up
    address did not): the next request by name answered "too many" only if the address had an
    account, one address looked up an hour."""
    for k in range(FRIEND_REQUESTS_PER_HOUR - 1):
        assert send(as_alice, make_user(f"p{k}").username) == [f"Friend request sent to p{k}."]
    send(as_alice, "bob@example.com")
    assert FriendRequest.objects.filter(from_user=alice, to_user=bob).exists()  # bob has it

    assert send(as_alice, make_user("dora").username) == ["Friend request sent to dora."]


def test_asking_an_addresses_owner_by_name_is_held_to_the_hourly_limit_too(
    as_alice, alice, bob, make_user
):
    """At the limit, a request by name to the player an earlier request by address had reached
    went through ("Friend request sent to bob."), where any other name read "too many": the
    address's owner, named."""
    send(as_alice, "bob@example.com")
    for k in range(FRIEND_REQUESTS_PER_HOUR):
        send(as_alice, make_user(f"p{k}").username)
    assert send(as_alice, make_user("dora").username) == [TOO_MANY]

    assert send(as_alice, "bob") == [TOO_MANY]
    request = FriendRequest.objects.get(from_user=alice, to_user=bob)
    assert request.by_email  # as it was: still not listed as sent to bob


def test_the_senders_page_names_no_request_by_its_number(as_alice, alice, bob, make_user):
    """Requests are numbered across the site: the one to bob's address kept its number when
    alice then asked bob by name, so her page listed it below a later request by number (a
    fresh one's is the newest), and the gap in her own requests' numbers said an address had
    an account. Her page names a request by the player it went to."""
    send(as_alice, "bob@example.com")
    send(as_alice, make_user("dora").username)
    assert send(as_alice, "bob") == ["Friend request sent to bob."]

    page = as_alice.get(reverse("friends")).content.decode()
    for request in FriendRequest.objects.filter(from_user=alice):
        assert f"/requests/{request.pk}/" not in page
    cancel = reverse("friend_request_cancel", args=[bob.pk])
    assert f'action="{cancel}"' in page
    assert send_cancel(as_alice, cancel) == ["You cancelled your request to bob."]
    assert FriendRequest.objects.get(to_user=bob).status == FriendRequest.Status.CANCELLED


def send_cancel(client, url: str) -> list[str]:
    response = client.post(url, follow=True)
    return [str(message) for message in response.context["messages"]]
