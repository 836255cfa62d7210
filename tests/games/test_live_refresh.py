"""The table's refresh (/games/<id>/live/) costs a 304 without a body when nothing changed for
its viewer, and is complete when something did (games/live_tag.py): a phone fetched the whole
12–24 KB again on every ping, reconnect and wake-up. The validator is built from what its
viewer already knows: another seat's secret answer does not move it."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import notifications
from accounts.models import Notification
from accounts.services import friendship_create
from games import services
from games.engines import registry
from games.models import Game
from games.services import notify
from tests.games.helpers import (
    play_to_the_end,
    seat_users,
    strip_tokens,
    to_the_show_of_hands,
    turn_game,
)

pytestmark = pytest.mark.django_db

DATA_TAG = re.compile(r'data-tag="([^"]*)"')


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def live(client: Client, game: Game, tag: str | None = None):
    url = f"/games/{game.pk}/live/"
    return client.get(url, HTTP_IF_NONE_MATCH=tag) if tag else client.get(url)


def page_tag(client: Client, game: Game) -> str:
    """The validator the table page names for its script's first refresh."""
    page = client.get(f"/games/{game.pk}/").content.decode()
    found = DATA_TAG.search(page)
    assert found is not None
    return found.group(1).replace("&quot;", '"')


def test_an_unchanged_refresh_is_answered_304_without_a_body(started):
    game = turn_game(started)
    alice = client_of(seat_users(game)[0])
    tag = page_tag(alice, game)
    first = live(alice, game, tag)
    assert first.status_code == 304 and first.content == b""
    assert first.headers["ETag"] == tag
    assert "no-store" in first.headers["Cache-Control"]  # still nobody's cache keeps a seat
    # the live parts name the same validator, in their header and in the parts themselves
    full = live(alice, game)
    assert full.status_code == 200 and full.headers["ETag"] == tag
    assert f'data-tag="{tag.replace(chr(34), "&quot;")}"' in full.content.decode()


def test_after_another_seats_move_the_refresh_is_complete(started):
    game = turn_game(started)
    users = seat_users(game)
    engine = registry.get(game.engine)
    (mover,) = engine.waiting_for(game.state).seats
    watcher = next(s for s in users if s != mover)
    client = client_of(users[watcher])
    tag = live(client, game).headers["ETag"]
    action = engine.legal_actions(game.state, mover)[0]
    services.act(users[mover], game.pk, game.version_for(mover), action)
    game.refresh_from_db()

    refreshed = live(client, game, tag)
    assert refreshed.status_code == 200
    assert refreshed.headers["ETag"] != tag
    # the very parts a refresh without any validator gets: nothing held back
    assert strip_tokens(refreshed.content.decode()) == strip_tokens(
        live(client, game).content.decode()
    )
    assert f'data-revision="{game.revision_for(watcher)}"' in refreshed.content.decode()
    again = live(client, game, refreshed.headers["ETag"])
    assert again.status_code == 304


def test_a_validator_is_one_seats_in_one_language(started):
    game = turn_game(started)
    users = seat_users(game)
    alice, bob = client_of(users[0]), client_of(users[1])
    alices = live(alice, game).headers["ETag"]
    assert live(bob, game, alices).status_code == 200  # bob's view is not alice's
    alice.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"  # the language menu
    persian = live(alice, game, alices)
    assert persian.status_code == 200
    assert persian.headers["Content-Language"] == "fa"
    assert live(alice, game, persian.headers["ETag"]).status_code == 304


def test_another_seats_secret_answer_leaves_a_seats_validator_as_it_was(started):
    """An Imperador show of hands asks two seats, who answer secretly: one answers. The other
    seat's validator is the one it had (its refresh is a 304): it tells that seat nothing of
    the answer, nor of the cards it was made with; the answerer's own changes."""
    game = started("imperador")
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    answerer, other = waiting.seats[0], waiting.seats[1]
    clients = {s: client_of(users[s]) for s in (answerer, other)}
    before = {s: live(clients[s], game).headers["ETag"] for s in clients}
    assert before[answerer] != before[other]
    game.refresh_from_db()
    engine = registry.get(game.engine)
    action = engine.legal_actions(game.state, answerer)[0]
    services.act(users[answerer], game.pk, game.version_for(answerer), action)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert engine.waiting_for(game.state).window == "hands", "the window is still open"

    unmoved = live(clients[other], game, before[other])
    assert unmoved.status_code == 304 and unmoved.headers["ETag"] == before[other]
    moved = live(clients[answerer], game, before[answerer])
    assert moved.status_code == 200 and moved.headers["ETag"] != before[answerer]


