"""One player cannot bury another in notices and emails (a web attacker's review): a friend
request sent and cancelled 15 times left 15 notices; a table made and cancelled 8 times
mailed its invitee 8 times in 5 seconds; nothing bounded the requests and invitations one
player sends in an hour."""

from __future__ import annotations

import pytest

from accounts import services as accounts
from accounts.models import FriendRequest, Notification, User
from accounts.selectors import incoming_requests
from games import services
from games.errors import GameError
from games.models import Game
from games.services import tables

pytestmark = pytest.mark.django_db


def _notices(user, kind) -> int:
    return Notification.objects.filter(user=user, kind=kind).count()


def test_a_request_sent_and_taken_back_again_and_again_notifies_once(alice, bob):
    kind = Notification.Kind.FRIEND_REQUEST
    _outcome, first = accounts.friend_request_send(alice, bob)
    assert _notices(bob, kind) == 1
    accounts.friend_request_cancel(alice, first)
    assert _notices(bob, kind) == 0, "the notice led to a request that is gone"
    for _round in range(4):
        _outcome, again = accounts.friend_request_send(alice, bob)
        accounts.friend_request_cancel(alice, again)
    _outcome, last = accounts.friend_request_send(alice, bob)

    assert _notices(bob, kind) == 0
    assert list(incoming_requests(bob)) == [last], "still there to answer on the friends page"


def test_friend_requests_are_limited_per_hour(alice, make_user):
    others = [make_user(f"player{n}") for n in range(accounts.FRIEND_REQUESTS_PER_HOUR + 1)]
    for other in others[:-1]:
        accounts.friend_request_send(alice, other)

    with pytest.raises(accounts.FriendError) as refused:
        accounts.friend_request_send(alice, others[-1])

    assert refused.value.code == "too_many"
    assert "many friend requests in the last hour" in str(refused.value.message)
    assert not FriendRequest.objects.filter(to_user=others[-1]).exists()
    assert _notices(others[-1], Notification.Kind.FRIEND_REQUEST) == 0


def _invite_carol(alice) -> Game:
    return services.game_create(alice, engine="cockroach-poker-royal", seats=3, invite=["carol"])


def test_one_friend_is_invited_to_a_few_tables_an_hour_at_most(trio):
    alice, _bob, carol = trio
    for _round in range(tables.INVITATIONS_PER_HOUR_TO_ONE):
        services.game_cancel(alice, _invite_carol(alice).pk)
    games_before = Game.objects.count()

    with pytest.raises(GameError) as refused:
        _invite_carol(alice)

    assert refused.value.code == "invitation_limit"  # not "more invitations than seats"
    assert "invited carol to several tables" in str(refused.value)
    assert Game.objects.count() == games_before, "no table made"
    assert _notices(carol, Notification.Kind.INVITATION) == tables.INVITATIONS_PER_HOUR_TO_ONE


def test_a_cancelled_table_mails_those_who_sat_down_not_those_only_invited(trio):
    alice, bob, carol = trio
    game = services.game_create(
        alice, engine="cockroach-poker-royal", seats=3, invite=["bob", "carol"]
    )
    services.game_join(bob, game.pk)

    services.game_cancel(alice, game.pk)

    told = {
        note.user.username: note.email
        for note in Notification.objects.filter(kind=Notification.Kind.GAME_FINISHED)
    }
    assert told == {"bob": Notification.Email.PENDING, "carol": Notification.Email.NONE}
    assert User.objects.get(pk=carol.pk).notifications.filter(read_at__isnull=True).count() == 1


def test_quick_games_with_the_same_friends_are_not_limited(trio):
    """Only tables that never started count: a Live evening of rematches is play."""
    alice, _bob, carol = trio
    for _round in range(tables.INVITATIONS_PER_HOUR_TO_ONE + 2):
        game = _invite_carol(alice)
        services.game_join(carol, game.pk)
        services.game_start(alice, game.pk)
    assert _notices(carol, Notification.Kind.INVITATION) == tables.INVITATIONS_PER_HOUR_TO_ONE + 2


def test_invitations_to_many_friends_are_limited_per_hour(alice, make_user, monkeypatch):
    """The total as well as the one friend's: each invitation is a notice and an email."""
    from accounts.services import friendship_create

    monkeypatch.setattr(tables, "INVITATIONS_PER_HOUR", 3)
    friends = [make_user(f"pal{n}") for n in range(4)]
    for friend in friends:
        friendship_create(alice, friend)
    services.game_create(
        alice, engine="imperador", seats=4, invite=[f.username for f in friends[:3]]
    )

    with pytest.raises(GameError) as refused:
        services.game_create(alice, engine="cockroach-poker-royal", seats=3, invite=["pal3"])

    assert refused.value.code == "invitation_limit"
    assert "many invitations in the last hour" in str(refused.value)
    assert _notices(friends[3], Notification.Kind.INVITATION) == 0


def test_a_seat_taken_and_left_again_and_again_tells_the_creator_once(alice, make_user):
    """At a table open to anyone, a stranger taking a seat and leaving it over and over was a
    notice (a push, an email) to the creator each round; another player's seat is still news."""
    eve, zed = make_user("eve"), make_user("zed")
    game = services.game_create(
        alice, engine="cockroach-poker-royal", seats=4, join_policy=Game.JoinPolicy.ANYONE
    )
    for _round in range(10):
        services.game_join(eve, game.pk)
        services.game_leave(eve, game.pk)
    services.game_join(eve, game.pk)
    services.game_join(zed, game.pk)

    told = list(
        Notification.objects.filter(user=alice, kind=Notification.Kind.TABLE)
        .order_by("pk")
        .values_list("text", flat=True)
    )
    assert told == [
        f"{eve.name} took a seat at your table of Cockroach Poker Royal #{game.pk}.",
        f"{zed.name} took a seat at your table of Cockroach Poker Royal #{game.pk}.",
    ]
