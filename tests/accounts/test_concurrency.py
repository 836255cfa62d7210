"""Two players asking each other at the same moment end up friends, never with two requests;
two saving the same display name at once: one keeps it, the other is told it is taken."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from accounts import selectors, services
from accounts.models import EmailPreference, FriendRequest, Friendship, User
from tests.lock_waits import until_queued


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_simultaneous_mutual_requests(alice, bob, attempt):
    barrier = threading.Barrier(2)
    outcomes, errors = [], []

    def ask(sender, recipient):
        try:
            barrier.wait(timeout=10)
            outcomes.append(services.friend_request_send(sender, recipient)[0])
        except Exception as error:  # collected and asserted below
            errors.append(error)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=ask, args=(alice, bob)),
        threading.Thread(target=ask, args=(bob, alice)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert errors == []
    assert sorted(outcome.value for outcome in outcomes) == ["became_friends", "sent"]
    assert selectors.are_friends(alice, bob)
    assert Friendship.objects.count() == 1
    assert not FriendRequest.objects.filter(status=FriendRequest.Status.PENDING).exists()


@pytest.mark.django_db(transaction=True)
def test_two_players_saving_the_same_display_name_at_once_one_is_told_it_is_taken(alice, bob):
    """Alice's save of "Zed" is not committed when Bob's profile form is checked (the name is
    free for it); Bob's save then waits for Alice's, and the database's constraint refuses it.
    Bob sees his form again with the name taken, not a server error."""
    held, release = threading.Event(), threading.Event()

    def alice_saves() -> None:
        try:
            with transaction.atomic():
                services.profile_update(alice, display_name="Zed")
                held.set()
                assert release.wait(10)
        finally:
            connection.close()

    answers = []

    def bob_saves() -> None:
        try:
            client = Client()
            client.force_login(bob)
            form = {
                "display_name": "zed",
                "avatar_colour": "#8e44ad",
                "language": "en",
                "time_zone": "UTC",
                "email_preference": EmailPreference.EACH,
            }
            answers.append(client.post(reverse("profile"), form))
        finally:
            connection.close()

    first = threading.Thread(target=alice_saves)
    first.start()
    assert held.wait(10)
    second = threading.Thread(target=bob_saves)
    second.start()
    until_queued()  # Bob's save waits for Alice's name
    release.set()
    first.join(30)
    second.join(30)

    (answer,) = answers
    assert answer.status_code == 200
    assert answer.context["form"].errors["display_name"] == [
        "Another player already goes by that name, or one that looks the same."
    ]
    assert User.objects.get(pk=alice.pk).display_name == "Zed"
    assert User.objects.get(pk=bob.pk).display_name == ""
