"""A player closes their own account from the profile: after asking for the password again,
every table is left (nobody waits for them), and the account can no longer be used."""

from __future__ import annotations

import time

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.mfa.totp.internal.auth import (
    TOTP,
    format_hotp_value,
    generate_totp_secret,
    hotp_value,
)
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken, FriendRequest, Friendship, Notification, User
from accounts.notifications import unsubscribe_token
from accounts.services import (
    ModerationError,
    api_token_create,
    friend_request_send,
    user_ban,
    user_unban,
)
from accounts.tokens import user_for_token
from games import services
from games.errors import NotAllowed
from games.models import Game, Invitation, PlayerRecord, Seat
from games.services.departure import leave_lobbies
from games.services.tables import game_cancel
from tests.games.helpers import play_to_the_end

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"


def test_closing_an_account_leaves_every_table_and_cannot_be_undone(started, trio, make_user):
    alice, bob, carol = trio
    playing = started("imperador")  # alice, bob and carol in play
    hers = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])
    services.game_join(bob, hers.pk)
    bobs = services.game_create(bob, engine="imperador", seats=3, invite=["alice"])
    services.game_join(alice, bobs.pk)
    carols = services.game_create(carol, engine="imperador", seats=3, invite=["alice"])
    _token, raw = api_token_create(alice, "script")
    friend_request_send(alice, dave := make_user("dave"))  # pending both ways
    friend_request_send(make_user("erin"), alice)
    client = Client()
    client.force_login(alice)
    close = reverse("account_close")

    # the password again first (allauth's own page); a POST without it changes nothing
    assert client.post(close, {"confirm": "on"}).status_code == 302
    assert User.objects.get(pk=alice.pk).is_active
    reauth = client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
    assert reauth.status_code == 302
    unticked = client.post(close, {})
    assert unticked.status_code == 200
    assert "Tick the box to close your account." in unticked.content.decode()
    assert User.objects.get(pk=alice.pk).is_active

    done = client.post(close, {"confirm": "on"}, follow=True)
    assert "Your account is closed. Thank you for playing." in done.content.decode()
    assert "_auth_user_id" not in client.session

    alice.refresh_from_db()
    assert not alice.is_active and alice.closed_at is not None
    assert alice.email == "" and not EmailAddress.objects.filter(user=alice).exists()
    assert not Friendship.objects.filter(user_low=alice).exists()
    assert not Friendship.objects.filter(user_high=alice).exists()
    # deleted, as the page says, not only revoked and cancelled
    assert user_for_token(raw) is None and not ApiToken.objects.filter(user=alice).exists()
    assert not FriendRequest.objects.filter(Q(from_user=alice) | Q(to_user=alice)).exists()
    # the notices that asked them to answer her request are read: nothing left to answer
    assert Notification.objects.get(user=dave, kind="friend_request").read_at is not None
    assert not Notification.objects.filter(user=alice).exists()
    # her lobby cancelled, bob told; her seat at bob's lobby free; carol's invitation declined
    assert Game.objects.get(pk=hers.pk).status == Game.Status.ABORTED
    assert Notification.objects.filter(user=bob, game_id=hers.pk, kind="finished").exists()
    assert not Seat.objects.filter(game=bobs, user=alice).exists()
    assert Invitation.objects.get(game=carols, to_user=alice).status == "declined"
    # at the table in play the bot has her seat, for good, and the game does not wait on her
    seat = Seat.objects.get(game=playing, user=alice)
    assert seat.is_bot and seat.bot_reason == "closed" and not seat.reclaimable
    assert Game.objects.get(pk=playing.pk).status == Game.Status.ACTIVE  # the game goes on
    for other in (bob, carol):  # told who left, not left to guess from "(bot)"
        assert Notification.objects.filter(
            user=other,
            game_id=playing.pk,
            text=f"alice left Imperador #{playing.pk}; the bot plays their seat to the end.",
        ).exists()
    # played to the end by the others: the table counts as left for her, and rates nobody
    finished = play_to_the_end(Game.objects.get(pk=playing.pk))
    assert finished.status == Game.Status.FINISHED
    hers, bobs = (PlayerRecord.objects.get(user=u, engine="imperador") for u in (alice, bob))
    assert (hers.abandoned, hers.played) == (1, 0)
    assert bobs.played == 1 and bobs.rated == 0
    # nor does the game's end write her a notice: her notices were deleted, and stay so
    assert Notification.objects.filter(user=bob, game_id=playing.pk, kind="finished").exists()
    assert not Notification.objects.filter(user=alice).exists()
    # nor can a moderator's ban and unban open the account again
    root = User.objects.create_superuser("root", "root@example.com", "x")
    with pytest.raises(ModerationError):
        user_ban(root, alice, "spam")
    with pytest.raises(ModerationError):
        user_unban(root, alice, "oops")
    assert not User.objects.get(pk=alice.pk).is_active

    again = Client()
    again.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert "_auth_user_id" not in again.session


def test_a_player_with_two_factor_closes_with_their_code_and_the_authenticator_goes(alice):
    """A player who turned on two-factor sign-in may confirm with a code from their app
    instead of the password (allauth's own step); closing deletes the authenticator's secret
    and recovery codes with the account's other credentials (tokens, devices)."""
    secret = generate_totp_secret()
    TOTP.activate(alice, secret)
    RecoveryCodes.activate(alice)
    client = Client()
    client.force_login(alice)
    close = reverse("account_close")
    asked = client.post(close, {"confirm": "on"})
    assert asked.status_code == 302 and "/accounts/reauthenticate/" in asked.url
    by_code = asked.url.replace(reverse("account_reauthenticate"), reverse("mfa_reauthenticate"))
    code = format_hotp_value(hotp_value(secret, int(time.time()) // 30))
    done = client.post(by_code, {"code": code}, follow=True)
    assert "Your account is closed. Thank you for playing." in done.content.decode()
    assert not User.objects.get(pk=alice.pk).is_active
    assert not Authenticator.objects.filter(user=alice).exists()


def test_an_old_emails_unsubscribe_link_after_closing_says_it_no_longer_works(alice):
    """A closed account gets no email; the unsubscribe link of one sent before asked "Stop
    all game emails to •••?" (its address is gone) and wrote to the closed account."""
    link = reverse("unsubscribe", args=[unsubscribe_token(alice)])
    assert "a•••@example.com" in Client().get(link).content.decode()
    client = Client()
    client.force_login(alice)
    asked = client.post(reverse("account_close"), {"confirm": "on"})
    client.post(asked.url, {"password": PASSWORD}, follow=True)
    assert User.objects.get(pk=alice.pk).closed_at is not None

    page = Client().get(link)
    assert page.status_code == 400
    assert "This unsubscribe link is not valid or has expired." in page.content.decode()
    assert Client().post(link).status_code == 400


def test_a_departure_step_refused_for_another_reason_than_a_table_gone_is_not_swallowed(trio):
    """Leaving the lobby skips a table that moved on meanwhile (started, cancelled, left on
    another device); any other refusal of a step must come out: swallowed, the departure said
    the table was left while it still waited, in the lobby, on its creator. Here the step that
    closes the player's own tables is refused (it acts for someone who did not create them)."""
    alice, bob, _carol = trio
    bobs = services.game_create(bob, engine="imperador", seats=3, invite=["alice"])

    with pytest.raises(NotAllowed) as refused:
        leave_lobbies(bob, close=lambda game_id: game_cancel(alice, game_id))

    assert refused.value.message == "Only the table's creator can cancel it."
    assert Game.objects.get(pk=bobs.pk).status == Game.Status.LOBBY
