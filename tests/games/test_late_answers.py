"""A window closes at its deadline, whatever the worker is doing (live review, 2026-12-01).

The window's timeout task runs a moment after the deadline, later when the worker is busy or
down; meanwhile answers were still taken: a race won ten seconds after its window closed, a
raised hand after the show of hands ended. Time passes here on a controlled clock, with no
worker: exactly the stretch between the deadline and its task."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.services import api_token_create
from games import services
from games.engines import registry
from games.errors import AlreadyAnswered, StaleVersion, TooLate
from games.models import Event, Game
from tests.games.helpers import seat_users

pytestmark = pytest.mark.django_db

ENGINE = registry.get("imperador")


class Clock:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = timezone.now()
        monkeypatch.setattr(timezone, "now", lambda: self.now)

    def past(self, deadline) -> None:
        self.now = deadline + timedelta(milliseconds=100)


def _show_of_hands(game: Game) -> Game:
    """Plays the emperor's announcement through the service: the window opens."""
    users = seat_users(game)
    for _step in range(4):
        game.refresh_from_db()
        if game.state["phase"] == "hands":
            return game
        (seat,) = ENGINE.waiting_for(game.state).seats
        action = ENGINE.legal_actions(game.state, seat)[0]
        services.act(users[seat], game.pk, game.version_for(seat), action)
    raise AssertionError("no show of hands")


def test_an_answer_after_the_deadline_is_too_late_and_the_window_closed_without_it(
    started, monkeypatch
):
    clock = Clock(monkeypatch)
    game = _show_of_hands(started("imperador", pace="custom", move_seconds=60, window_seconds=5))
    asked = ENGINE.waiting_for(game.state).seats
    seat = asked[0]
    user = seat_users(game)[seat]
    clock.past(game.deadline_at)

    with pytest.raises(TooLate):
        services.act(user, game.pk, game.version_for(seat), {"type": "hand", "choice": "raise"})

    game.refresh_from_db()
    assert game.state["phase"] != "hands"
    kinds = [e["kind"] for row in game.events.order_by("seq") for e in row.events]
    assert "hands_window_timed_out" in kinds
    assert not Event.objects.filter(game=game, actor=user, action__type="hand").exists()
    shown = next(
        e["data"]["hands"]
        for row in game.events.all()
        for e in row.events
        if e["kind"] == "hands_shown"
    )
    assert shown[seat] != "raise"  # a missing answer counts as down


def test_the_api_never_shows_a_window_open_past_its_deadline(started, monkeypatch):
    clock = Clock(monkeypatch)
    game = _show_of_hands(started("imperador", pace="custom", move_seconds=60, window_seconds=5))
    seat = ENGINE.waiting_for(game.state).seats[0]
    _token, raw = api_token_create(seat_users(game)[seat], "script")
    api = Client(headers={"Authorization": f"Bearer {raw}"})
    assert api.get(f"/api/games/{game.pk}").json()["waiting_for"]["kind"] == "window"
    clock.past(game.deadline_at)

    answer = api.get(f"/api/games/{game.pk}").json()

    assert answer["waiting_for"]["kind"] != "window"
    assert answer["view"]["phase"] != "hands"


def test_a_bots_moment_taken_after_the_deadline_closes_the_window(alice, monkeypatch):
    """The bots' moment of a window, its task late: the window is closed at the deadline
    (the bots that still owe answer in the timeout's change), the moment is spent, and the
    person's answer to that window that follows is not taken."""
    clock = Clock(monkeypatch)
    lobby = services.game_create(
        alice,
        engine="imperador",
        seats=3,
        bots=2,
        pace="custom",
        move_seconds=60,
        window_seconds=5,
        options={"first_seat": 1},  # a bot is the first emperor: she is asked at once
    )
    game = services.game_start(alice, lobby.pk)
    game.refresh_from_db()
    assert game.state["phase"] == "hands"
    seat = game.seats.get(user=alice).index
    assert seat in ENGINE.waiting_for(game.state).seats and game.bots_at is not None
    version, wait = game.version_for(seat), game.wait_seq
    clock.past(max(game.deadline_at, game.bots_at))

    spent = game.bots_at
    assert services.apply_bot_moment(game.pk, at=spent)

    game.refresh_from_db()
    assert game.wait_seq > wait  # that window is over (a bot emperor may open the next one)
    kinds = [e["kind"] for row in game.events.order_by("seq") for e in row.events]
    assert "hands_window_timed_out" in kinds
    # the moment is spent: the next wait has a moment of its own, still to come (the spent one
    # held the game with no task to take it)
    assert game.bots_at is None or game.bots_at > clock.now
    assert not services.apply_bot_moment(game.pk, at=spent)
    # her answer to the closed window: not taken; "too late" if no window asks her now, else
    # "the game moved on" (the answer is one to the new window, made on an old page)
    asked_now = seat in ENGINE.waiting_for(game.state).seats
    with pytest.raises(StaleVersion) as refused:
        services.act(alice, game.pk, version, {"type": "hand", "choice": "down"})
    assert type(refused.value) is (StaleVersion if asked_now else TooLate)
    assert not Event.objects.filter(game=game, actor=alice).exists()


def test_a_second_answer_to_an_open_window_says_the_first_counts(started):
    """A second show of hands from the same page was answered "Too late: the moment
    passed", while the window was still open and her first answer stood."""
    game = _show_of_hands(started("imperador", pace="custom", move_seconds=60, window_seconds=5))
    seat = ENGINE.waiting_for(game.state).seats[0]
    user = seat_users(game)[seat]
    seen = game.version_for(seat)
    services.act(user, game.pk, seen, {"type": "hand", "choice": "raise"})
    game.refresh_from_db()
    assert game.state["phase"] == "hands"  # the other one has not answered yet
    version = game.version

    with pytest.raises(AlreadyAnswered):
        services.act(user, game.pk, seen, {"type": "hand", "choice": "down"})

    game.refresh_from_db()
    assert game.version == version
    answers = Event.objects.filter(game=game, actor=user, action__type="hand")
    assert [e.action["choice"] for e in answers] == ["raise"]


def test_a_page_that_answers_a_window_closed_since_it_loaded_hears_too_late(started, monkeypatch):
    """The page matched the answer against what the seat may do now: an answer to a window
    that closed since (a race another won, a deadline) read "The game moved on since you
    loaded it", which reads as a page fault; the service's own "too late" says what happened
    (live review)."""
    clock = Clock(monkeypatch)
    game = _show_of_hands(started("imperador", pace="custom", move_seconds=60, window_seconds=5))
    seat = ENGINE.waiting_for(game.state).seats[0]
    page = Client()
    page.force_login(seat_users(game)[seat])
    form = {"version": str(game.version_for(seat)), "type": "hand", "f_choice": '"raise"'}
    clock.past(game.deadline_at)
    assert services.apply_if_expired(Game.objects.get(pk=game.pk))  # the window's timeout ran
    after = Game.objects.get(pk=game.pk)

    answer = page.post(f"/games/{game.pk}/act/", form, follow=True)

    said = [str(m) for m in answer.context["messages"]]
    assert said == ["Too late: the moment passed before your answer arrived."]
    assert Game.objects.get(pk=game.pk).version == after.version
