"""An answer to a window the seat saw open counts, whatever else moved since (live review,
2026-12-01): another player's public aside in the same second used to void it as
``stale_version``, and in a slap window the refused player became the slowest."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.services import api_token_create
from games import services
from games.engines import registry
from games.errors import StaleVersion
from games.models import Event, Game
from tests.games.helpers import play_until, seat_users

pytestmark = pytest.mark.django_db

ENGINE = registry.get("mogel-motte")


def _cheat(game: Game, seat: int) -> dict | None:
    return next((a for a in ENGINE.legal_actions(game.state, seat) if a["type"] == "cheat"), None)


def _slap_window_with_a_cheater(started) -> tuple[Game, int, int, int]:
    """Plays Mogel Motte tables of three people until a slap window opens in which a seat
    owes a slap and another seat may cheat (a public aside). Returns the game, the slapper,
    the cheater and the slapper's version from before the window opened."""
    before: dict[tuple[int, int], int] = {}  # (table, seat): its version before the last move

    def window_with_a_cheater(game: Game) -> tuple[Game, int, int, int] | None:
        waiting = ENGINE.waiting_for(game.state)
        if waiting.kind == "window" and waiting.window == "slap":
            for slapper in waiting.seats:
                cheaters = [s for s in range(3) if s != slapper and _cheat(game, s)]
                earlier = Event.objects.filter(game=game).exclude(
                    created_at=game.wait_opened_at
                )  # rows from before the change that opened the window
                seen = before.get((game.pk, slapper))
                fresh = seen is not None and seen < game.version_for(slapper)
                if cheaters and fresh and earlier.exists():
                    return game, slapper, cheaters[0], seen
        before.update({(game.pk, s): game.version_for(s) for s in range(3)})
        return None

    return play_until(lambda: started("mogel-motte"), window_with_a_cheater, seed=5, moves=300)


def _opening(game: Game) -> int:
    """The number of the first row of the change that opened the current wait."""
    rows = Event.objects.filter(game=game, created_at=game.wait_opened_at)
    return rows.order_by("seq").values_list("seq", flat=True)[0]


def _slaps(game: Game, seat: int, opening: int) -> int:
    """The seat's slaps since the window found opened (earlier windows left out)."""
    return Event.objects.filter(
        game=game, seat=seat, action={"type": "slap"}, seq__gte=opening
    ).count()


def test_a_slap_sent_before_anothers_aside_arrived_still_counts(started):
    game, slapper, cheater, _before = _slap_window_with_a_cheater(started)
    opened = _opening(game)
    users = seat_users(game)
    seen = game.version_for(slapper)  # the slapper's page shows the open window
    services.act(users[cheater], game.pk, game.version_for(cheater), _cheat(game, cheater))
    game.refresh_from_db()
    assert game.version_for(slapper) > seen  # the aside reached the slapper's version

    services.act(users[slapper], game.pk, seen, {"type": "slap"})

    game.refresh_from_db()
    assert _slaps(game, slapper, opened) == 1
    waiting = ENGINE.waiting_for(game.state)
    assert not (waiting.window == "slap" and slapper in waiting.seats)


def test_the_api_takes_the_slap_with_the_version_its_page_read(started):
    game, slapper, cheater, _before = _slap_window_with_a_cheater(started)
    opened = _opening(game)
    users = seat_users(game)
    _token, raw = api_token_create(users[slapper], "phone")
    api = Client(headers={"Authorization": f"Bearer {raw}"})
    read = api.get(f"/api/games/{game.pk}").json()
    assert {"type": "slap"} in read["legal_actions"]
    services.act(users[cheater], game.pk, game.version_for(cheater), _cheat(game, cheater))

    answer = api.post(
        f"/api/games/{game.pk}/actions",
        {"version": read["version"], "action": {"type": "slap"}, "key": "slap-1"},
        content_type="application/json",
    )

    assert answer.status_code == 200, answer.content
    assert _slaps(game, slapper, opened) == 1


def test_a_version_from_before_the_window_opened_is_still_stale(started):
    """The seat had not seen the window open: its slap is refused as stale (it may not know
    what it answers), and nothing is written."""
    game, slapper, _cheater, before = _slap_window_with_a_cheater(started)
    opened = _opening(game)
    users = seat_users(game)
    version = game.version

    with pytest.raises(StaleVersion):
        services.act(users[slapper], game.pk, before, {"type": "slap"})

    game.refresh_from_db()
    assert game.version == version and _slaps(game, slapper, opened) == 0


def test_a_clock_running_ahead_elsewhere_does_not_make_an_unseen_window_seen(started):
    """Rows are ordered by their number, not by the time a host wrote on them: a row from
    before the window, stamped later than its opening by a worker whose clock runs ahead,
    still counts as before it (diff review, 2026-12-01)."""
    from datetime import timedelta

    game, slapper, _cheater, before = _slap_window_with_a_cheater(started)
    opened = _opening(game)
    users = seat_users(game)
    opening = Event.objects.filter(game=game, created_at=game.wait_opened_at).order_by("seq")
    earlier = Event.objects.filter(game=game, seq__lt=opening.first().seq).order_by("-seq")
    earlier.filter(pk=earlier.first().pk).update(
        created_at=game.wait_opened_at + timedelta(seconds=1)
    )

    with pytest.raises(StaleVersion):
        services.act(users[slapper], game.pk, before, {"type": "slap"})

    assert _slaps(game, slapper, opened) == 0
