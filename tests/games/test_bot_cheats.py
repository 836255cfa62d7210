"""Bots cheat like people: neither the moment nor the shape of a bot's sleeve cheat tells a
guard which bot made it, or that a bot and not a person made it; and a person's secret answer
never makes a bot act where the table can see it. Driven through the one change path, with
time passing on a simulated clock: each bots' moment is taken at its time by what its
countdown task runs (``tasks.bot_moment``), as in production; the bots' randomness is seeded
(``bot_time.new_rng``), so a run repeats."""

from __future__ import annotations

import itertools
import random
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import pytest
from django.utils import timezone

from games import selectors, services, tasks
from games.engines import registry
from games.engines.core import Waiting
from games.models import Event, Game
from games.services import bot_time
from games.services.change import GameChange
from tests.games.helpers import seat_users

pytestmark = pytest.mark.django_db

ENOUGH_CHEATS = 200
THINK_SECONDS = 10.0  # a person answers within this: under the Live pace's 15 s windows
ENGINE = registry.get("mogel-motte")


class Clock:
    """``timezone.now`` under the test's control: time passes only when the test says so."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = timezone.now()
        monkeypatch.setattr(timezone, "now", lambda: self.now)

    def to(self, at: datetime) -> None:
        self.now = max(self.now, at)


@pytest.fixture
def clock(monkeypatch):
    seeds = itertools.count(1)
    monkeypatch.setattr(bot_time, "new_rng", lambda: random.Random(next(seeds)))
    return Clock(monkeypatch)


def time_passes(game: Game, clock: Clock, seconds: float, seen: Any = None) -> None:
    """``seconds`` pass: each bots' moment and each deadline due within them is taken at its
    time by what its task runs (a move after a passed deadline is too late: the worker would
    have closed that wait); ``seen(game)`` is called after each (what a player observes,
    change by change)."""
    end = clock.now + timedelta(seconds=seconds)
    for _moment in range(10_000):
        due, deadline, wait = Game.objects.values_list("bots_at", "deadline_at", "wait_seq").get(
            pk=game.pk
        )
        coming = [at for at in (deadline, due) if at is not None and at <= end]
        if not coming:
            break
        clock.to(min(coming))
        if deadline is not None and deadline == min(coming):
            tasks.apply_deadline(game.pk, wait)
        else:
            tasks.bot_moment(game.pk, due.isoformat())
        if seen is not None:
            seen(game)
    else:
        raise AssertionError("the bots' moments and deadlines never stop coming")
    clock.to(end)


def live_table(creator: Any, seats: int, bots: int, invite: list[Any] = ()) -> Game:
    game = services.game_create(
        creator,
        engine="mogel-motte",
        seats=seats,
        bots=bots,
        pace="live",
        invite=[u.username for u in invite],
    )
    for user in invite:
        services.game_join(user, game.pk)
        services.seat_ready(user, game.pk)  # a Live table starts when everyone is there
    services.game_start(creator, game.pk)
    game.refresh_from_db()
    return game


def public_seat(row: Event) -> int | None:
    """The seat a row's public events name as acting (a played card, a race), if any."""
    for event in row.events:
        if event["to"] is None and isinstance(event["data"].get("seat"), int):
            return event["data"]["seat"]
    return None


def owed_move(game: Game, seat: int, rng: random.Random) -> dict | None:
    """What a person owes at ``seat`` now, chosen as the bot would, never a cheat or an
    accusation; None when the seat owes nothing."""
    legal = ENGINE.legal_actions(game.state, seat)
    owed = [a for a in legal if a["type"] not in ("cheat", "accuse")]
    if not owed:
        return None
    action = ENGINE.bot_action(game.state, seat, rng)
    return action if action in owed else rng.choice(owed)


def record_notices(seen: dict[tuple[int, int], dict], game: Game) -> None:
    """The fidget notices seat 0's view shows now, as first seen."""
    game.refresh_from_db()
    for fidget in ENGINE.view(game.state, 0)["fidgets"]:
        seen.setdefault((fidget["n"], fidget["turn"]), dict(fidget))


