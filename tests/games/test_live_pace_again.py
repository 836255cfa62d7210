"""A declined proposal of the Live pace keeps its proposer from proposing again at that table
for a few minutes (games/services/pace.py, PROPOSE_AGAIN_AFTER): proposing and declining over
and over wrote a history row and refreshed every open page of the table each round. The page
offers no button meanwhile and says until when; a forged form is refused in the reader's
language and leaves the game as it was; after the wait the button is back."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone

from accounts import notifications
from games import services
from games.errors import GameError
from games.models import Game, PaceSwitch
from games.services import pace
from tests.games.helpers import seat_users

pytestmark = pytest.mark.django_db

BUTTON = "Everyone is here: play live now"
NOTE = "Your proposal to play live was declined: you can propose it again at"
DATA_TAG = re.compile(r'data-tag="([^"]*)"')


def _present_pages(game: Game, users: dict) -> dict[int, Client]:
    """Each seat's player signed in with the table open (present: they may go live)."""
    pages = {}
    for seat, user in users.items():
        pages[seat] = Client()
        pages[seat].force_login(user)
        assert pages[seat].get(f"/games/{game.pk}/").status_code == 200
    return pages


def _snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    rows = list(PaceSwitch.objects.filter(game=game).values_list("pk", "kind", "seat"))
    return (game.revision, game.version, game.live_offer, game.live_since, rows)


def _later(monkeypatch, by: timedelta) -> None:
    moved = timezone.now() + by
    monkeypatch.setattr(timezone, "now", lambda: moved)


def test_a_declined_proposer_may_propose_again_only_after_the_wait(started, monkeypatch):
    game = started("cockroach-poker-royal")  # daily pace
    users = seat_users(game)
    _present_pages(game, users)
    services.live_propose(users[0], game.pk)
    services.live_answer(users[1], game.pk, accept=False)

    before = _snapshot(game)
    with pytest.raises(GameError) as refused:
        services.live_propose(users[0], game.pk)
    assert refused.value.code == "propose_too_soon"
    assert NOTE in refused.value.message
    assert _snapshot(game) == before  # nothing written, nothing pinged

    # the wait is the proposer's: another player may propose at once (and be declined)
    services.live_propose(users[1], game.pk)
    services.live_answer(users[2], game.pk, accept=False)
    with pytest.raises(GameError):
        services.live_propose(users[0], game.pk)  # still waiting: another's decline is no reset

    _later(monkeypatch, pace.PROPOSE_AGAIN_AFTER - timedelta(seconds=5))
    with pytest.raises(GameError):
        services.live_propose(users[0], game.pk)
    _later(monkeypatch, timedelta(seconds=6))
    services.live_propose(users[0], game.pk)
    game.refresh_from_db()
    assert game.live_offer == [0]


def test_withdrawing_ones_own_proposal_counts_as_declined(started):
    """The proposer's own "No" (a forged form: the page offers them none) ends the proposal
    as another's would: the loop of one player alone."""
    game = started("cockroach-poker-royal")
    users = seat_users(game)
    _present_pages(game, users)
    services.live_propose(users[0], game.pk)
    services.live_answer(users[0], game.pk, accept=False)
    with pytest.raises(GameError) as refused:
        services.live_propose(users[0], game.pk)
    assert refused.value.code == "propose_too_soon"


def test_a_proposal_that_went_live_leaves_no_wait(started, monkeypatch):
    """Everyone accepted: the table went live, then fell back when a player left (the real
    fallback: a presence lapsed). Another proposal declined since is not this one's end: the
    first proposer may propose again as soon as everyone is back."""
    monkeypatch.setattr(notifications, "PRESENCE_SECONDS", 1)
    game = started("cockroach-poker-royal")
    users = seat_users(game)
    _present_pages(game, users)
    services.live_propose(users[0], game.pk)
    services.live_answer(users[1], game.pk, accept=True)
    services.live_answer(users[2], game.pk, accept=True)
    time.sleep(1.5)  # everyone's presence lapses
    assert services.live_check(game.pk)
    game.refresh_from_db()
    assert game.live_since is None
    monkeypatch.setattr(notifications, "PRESENCE_SECONDS", 60)
    pages = _present_pages(game, users)  # everyone is back
    services.live_propose(users[1], game.pk)
    services.live_answer(users[2], game.pk, accept=False)
    html = pages[0].get(f"/games/{game.pk}/").content.decode()
    assert BUTTON in html and NOTE not in html
    services.live_propose(users[0], game.pk)
    game.refresh_from_db()
    assert game.live_offer == [0]


def test_a_forged_proposal_during_the_wait_is_refused_in_the_readers_language(started):
    game = started("cockroach-poker-royal")
    users = seat_users(game)
    pages = _present_pages(game, users)
    users[0].language = "fr"
    users[0].time_zone = "Europe/Paris"
    users[0].save(update_fields=["language", "time_zone"])
    services.live_propose(users[0], game.pk)
    services.live_answer(users[1], game.pk, accept=False)
    before = _snapshot(game)

    answer = pages[0].post(f"/games/{game.pk}/live_propose/", follow=True)
    declined = PaceSwitch.objects.get(game=game, kind=PaceSwitch.Kind.DECLINED)
    again = (declined.created_at + pace.PROPOSE_AGAIN_AFTER).astimezone(ZoneInfo("Europe/Paris"))
    said = (
        "Votre proposition de jouer en direct a été refusée\u202f: vous pourrez la refaire "
        f"à partir de {again:%H:%M}."
    )
    assert said in answer.content.decode()  # the reader's language and time of day (Paris)
    assert _snapshot(game) == before


def test_the_button_is_hidden_during_the_wait_and_back_after_it(started, monkeypatch):
    game = started("cockroach-poker-royal")
    users = seat_users(game)
    pages = _present_pages(game, users)
    assert BUTTON in pages[0].get(f"/games/{game.pk}/").content.decode()
    services.live_propose(users[0], game.pk)
    services.live_answer(users[1], game.pk, accept=False)

    page = pages[0].get(f"/games/{game.pk}/").content.decode()
    assert BUTTON not in page
    assert NOTE in page and "data-refresh-at=" in page
    tag = DATA_TAG.search(page).group(1).replace("&quot;", '"')
    # the others are not told: the note is the proposer's own
    for seat in (1, 2):
        other = pages[seat].get(f"/games/{game.pk}/").content.decode()
        assert BUTTON in other and NOTE not in other
    # a refresh within the wait finds nothing new
    assert pages[0].get(f"/games/{game.pk}/live/", HTTP_IF_NONE_MATCH=tag).status_code == 304

    _later(monkeypatch, pace.PROPOSE_AGAIN_AFTER + timedelta(seconds=1))
    # the script's refresh at the note's time brings the button back (not a 304)
    fresh = pages[0].get(f"/games/{game.pk}/live/", HTTP_IF_NONE_MATCH=tag)
    assert fresh.status_code == 200
    assert BUTTON in fresh.content.decode() and NOTE not in fresh.content.decode()
    assert BUTTON in pages[0].get(f"/games/{game.pk}/").content.decode()
