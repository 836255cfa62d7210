"""Tables before play: create, invite, answer, join, start, cancel — and the API's door."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.selectors import friends_of
from accounts.services import api_token_create, friendship_create, user_ban, user_block
from games import selectors, services
from games.errors import GameError, NotAllowed
from games.models import Game, Invitation, Seat

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_creating_a_table_through_the_page_invites_friends_and_shows_the_lobby(trio):
    alice, bob, _carol = trio
    client = client_for(alice)
    form = client.get(reverse("games:new") + "?invite=bob").content.decode()
    # every friend is offered, only the one named in the link comes ticked
    boxes = re.findall(r'<input[^>]*name="invite"[^>]*>', form)
    ticked = {re.search(r'value="([^"]+)"', box)[1]: " checked" in box for box in boxes}
    assert ticked == {"bob": True, "carol": False}
    response = client.post(
        reverse("games:new"),
        {
            "game": "mogel-motte",
            "seats": 4,
            "pace": "daily",
            "join_policy": "invited",
            "allow_spectators": "on",
            "bots": 1,
            "invite": ["bob"],
        },
        follow=True,
    )
    game = Game.objects.get(created_by=alice)
    assert response.redirect_chain[-1][0] == reverse("games:table", args=[game.pk])
    assert game.seats.count() == 2 and game.seats.filter(is_bot=True).count() == 1
    assert Invitation.objects.filter(game=game, to_user=bob, status="pending").exists()
    assert "1 of 4 seats taken" not in response.content.decode()  # creator + bot = 2
    assert "2 of 4 seats taken" in response.content.decode()


def test_bad_table_settings_get_a_clear_error_and_create_nothing(trio, make_user):
    alice, _bob, _carol = trio
    stranger = make_user("mallory")
    with pytest.raises(GameError, match="for 3 to 5 players"):
        services.game_create(alice, engine="mogel-motte", seats=2)
    with pytest.raises(GameError, match="only invite friends"):
        services.game_create(alice, engine="imperador", seats=3, invite=[stranger.username])
    with pytest.raises(GameError, match="More invitations than free seats"):
        services.game_create(alice, engine="imperador", seats=3, bots=1, invite=["bob", "carol"])
    with pytest.raises(GameError):
        services.game_create(alice, engine="no-such-game", seats=3)
    assert not Game.objects.exists()
    page = client_for(alice).post(
        reverse("games:new"),
        {"game": "imperador", "seats": 9, "pace": "daily", "join_policy": "invited", "bots": 0},
    )
    assert page.status_code == 200 and not Game.objects.exists()


def test_invitees_accept_or_decline_and_only_the_creator_starts_or_cancels(trio, make_user):
    alice, bob, carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])
    bob_client, carol_client = client_for(bob), client_for(carol)
    assert "Take a seat" in bob_client.get(reverse("games:table", args=[game.pk])).content.decode()
    bob_client.post(reverse("games:command", args=[game.pk, "join"]))
    carol_client.post(reverse("games:command", args=[game.pk, "decline"]))
    assert Invitation.objects.get(game=game, to_user=carol).status == "declined"
    with pytest.raises(NotAllowed):
        services.game_start(bob, game.pk)
    with pytest.raises(NotAllowed):
        services.game_cancel(bob, game.pk)
    with pytest.raises(NotAllowed):
        services.game_join(carol, game.pk)  # declined: no longer invited
    response = bob_client.post(reverse("games:command", args=[game.pk, "start"]), follow=True)
    assert "Only the table&#x27;s creator can start the game." in response.content.decode()
    client_for(alice).post(reverse("games:command", args=[game.pk, "start"]))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert Seat.objects.get(game=game, index=2).is_bot  # the empty seat went to a bot
    with pytest.raises(GameError):
        services.game_cancel(alice, game.pk)


def test_any_friend_may_join_an_open_table_but_not_a_blocked_one(trio, make_user):
    alice, bob, carol = trio
    game = services.game_create(
        alice, engine="cockroach-poker-royal", seats=4, join_policy="friends"
    )
    services.game_join(bob, game.pk)
    user_block(alice, carol)
    with pytest.raises(GameError):
        services.game_join(carol, game.pk)
    with pytest.raises(GameError, match="already have a seat"):
        services.game_join(bob, game.pk)
    services.game_cancel(alice, game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_a_blocked_invitee_is_silently_not_invited(trio):
    alice, bob, _carol = trio
    user_block(bob, alice)  # bob blocked alice: alice is not told
    with pytest.raises(GameError, match="only invite friends"):
        services.game_create(alice, engine="imperador", seats=3, invite=["bob"])


def test_the_api_takes_a_personal_token_and_publishes_its_openapi_schema(trio):
    alice, _bob, _carol = trio
    _token, raw = api_token_create(alice, "script")
    client = Client()
    created = client.post(
        "/api/games",
        json.dumps({"game": "imperador", "seats": 3, "bots": 2}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {raw}",
    )
    assert created.status_code == 201
    game_id = created.json()["id"]
    started = client.post(f"/api/games/{game_id}/start", HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert started.status_code == 200 and started.json()["status"] == "active"
    assert (
        client.get(f"/api/games/{game_id}", HTTP_AUTHORIZATION="Bearer fib_forged").status_code
        == 401
    )
    schema = client.get("/api/openapi.json").json()
    assert {
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/actions",
        "/api/games/{game_id}/events",
    } <= set(schema["paths"])


def test_my_games_puts_tables_waiting_on_me_first_and_lists_invitations(started, make_user):
    game = started("cockroach-poker-royal")
    from games.engines import registry
    from tests.games.helpers import seat_users

    waiting = registry.get(game.engine).waiting_for(game.state).seats[0]
    page = client_for(seat_users(game)[waiting]).get(reverse("games:my_games")).content.decode()
    mine = page.index("Your move")
    others = page.index("Waiting on others")
    assert mine < page.index(f"</strong> #{game.pk}</a>") < others


@pytest.mark.parametrize("slug", ["cockroach-poker-royal", "mogel-motte", "imperador"])
def test_each_game_has_a_rules_page(client, slug):
    from games.engines import registry

    page = client.get(reverse("games:rules", args=[slug]))
    assert page.status_code == 200
    assert registry.get(slug).name in page.content.decode()
    assert client.get(reverse("games:rules", args=["no-such-game"])).status_code == 404


@pytest.mark.parametrize("slug", ["cockroach-poker-royal", "mogel-motte"])
def test_the_creator_may_choose_to_start_and_bad_options_are_refused_at_creation(trio, slug):
    from games.engines import registry

    alice = trio[0]
    client = client_for(alice)
    client.post(
        reverse("games:new"),
        {
            "game": slug,
            "seats": 3,
            "pace": "daily",
            "join_policy": "invited",
            "bots": 2,
            "starts": "me",
        },
    )
    game = Game.objects.get(created_by=alice)
    services.game_start(alice, game.pk)
    game.refresh_from_db()
    engine = registry.get(slug)
    assert game.options == {engine.start_option: 0}
    assert engine.setup(3, game.options, game.seed) == engine.setup(
        3, {engine.start_option: 0}, game.seed
    )
    with pytest.raises(GameError):
        services.game_create(alice, engine=slug, seats=3, options={engine.start_option: 7})
    with pytest.raises(GameError):
        services.game_create(alice, engine=slug, seats=3, options={"no_such_option": 1})


def test_the_first_emperor_is_drawn_whatever_the_creator_asks(trio):
    """Imperador's rules: "the first emperor is drawn at random [D]"; the form and the API
    refuse a creator's pick, with the reason, and make no table."""
    alice = trio[0]
    page = client_for(alice).post(
        reverse("games:new"),
        {
            "game": "imperador",
            "seats": 3,
            "pace": "daily",
            "join_policy": "invited",
            "bots": 2,
            "starts": "me",
        },
    )
    assert page.status_code == 200
    assert "In Imperador, who starts is always drawn at random." in page.content.decode()
    _token, raw = api_token_create(alice, "script")
    for option in ("first_seat", "first_emperor"):
        answer = Client().post(
            "/api/games",
            json.dumps({"game": "imperador", "seats": 3, "bots": 2, "options": {option: 0}}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {raw}",
        )
        assert answer.status_code == 400 and answer.json()["code"] == "start_drawn"
    assert not Game.objects.filter(created_by=alice).exists()


@pytest.mark.parametrize("blocker", ["inviter", "invitee"])
def test_a_block_after_the_invitation_withdraws_it_silently(trio, blocker):
    """Alice invites bob and carol; then a block between alice and carol (either way). Carol's
    invitation no longer shows, opens no table and seats nobody, like a table she was never
    invited to; bob's stands."""
    alice, bob, carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])
    user_block(*((alice, carol) if blocker == "inviter" else (carol, alice)))

    assert not selectors.invitations_for(carol).exists()
    assert list(selectors.invitations_for(bob)) == list(game.invitations.filter(to_user=bob))
    page = client_for(carol).get(reverse("games:table", args=[game.pk]))
    stranger = client_for(carol).get(reverse("games:table", args=[game.pk + 1000]))
    assert page.status_code == stranger.status_code == 404
    joined = client_for(carol).post(reverse("games:command", args=[game.pk, "join"]))
    assert joined.status_code == 404
    with pytest.raises(GameError):
        services.game_join(carol, game.pk)
    assert not Seat.objects.filter(game=game, user=carol).exists()
    services.game_join(bob, game.pk)
    assert Seat.objects.filter(game=game, user=bob).exists()