@pytest.mark.slow
def test_a_guard_names_a_bot_cheater_no_better_than_chance(alice, clock):
    """Estimators, from what the human seat reads (its view's fidget notices, which carry the
    seat on turn and the guard, and the public event rows): (a) the seat on turn when the fidget
    appeared — the attack that named the cheater 43 times out of 45 — and (b) the last seat a
    public row named as acting before the fidget. Chance: 1 / the bots that could have cheated
    (not the guard). Each estimator's accuracy over 200+ bot cheats stays under chance + 10 %."""
    rng = random.Random(3)
    hits = {"on_turn": 0, "last_actor": 0}
    chance = 0.0
    cheats = 0
    for _table in range(60):
        game = live_table(alice, seats=4, bots=3)
        seen: dict[tuple[int, int], dict] = {}
        notices = partial(record_notices, seen)
        while cheats + len(seen) < ENOUGH_CHEATS:
            time_passes(game, clock, rng.uniform(0, THINK_SECONDS), notices)
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            action = owed_move(game, 0, rng)
            if action is None:
                continue  # a window only the bots still owe: their moments are coming
            # The human never cheats or accuses: every fidget here is a bot's.
            services.act(alice, game.pk, game.version_for(0), action)
            notices(game)
        rows = list(Event.objects.filter(game=game).order_by("seq"))
        for index, row in enumerate(rows):
            for event in row.events:
                if event["kind"] != "fidget":
                    continue
                key = (event["data"]["n"], event["data"]["turn"])
                if key not in seen:
                    continue
                notice = seen[key]
                cheater = row.seat
                assert cheater != 0
                candidates = [s for s in (1, 2, 3) if s != notice["guard"]]
                chance += 1 / len(candidates)
                hits["on_turn"] += notice["active"] == cheater
                before = [public_seat(r) for r in rows[:index]]
                named = [s for s in before if s is not None]
                hits["last_actor"] += bool(named) and named[-1] == cheater
                cheats += 1
        if cheats >= ENOUGH_CHEATS:
            break
    assert cheats >= ENOUGH_CHEATS
    chance /= cheats
    for estimator, right in hits.items():
        accuracy = right / cheats
        assert accuracy <= chance + 0.10, (estimator, accuracy, chance, cheats)


class Watcher:
    """What alice observes, change by change: her revision (each step is one socket frame
    and one step of the page's ``data-revision``) and the event rows it brings."""

    def __init__(self, game: Game, alice: Any) -> None:
        self.game, self.alice = game, alice
        game.refresh_from_db()
        self.revision = game.revision_for(0)
        self.rows = len(selectors.events_for(game, alice))
        self.changes: list[list[dict]] = []

    def look(self, game: Game) -> None:
        game.refresh_from_db()
        if game.revision_for(0) == self.revision or game.is_over:
            return  # (once it is over, everything shows: that last change is not one to read)
        self.revision = game.revision_for(0)
        rows = selectors.events_for(game, self.alice, after=self.rows)
        self.rows += len(rows)
        self.changes.append(rows)


@pytest.mark.slow
def test_a_cheat_comes_alone_in_its_change_whether_a_bot_or_a_person_made_it(trio, clock):
    """Alice watches bob (a person) and two bots cheat. Every fidget she sees is the only row
    of its change, with its own time: its shape says nothing of who made it. (A bot's cheat
    used to ride inside another player's change, never first: 51 of 51 told apart.)"""
    alice, bob, _carol = trio
    rng = random.Random(5)
    alone = {"bot": 0, "person": 0}
    for _table in range(40):
        game = live_table(alice, seats=4, bots=2, invite=[bob])
        users = seat_users(game)
        watcher = Watcher(game, alice)
        for _step in range(400):
            time_passes(game, clock, rng.uniform(0, THINK_SECONDS), watcher.look)
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            for seat, user in users.items():
                game.refresh_from_db()
                if game.status != Game.Status.ACTIVE:
                    break
                legal = ENGINE.legal_actions(game.state, seat)
                cheats = [a for a in legal if a["type"] == "cheat"]
                action = owed_move(game, seat, rng)
                if user == bob and cheats and rng.random() < 0.15:
                    action = rng.choice(cheats)
                if action is not None:
                    services.act(user, game.pk, game.version_for(seat), action)
                    watcher.look(game)
        for change in watcher.changes:
            for index, row in enumerate(change):
                if not any(e["kind"] == "fidget" for e in row["events"]):
                    continue
                assert index == 0 and len(change) == 1, change
                assert [e["kind"] for e in row["events"]] == ["fidget"], row
        bots = {s for s in range(4) if s not in users}
        for row in Event.objects.filter(game=game).order_by("seq"):
            if any(e["kind"] == "fidget" for e in row.events):
                alone["bot" if row.seat in bots else "person"] += 1
        if min(alone.values()) >= 30:
            break
    assert min(alone.values()) >= 30, alone


