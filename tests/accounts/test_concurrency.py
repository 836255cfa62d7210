"""Two players asking each other at the same moment end up friends, never with two requests."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from accounts import selectors, services
from accounts.models import FriendRequest, Friendship


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
