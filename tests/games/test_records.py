"""Ratings and records at the end of a table; play again; learn to play; player pages."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.services import friendship_create
from games import services
from games.engines import registry
from games.models import Game, Invitation, PlayerRecord
from games.services import records
from tests.games.helpers import next_human_move, play_to_the_end, play_until, seat_users

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("engine", ["cockroach-poker-royal", "mogel-motte", "imperador"])
def test_a_finished_table_rates_its_players_by_placement(started, engine):
    game = started(engine)
    users = seat_users(game)
    assert not PlayerRecord.objects.exists(), "nothing is counted while the game runs"
    game = play_to_the_end(game)
    assert game.status == Game.Status.FINISHED
    winners = set(game.result["winners"])
    for seat, user in users.items():
        record = PlayerRecord.objects.get(user=user, engine=engine)
        assert (record.played, record.rated, record.abandoned) == (1, 1, 0)
        assert (record.won, record.lost) == ((1, 0) if seat in winners else (0, 1))
        assert (record.mu > 25) == (seat in winners), "winners rise, losers fall"
        assert record.sigma < 25 / 3


def test_a_tables_records_take_four_statements_new_or_not(started):
    """Made if missing, locked, the log read, written: the same four for a first table and a
    second one, whose records exist (a record at a time took 7 and 16)."""
    for table in range(2):
        game = play_to_the_end(started("cockroach-poker-royal"), seed=table)
        seats = list(game.seats.select_related("user"))
        with transaction.atomic(), CaptureQueriesContext(connection) as queries:
            records.record_finished(game, seats)
            transaction.set_rollback(True)  # counted once already, by the finishing move
        assert len(queries) == 4, [q["sql"][:60] for q in queries]
        assert PlayerRecord.objects.filter(engine=game.engine, played=table + 1).count() == 3


def test_the_bluffing_figures_come_from_the_public_log_at_the_end(started):
    game = play_to_the_end(started("cockroach-poker-royal"))
    records = {r.user_id: r for r in PlayerRecord.objects.filter(engine=game.engine)}
    calls = [
        e["data"]
        for row in game.events.all()
        for e in row.events
        if e["kind"] == "called" and e["data"]["right"]
    ]
    users = seat_users(game)
    for seat, user in users.items():
        assert records[user.pk].calls_right == sum(1 for c in calls if c["seat"] == seat)


def test_a_table_decided_by_a_bot_takeover_is_unrated_and_counts_as_abandoned(started):
    game = started("mogel-motte")  # long enough for three missed turns
    alice = seat_users(game)[0]
    rng = random.Random(2)
    for _ in range(3000):  # alice is away: each wait on her times out until the bot has her seat
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        if 0 in next_owed(game):
            services.force_deadline(alice, game.pk, "test: alice is away")
        else:
            seat, action = next_human_move(game, rng)
            services.act(seat_users(game)[seat], game.pk, game.version_for(seat), action)
    assert game.status == Game.Status.FINISHED
    assert game.seats.get(index=0).bot_reason == "timeouts"
    records = {r.user_id: r for r in PlayerRecord.objects.filter(engine="mogel-motte")}
    assert records[alice.pk].abandoned == 1 and records[alice.pk].played == 0
    assert all(r.rated == 0 and r.mu == 25 for r in records.values())


def next_owed(game: Game) -> set[int]:
    from games.engines import registry

    return set(registry.get(game.engine, game.rules_version).waiting_for(game.state).seats)


def test_an_aborted_table_records_nothing(started, admin_user):
    game = started("imperador")
    services.game_abort(admin_user, game.pk, "test")
    assert not PlayerRecord.objects.exists()


def test_play_again_invites_the_same_players_once(started):
    game = play_to_the_end(started("imperador"))
    alice, bob, carol = (seat_users(game)[i] for i in range(3))
    response = client_for(bob).post(reverse("games:command", args=[game.pk, "rematch"]))
    rematch = Game.objects.get(rematch_of=game)
    assert response.url == reverse("games:table", args=[rematch.pk])
    assert (rematch.engine, rematch.seats_count, rematch.pace, rematch.move_seconds) == (
        game.engine,
        game.seats_count,
        game.pace,
        game.move_seconds,
    )
    assert rematch.created_by == bob and rematch.status == Game.Status.LOBBY
    invited = set(
        Invitation.objects.filter(game=rematch, status="pending").values_list("to_user", flat=True)
    )
    assert invited == {alice.pk, carol.pk}
    again = client_for(carol).post(reverse("games:command", args=[game.pk, "rematch"]))
    assert again.url == reverse("games:table", args=[rematch.pk]), "one rematch per table"
    page = client_for(alice).get(reverse("games:table", args=[game.pk])).content.decode()
    assert reverse("games:table", args=[rematch.pk]) in page


def test_learn_to_play_starts_a_live_table_against_bots_with_the_rules(alice):
    response = client_for(alice).post(reverse("games:learn", args=["mogel-motte"]))
    game = Game.objects.get(created_by=alice)
    assert response.url == reverse("games:table", args=[game.pk])
    assert game.status == Game.Status.ACTIVE and game.pace == "live" and game.learning
    assert game.seats.filter(is_bot=True).count() == game.seats_count - 1
    # a learner reads the rules as they play: five minutes a move, not the Live minute
    engine = registry.get(game.engine)

    def her_turn(g: Game) -> Game | None:
        waiting = engine.waiting_for(g.state)
        return g if waiting.kind == "turn" and tuple(waiting.seats) == (0,) else None

    game = play_until(lambda: game, her_turn, seed=1, tables=1)
    opened = game.wait_opened_at
    assert game.deadline_at - opened == timedelta(minutes=5)
    page = client_for(alice).get(response.url).content.decode()
    assert "How to play" in page


def test_a_player_page_is_for_friends_only_and_shows_no_running_game(alice, bob, carol):
    friendship_create(alice, bob)
    game = services.game_create(alice, engine="imperador", seats=3, bots=1, invite=["bob"])
    services.game_join(bob, game.pk)
    services.game_start(alice, game.pk)
    page = client_for(bob).get(reverse("games:player", args=["alice"]))
    assert page.status_code == 200 and "No finished table yet." in page.content.decode()
    assert client_for(carol).get(reverse("games:player", args=["alice"])).status_code == 404


def test_open_tables_follow_their_policy_and_the_block_rules(trio, make_user):
    from accounts.services import user_block

    alice, bob, _carol = trio
    dave, erin, frank = make_user("dave"), make_user("erin"), make_user("frank")
    friendship_create(bob, dave)  # dave: a friend of alice's friend bob
    anyone = services.game_create(alice, engine="imperador", seats=4, join_policy="anyone")
    fof = services.game_create(alice, engine="imperador", seats=4, join_policy="fof")
    invited = services.game_create(alice, engine="imperador", seats=4)
    services.game_join(bob, anyone.pk)
    listed = {u.username: {g.pk for g in selectors_open_tables(u)} for u in (dave, erin)}
    assert listed == {"dave": {anyone.pk, fof.pk}, "erin": {anyone.pk}}
    assert invited.pk not in listed["dave"]
    user_block(bob, erin)  # bob, seated at the "anyone" table, blocked erin
    assert anyone.pk not in {g.pk for g in selectors_open_tables(erin)}
    refused = client_for(erin).post(reverse("games:command", args=[anyone.pk, "join"]))
    assert refused.status_code == 404 and not anyone.seats.filter(user=erin).exists()
    page = client_for(frank).get(reverse("games:open_tables")).content.decode()
    link = lambda game: f'href="{reverse("games:table", args=[game.pk])}"'  # noqa: E731
    assert link(anyone) in page and link(fof) not in page
    client_for(dave).post(reverse("games:command", args=[fof.pk, "join"]))
    assert fof.seats.filter(user=dave).exists()


def selectors_open_tables(user):
    from games import selectors

    return selectors.open_tables(user)


def test_a_player_page_lists_only_the_finished_tables_the_viewer_may_open(trio, make_user):
    """bob visits his friend alice's page: her tables with dave (not bob's friend) are listed
    when watching is allowed and nobody there blocked bob; the others would be dead links
    (and tell him of a table kept from him)."""
    from accounts.services import user_block

    alice, bob, _carol = trio
    dave = make_user("dave")
    friendship_create(alice, dave)

    def finished(*, spectators: bool, invite: list[str]) -> Game:
        game = services.game_create(
            alice,
            engine="imperador",
            seats=3,
            bots=2 - len(invite),
            invite=invite,
            allow_spectators=spectators,
        )
        if invite:
            services.game_join(dave, game.pk)
        services.game_start(alice, game.pk)
        return play_to_the_end(Game.objects.get(pk=game.pk))

    closed = finished(spectators=False, invite=["dave"])
    with_dave = finished(spectators=True, invite=["dave"])
    without_dave = finished(spectators=True, invite=[])
    bobs = client_for(bob)

    def listed() -> set[int]:
        page = bobs.get(reverse("games:player", args=["alice"])).content.decode()
        shown = {int(n) for n in re.findall(r'href="/games/(\d+)/"', page)}
        for game in (closed, with_dave, without_dave):
            opens = bobs.get(reverse("games:table", args=[game.pk])).status_code == 200
            assert (game.pk in shown) == opens, (game.pk, opens)
        return shown

    assert listed() == {with_dave.pk, without_dave.pk}
    user_block(dave, bob)  # bob may no longer watch dave anywhere
    assert listed() == {without_dave.pk}
    own = client_for(alice).get(reverse("games:player", args=["alice"])).content.decode()
    assert {int(n) for n in re.findall(r'href="/games/(\d+)/"', own)} >= {
        closed.pk,
        with_dave.pk,
        without_dave.pk,
    }


def test_a_friends_page_leads_to_the_tables_under_way_the_viewer_may_watch(trio, make_user):
    from accounts.services import user_block

    alice, bob, _carol = trio
    dave = make_user("dave")
    friendship_create(alice, dave)

    def running(*, spectators: bool) -> Game:
        game = services.game_create(
            alice,
            engine="imperador",
            seats=3,
            bots=1,
            invite=["dave"],
            allow_spectators=spectators,
        )
        services.game_join(dave, game.pk)
        services.game_start(alice, game.pk)
        return game

    closed, watched = running(spectators=False), running(spectators=True)
    bobs = client_for(bob)

    def playing_now() -> set[int]:
        page = bobs.get(reverse("games:player", args=["alice"])).content.decode()
        part = (
            page[page.index("Playing now") : page.index("Last games")]
            if "Playing now" in page
            else ""
        )
        shown = {int(n) for n in re.findall(r'href="/games/(\d+)/"', part)}
        for game in (closed, watched):
            opens = bobs.get(reverse("games:table", args=[game.pk])).status_code == 200
            assert (game.pk in shown) == opens, (game.pk, opens)
        return shown

    assert playing_now() == {watched.pk}
    page = bobs.get(reverse("games:player", args=["alice"])).content.decode()
    assert '<small class="muted">alice, Bot 2, dave</small>' in page, "who plays there"
    user_block(dave, bob)
    assert playing_now() == set()


@pytest.mark.parametrize(
    ("language", "written"),
    [("en", r"[A-Z][a-z]{2}\.? \d{1,2}, 20\d\d"), ("fa", r"\d{1,2} [\u0600-\u06ff]+ 14\d\d")],
)
def test_a_player_pages_finished_tables_say_their_day_in_the_readers_calendar(
    alice, language, written
):
    """The list said "12/08/2026" (8 December or 12 August?) and gave a Persian reader the
    Gregorian date, where every other date the site writes is on the Solar Hijri calendar."""
    alice.language = language
    alice.save(update_fields=["language"])
    game = services.game_create(alice, engine="imperador", seats=3, bots=2)
    services.game_start(alice, game.pk)
    play_to_the_end(Game.objects.get(pk=game.pk))
    page = client_for(alice).get(reverse("games:player", args=["alice"])).content.decode()
    day = re.search(rf'href="/games/{game.pk}/">[^<]*</a> <span class="muted">([^<]+)</span>', page)
    assert day and re.fullmatch(written, day.group(1)), day and day.group(1)