def a_third_of_the_turn_later(game: Game, monkeypatch) -> None:
    """The clock a third of the way into the current turn: another player may nudge."""
    later = game.wait_opened_at + (game.deadline_at - game.wait_opened_at) / 3
    monkeypatch.setattr(timezone, "now", lambda: later + timedelta(seconds=1))


def test_an_unchanged_refresh_still_reads_the_tables_notices_and_keeps_the_player_here(
    started, monkeypatch
):
    """What a refresh did besides sending the parts, a 304 does too: a nudge that came while
    the table was open is read (the bell need not say it), and the player counts as at the
    table (a lapsed presence is renewed)."""
    monkeypatch.setattr(notifications, "PRESENCE_SECONDS", 2)
    game = turn_game(started)
    users = seat_users(game)
    (on_turn,) = registry.get(game.engine).waiting_for(game.state).seats
    other = next(s for s in users if s != on_turn)
    player = client_of(users[on_turn])
    tag = live(player, game).headers["ETag"]
    a_third_of_the_turn_later(game, monkeypatch)
    notify.nudge(users[other], game.pk)
    nudge = Notification.objects.get(user=users[on_turn], kind=Notification.Kind.NUDGE)
    assert nudge.read_at is None
    time.sleep(2.2)  # the player's presence lapsed: no heartbeat
    assert not notifications.is_present(game.pk, users[on_turn].pk)

    unchanged = live(player, game, tag)
    assert unchanged.status_code == 304
    nudge.refresh_from_db()
    assert nudge.read_at is not None
    assert notifications.is_present(game.pk, users[on_turn].pk)


def test_someone_arriving_is_no_news_for_the_parts_but_everyone_here_or_a_nudge_is(
    started, monkeypatch
):
    """Who is at the table reaches the page by its socket's beat, which marks the players' list
    in place: an arrival made every other viewer fetch the whole parts again. Everyone being
    here is still news (the parts offer the Live pace then), and so is a nudge."""
    game = turn_game(started)
    users = seat_users(game)
    (on_turn,) = registry.get(game.engine).waiting_for(game.state).seats
    watcher, third_seat = (s for s in users if s != on_turn)
    client = client_of(users[watcher])
    tag = live(client, game).headers["ETag"]
    client_of(users[third_seat]).get(f"/games/{game.pk}/")  # another player opens the table
    assert notifications.is_present(game.pk, users[third_seat].pk)
    assert live(client, game, tag).status_code == 304
    client_of(users[on_turn]).get(f"/games/{game.pk}/")  # and the last one: everyone is here
    everyone = live(client, game, tag)
    assert everyone.status_code == 200
    assert "Everyone is here: play live now" in everyone.content.decode()
    assert f'<li data-seat="{third_seat}" class="here">' in everyone.content.decode()
    tag = everyone.headers["ETag"]
    assert live(client, game, tag).status_code == 304
    name = users[on_turn].name
    assert f"Nudge {name}" not in everyone.content.decode()
    a_third_of_the_turn_later(game, monkeypatch)
    nudgeable = live(client, game, tag)
    assert nudgeable.status_code == 200
    assert f"Nudge {name}" in nudgeable.content.decode()


def test_a_lobby_is_always_sent_whole(trio):
    alice, _bob, _carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob"])
    client = client_of(alice)
    first = live(client, game)
    assert first.status_code == 200 and "ETag" not in first.headers
    assert 'data-tag=""' in first.content.decode()


def test_a_full_refresh_of_an_over_game_reads_its_rematch_once(alice, bob, carol):
    """The validator and the parts it stands for show the same rematch link: a refresh that
    finds news reads the rematch (and who is at the table) once for both."""
    friendship_create(alice, bob)
    friendship_create(alice, carol)
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])
    services.game_join(bob, game.pk)
    services.game_join(carol, game.pk)
    services.game_start(alice, game.pk)
    game = play_to_the_end(Game.objects.get(pk=game.pk))
    rematch, _made = services.game_rematch(alice, game.pk)
    bob_client = client_of(bob)
    live(bob_client, game)  # the once-a-minute "last seen" write happens here, not below
    with CaptureQueriesContext(connection) as captured:
        full = live(bob_client, game)
    assert full.status_code == 200
    assert f"/games/{rematch.pk}/" in full.content.decode()
    rematch_reads = [q["sql"] for q in captured.captured_queries if '"rematch_of_id" =' in q["sql"]]
    assert len(rematch_reads) == 1, "\n".join(rematch_reads)