def test_a_block_with_someone_seated_withdraws_the_invitation_from_the_list_too(trio):
    """Bob sat down, then blocked carol: her list still showed the invitation while the table
    opened to her as "no such game", which told her someone there blocked her."""
    alice, bob, carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])
    services.game_join(bob, game.pk)
    assert list(selectors.invitations_for(carol).values_list("game", flat=True)) == [game.pk]
    user_block(bob, carol)
    assert not selectors.invitations_for(carol).exists()
    assert client_for(carol).get(reverse("games:table", args=[game.pk])).status_code == 404
    assert (
        f"/games/{game.pk}/"
        not in client_for(carol).get(reverse("games:my_games")).content.decode()
    )


def test_a_banned_friend_is_not_listed_nor_invited(trio):
    alice, bob, carol = trio
    moderator = type(alice).objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    user_ban(moderator, carol, "spam")
    assert list(friends_of(alice)) == [bob]
    assert "carol" not in client_for(alice).get(reverse("games:new")).content.decode()
    with pytest.raises(GameError, match="not a player you can invite"):
        services.game_create(alice, engine="imperador", seats=3, invite=["carol"])


def test_taking_a_seat_twice_says_so_at_an_invited_table(trio):
    """The second "Take a seat" (a double click) used to be told it needed an invitation."""
    alice, bob, _carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob"])
    services.game_join(bob, game.pk)
    with pytest.raises(GameError, match="already have a seat"):
        services.game_join(bob, game.pk)