@pytest.mark.slow
def test_a_secret_decline_never_makes_a_bot_race_where_others_see_it(trio, clock):
    """Bob declines a cockroach race in secret while a bot holding a card that races still
    owes it — alice still owing it too, or having declined already: alice observes nothing (no
    frame, no row) until the bots' own moment. The bots used to answer inside bob's change,
    half the time (always, once he was the last person owing), with a public race."""
    alice, bob, _carol = trio
    rng = random.Random(7)
    declines_with_a_racing_bot = 0
    last_person = {False: 0, True: 0}  # bob's decline left no person owing the race
    for _table in range(80):
        game = live_table(alice, seats=3, bots=1, invite=[bob])
        users = seat_users(game)
        bot = next(s for s in range(3) if s not in users)
        for _step in range(300):
            time_passes(game, clock, rng.uniform(0, THINK_SECONDS))
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            state = game.state
            waiting = ENGINE.waiting_for(state)
            bob_seat = next(s for s, u in users.items() if u == bob)
            alice_seat = next(s for s, u in users.items() if u == alice)
            racing_bot = (
                any(a["type"] == "race" for a in ENGINE.legal_actions(state, bot))
                and bot in waiting.seats
            )
            if waiting.window == "race" and racing_bot and bob_seat in waiting.seats:
                if alice_seat in waiting.seats and rng.random() < 0.5:
                    # alice declines first: bob's decline then leaves no person owing
                    services.act(alice, game.pk, game.version_for(alice_seat), {"type": "decline"})
                    game.refresh_from_db()
                last_person[alice_seat not in ENGINE.waiting_for(game.state).seats] += 1
                before = (game.revision_for(alice_seat), len(selectors.events_for(game, alice)))
                services.act(bob, game.pk, game.version_for(bob_seat), {"type": "decline"})
                game.refresh_from_db()
                after = (game.revision_for(alice_seat), len(selectors.events_for(game, alice)))
                assert after == before
                declines_with_a_racing_bot += 1
                continue
            for seat, user in users.items():
                game.refresh_from_db()
                if game.status != Game.Status.ACTIVE:
                    break
                action = owed_move(game, seat, rng)
                if action is not None:
                    services.act(user, game.pk, game.version_for(seat), action)
        if declines_with_a_racing_bot >= 12 and min(last_person.values()) >= 3:
            break
    assert declines_with_a_racing_bot >= 12 and min(last_person.values()) >= 3, last_person


def test_the_sweep_takes_a_moment_only_once_its_task_was_lost(alice, clock):
    """The beat's sweep runs every few seconds at a fixed phase: a moment it took would be
    stamped on that beat ("a bot", to the second). It leaves a due moment to its countdown
    task, and takes one only when it is overdue by the grace (the task was lost)."""
    game = live_table(alice, seats=3, bots=2)
    first = game.bots_at
    assert first is not None
    clock.to(first + timedelta(seconds=1))
    services.sweep_due()
    assert Game.objects.get(pk=game.pk).bots_at == first  # due, but its task's to take
    clock.to(first + timedelta(seconds=bot_time.MOMENT_GRACE_SECONDS + 1))
    services.sweep_due()
    assert Game.objects.get(pk=game.pk).bots_at != first  # lost: the sweep took it


def test_a_failing_moment_does_not_hold_back_the_deadline(alice, clock, monkeypatch):
    """A moment that fails is tried again later on its own; the game's deadline, due in the
    same sweep, is applied and no failure is booked against it."""
    game = live_table(alice, seats=3, bots=2)

    def broken(self, rng):
        raise RuntimeError("a bug in a bot")

    monkeypatch.setattr(GameChange, "take_bot_moment", broken)
    game.refresh_from_db()
    clock.to(max(game.deadline_at, game.bots_at) + timedelta(seconds=60))
    wait, version = game.wait_seq, game.version
    services.sweep_due()
    game.refresh_from_db()
    assert game.wait_seq != wait and game.version > version  # the deadline was applied
    assert game.sweep_failures == 0 and game.sweep_after is None
    assert game.bots_at > clock.now  # the moment is tried again later


def test_a_table_gone_live_draws_its_bots_moment_again_at_the_live_pace(alice, clock):
    """A relaxed table's aside moment may be days away; once its players switch to the Live
    pace, the next change draws one within a live turn's span."""
    game = services.game_create(alice, engine="mogel-motte", seats=3, bots=2, pace="relaxed")
    services.game_start(alice, game.pk)
    game.refresh_from_db()
    engine = registry.get(game.engine)
    seats = list(game.seats.all())

    def next_moment() -> Any:
        return bot_time.next_moment(
            game,
            engine,
            Waiting.turn(0),  # a person's turn
            seats,
            clock.now,
            current=clock.now + timedelta(days=2),
            window_opened=False,
            rng=random.Random(1),
        )

    assert next_moment() == clock.now + timedelta(days=2)  # within a relaxed turn's 3 days: kept
    game.live_since = clock.now
    live = next_moment()
    assert live is not None and live <= clock.now + timedelta(seconds=60)
