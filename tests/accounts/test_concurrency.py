"""Two players asking each other at the same moment end up friends, never with two requests;
two saving the same display name at once: one keeps it, the other is told it is taken."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from accounts import push, selectors, services
from accounts.models import EmailPreference, FriendRequest, Friendship, PushSubscription, User
from tests.lock_waits import until_queued
from tests.push_endpoint import Browser


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


@pytest.mark.django_db(transaction=True)
def test_two_players_taking_one_browsers_subscription_at_once_both_finish(alice, bob, monkeypatch):
    """A browser shared by Alice and Bob: Alice subscribes it while it is Bob's (it moves to
    her, and his count of devices is redone), and Bob subscribes it again at the same moment.
    Alice's subscribing held her row and the subscription, then recounted Bob (his row); Bob's
    held his row, then waited for the subscription: each waited for the other (a deadlock, one
    of them lost). Both players' rows are now taken first, in id order: Bob's waits, then takes
    the browser back."""
    browser = Browser("https://1.1.1.1/push/shared")
    keys = browser.subscription()["keys"]
    push.subscribe(bob, browser.endpoint, keys["p256dh"], keys["auth"])
    moved, go = threading.Event(), threading.Event()
    real = push._recount

    def recount(user_id: int) -> None:
        if threading.current_thread().name == "alice":  # the subscription is hers, not committed
            moved.set()
            assert go.wait(10)
        real(user_id)

    monkeypatch.setattr(push, "_recount", recount)
    outcomes: dict[str, object] = {}

    def subscribe(name: str, user: User) -> None:
        try:
            outcomes[name] = push.subscribe(user, browser.endpoint, keys["p256dh"], keys["auth"])
        except Exception as error:  # collected and asserted below
            outcomes[name] = error
        finally:
            connection.close()

    hers = threading.Thread(target=subscribe, args=("alice", alice), name="alice")
    hers.start()
    assert moved.wait(10)
    his = threading.Thread(target=subscribe, args=("bob", bob), name="bob")
    his.start()
    until_queued(his)  # Bob's subscribing waits for Alice's
    go.set()
    hers.join(30)
    his.join(30)

    assert {name: type(outcome) for name, outcome in outcomes.items()} == {
        "alice": PushSubscription,
        "bob": PushSubscription,
    }
    assert PushSubscription.objects.get(endpoint=browser.endpoint).user_id == bob.pk
    assert User.objects.get(pk=alice.pk).push_devices == 0
    assert User.objects.get(pk=bob.pk).push_devices == 1


@pytest.mark.django_db(transaction=True)
def test_a_browser_subscribing_again_as_another_tab_signs_out_both_finish(alice, monkeypatch):
    """Alice signs out in one tab (her browser's subscription is deleted, then her count of
    devices redone) as another tab of the same browser subscribes again. The sign-out held
    the subscription, then waited for her row; the subscribing held her row, then waited for
    the subscription (a deadlock). The sign-out now takes her row first, as subscribing does."""
    browser = Browser("https://1.1.1.1/push/tabs")
    keys = browser.subscription()["keys"]
    push.subscribe(alice, browser.endpoint, keys["p256dh"], keys["auth"])
    deleted, go = threading.Event(), threading.Event()
    real = push._recount

    def recount(user_id: int) -> None:
        if threading.current_thread().name == "out":  # the subscription deleted, not committed
            deleted.set()
            assert go.wait(10)
        real(user_id)

    monkeypatch.setattr(push, "_recount", recount)
    outcomes: dict[str, object] = {}

    def run(name: str, work) -> None:
        try:
            outcomes[name] = work()
        except Exception as error:  # collected and asserted below
            outcomes[name] = error
        finally:
            connection.close()

    out = threading.Thread(
        target=run, args=("out", lambda: push.unsubscribe(alice, browser.endpoint)), name="out"
    )
    out.start()
    assert deleted.wait(10)
    again = threading.Thread(
        target=run,
        args=("in", lambda: push.subscribe(alice, browser.endpoint, keys["p256dh"], keys["auth"])),
        name="in",
    )
    again.start()
    until_queued(again)  # the subscribing waits for the sign-out
    go.set()
    out.join(30)
    again.join(30)

    assert outcomes["out"] is True
    assert isinstance(outcomes["in"], PushSubscription), outcomes["in"]
    assert PushSubscription.objects.get(endpoint=browser.endpoint).user_id == alice.pk
    assert User.objects.get(pk=alice.pk).push_devices == 1