def test_every_field_description_a_page_points_at_is_on_the_page(started, trio):
    """A field's aria-describedby named "…_helptext" while the page's help was "…_help": a
    screen reader never read the help of the new-table form."""
    game = started("imperador")
    client = client_for(trio[0])
    pages = ["/games/new/", f"/games/{game.pk}/report/", "/profile/", "/friends/"]
    checked = 0
    for url in pages:
        html = client.get(url).content.decode()
        ids = set(re.findall(r'\bid="([^"]+)"', html))
        for described in re.findall(r'aria-describedby="([^"]+)"', html):
            for ref in described.split():
                assert ref in ids, (url, ref)
                checked += 1
    assert checked >= 3


def test_cancelling_a_table_tells_who_sat_down_and_who_was_invited(trio, make_user):
    """Seated players used to learn of a cancel only from their page turning "aborted"; the
    invitation's notice stayed unread, its Accept leading nowhere. An invitee across a block
    hears nothing (the block withdrew the invitation in silence)."""
    from accounts.models import Notification
    from accounts.services import friendship_create

    alice, bob, carol = trio
    dave = make_user("dave")
    friendship_create(alice, dave)
    game = services.game_create(alice, engine="imperador", seats=4, invite=["bob", "carol", "dave"])
    services.game_join(bob, game.pk)
    user_block(dave, alice)
    services.game_cancel(alice, game.pk)

    def cancelled(user) -> list[str]:
        return list(
            Notification.objects.filter(
                user=user, game_id=game.pk, kind=Notification.Kind.GAME_FINISHED
            ).values_list("text", flat=True)
        )

    for user in (bob, carol):
        assert cancelled(user) == [f"{alice.name} cancelled the table of Imperador #{game.pk}."]
    assert cancelled(dave) == [] and cancelled(alice) == []
    invitation = Notification.objects.get(user=carol, kind=Notification.Kind.INVITATION)
    assert invitation.read_at is not None


def test_an_invitation_that_outlived_its_table_says_what_became_of_it(trio):
    alice, bob, carol = trio
    game = services.game_create(
        alice, engine="imperador", seats=3, invite=["bob", "carol"], allow_spectators=False
    )
    services.game_join(bob, game.pk)
    page = client_for(carol).get(reverse("games:table", args=[game.pk]))
    assert page.status_code == 200  # invited, in the lobby
    services.game_start(alice, game.pk)  # carol's seat goes to a bot
    for answer in (
        client_for(carol).get(reverse("games:table", args=[game.pk])),
        client_for(carol).post(reverse("games:command", args=[game.pk, "join"])),
    ):
        assert answer.status_code == 404
        assert "This table started without you, or was cancelled." in answer.content.decode()
    stranger = client_for(carol).get(reverse("games:table", args=[game.pk + 1000]))
    assert "started without you" not in stranger.content.decode()


def test_only_a_live_table_takes_im_ready(trio):
    """A forged "I'm ready" at a Daily table was answered "You are ready."."""
    alice, bob, _carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob"])
    services.game_join(bob, game.pk)
    before = Seat.objects.get(game=game, user=bob).ready_at
    answer = client_for(bob).post(reverse("games:command", args=[game.pk, "ready"]), follow=True)
    assert "Only Live tables wait for everyone to be ready." in answer.content.decode()
    assert Seat.objects.get(game=game, user=bob).ready_at == before is None


def test_a_persian_reader_meets_the_games_persian_name(trio):
    """The game's name inside Persian notices and pages was its English one ("… میز
    Imperador #12 …"); the rules call it ایمپرادور."""
    from accounts.models import Notification, User

    alice, bob, _carol = trio
    User.objects.filter(pk=bob.pk).update(language="fa")
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob"])
    services.game_join(bob, game.pk)
    services.game_cancel(alice, game.pk)
    (notice,) = Notification.objects.filter(user=bob, kind=Notification.Kind.GAME_FINISHED)
    assert "ایمپرادور" in notice.text and "Imperador" not in notice.text, notice.text
    client = client_for(bob)
    client.cookies["django_language"] = "fa"
    page = client.get(reverse("games:table", args=[game.pk])).content.decode()
    assert "<h1>ایمپرادور" in page


def test_an_invitee_at_a_full_table_is_told_it_is_full_not_offered_a_seat(trio, make_user):
    """A full table still offered its invitee "Take a seat", then refused it (review)."""
    alice, bob, carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])
    dave = make_user("dave")
    services.game_join(bob, game.pk)
    Game.objects.filter(pk=game.pk).update(join_policy="open")
    friendship_create(alice, dave)
    services.game_join(dave, game.pk)  # the last seat, taken by someone not invited

    page = client_for(carol).get(reverse("games:table", args=[game.pk])).content.decode()

    assert "This table is full." in page and "Take a seat" not in page
    assert "Decline the invitation" in page
