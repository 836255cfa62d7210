"""The contract every registered engine honours, checked over random whole games."""

from __future__ import annotations

import copy
import functools
import importlib
import json
import random

import pytest

from games.engines.core import Event, IllegalAction, Waiting
from games.engines.registry import ENGINES
from tests.engines.playthrough import canonical, package_of, play, positions, scrambler

CASES = [
    pytest.param(engine, players, id=f"{slug}-{players}p")
    for slug, engine in sorted(ENGINES.items())
    for players in range(engine.min_players, engine.max_players + 1)
]
GAMES_PER_CASE = 6


def runs(engine, players, policy="mixed", count=GAMES_PER_CASE):
    return list(_runs(engine.slug, players, policy, count))


@functools.cache
def _runs(slug, players, policy, count):
    """Shared by the tests below (none changes a playthrough): each game is played once."""
    engine = ENGINES[slug]
    return tuple(
        play(engine, players, seed=1000 * players + k, policy=policy) for k in range(count)
    )


def forged_variants(action):
    """Plausible forgeries of a legal action: every field pushed out of range or retyped."""
    yield {}
    yield {"type": "no-such-action"}
    yield "not an object"
    for key, value in action.items():
        if key == "type":
            continue
        for bad in (99, -1, "x", None, True, [value]):
            forged = dict(action)
            forged[key] = bad
            yield forged
        missing = dict(action)
        del missing[key]
        yield missing


@pytest.mark.parametrize(("engine", "players"), CASES)
@pytest.mark.slow
def test_every_legal_action_is_accepted_and_everything_else_is_refused_unchanged(engine, players):
    rng = random.Random(players)
    for run in runs(engine, players, count=3):
        for state in positions(run):
            before = canonical(state)
            for seat in range(players):
                legal = engine.legal_actions(state, seat)
                for action in rng.sample(legal, min(len(legal), 12)):
                    json.dumps(action)
                    engine.apply(state, seat, action)
                    assert canonical(state) == before, "apply mutated its input"
                pool = (
                    legal or [a for s in range(players) for a in engine.legal_actions(state, s)][:5]
                )
                for action in pool[:3]:
                    for forged in forged_variants(action):
                        if forged in legal:
                            continue
                        with pytest.raises(IllegalAction) as caught:
                            engine.apply(state, seat, forged)
                        assert caught.value.code and caught.value.message
                        assert canonical(state) == before
            if engine.waiting_for(state).kind != "window":
                with pytest.raises(IllegalAction):
                    engine.apply(state, None, {"type": "timeout"})
                assert canonical(state) == before


def look_alikes(action):
    """Values that ``==`` a legal one without being it (True for 1, 1.0 for 1), and an extra
    key: ``in legal_actions`` accepts the first and refuses the second, as is_legal must."""
    for key, value in action.items():
        if isinstance(value, int) and not isinstance(value, bool):
            yield {**action, key: float(value)}
            if value in (0, 1):
                yield {**action, key: bool(value)}
    yield {**action, "extra": 1}


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_is_legal_and_may_act_answer_what_the_legal_list_does(engine, players):
    rng = random.Random(players)
    for run in runs(engine, players, count=2):
        # every action legal somewhere in the game: offered where it is not (a peek once all
        # have seen the card, a card no longer in hand, a pass to a player who saw it)
        anywhere = {
            json.dumps(a, sort_keys=True): a
            for state in positions(run)
            for s in range(players)
            for a in engine.legal_actions(state, s)
        }
        for state in positions(run):
            before = canonical(state)
            everyone = [a for s in range(players) for a in engine.legal_actions(state, s)]
            for seat in [*range(players), None, -1, players]:
                legal = engine.legal_actions(state, seat)
                assert engine.may_act(state, seat) == bool(legal)
                candidates = [*everyone[:40], *everyone[-10:]]
                candidates += rng.sample(list(anywhere.values()), min(len(anywhere), 40))
                for action in everyone[:3] + everyone[-3:]:
                    candidates += [*forged_variants(action), *look_alikes(action)]
                for action in candidates:
                    assert engine.is_legal(state, seat, action) == (action in legal), action
            assert canonical(state) == before


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_games_end_and_are_deterministic_replayable_and_json_safe(engine, players):
    for policy in ("bot", "random", "mixed"):
        for run in runs(engine, players, policy=policy):
            assert engine.result(run.final) is not None
            assert engine.waiting_for(run.final) == Waiting.nobody()
            assert all(not engine.legal_actions(run.final, s) for s in range(players))
            assert engine.setup(players, {}, run.seed) == engine.setup(players, {}, run.seed)
            state = json.loads(json.dumps(engine.setup(players, {}, run.seed)))
            for step in run.steps:
                assert canonical(state) == canonical(step.state)
                action = json.loads(json.dumps(step.action))
                state, events = engine.apply(state, step.seat, action)
                state = json.loads(json.dumps(state))
                for event in events:
                    assert isinstance(event, Event)
                    assert Event.from_dict(json.loads(json.dumps(event.to_dict()))) == event
            assert canonical(state) == canonical(run.final), (
                "replay did not rebuild the final state"
            )
            result = engine.result(run.final)
            assert set(result) >= {"winners", "losers", "reason"}
            assert result["winners"] or result["losers"]


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_every_card_is_in_exactly_one_place_after_every_action(engine, players):
    for run in runs(engine, players):
        total = None
        for state in positions(run):
            zones = engine.card_zones(state)
            cards = sorted(card for zone in zones.values() for card in zone)
            total = total or len(cards)
            assert cards == list(range(total)), f"cards lost or duplicated: {zones}"


@pytest.mark.parametrize(("engine", "players"), CASES)
@pytest.mark.slow
def test_nothing_a_seat_may_not_know_changes_its_view(engine, players):
    scramble = scrambler(engine)
    rng = random.Random(7 * players)
    changed = 0
    checked = 0
    for run in runs(engine, players):
        for state in positions(run):
            over = engine.result(state) is not None
            for seat in [None, *range(players)]:
                shown = canonical(engine.view(state, seat))
                if over:
                    assert shown == canonical(engine.view(state, None)), (
                        "the end reveals the same to all"
                    )
                    continue
                other = scramble(copy.deepcopy(state), seat, rng)
                changed += canonical(other) != canonical(state)
                checked += 1
                assert canonical(engine.view(other, seat)) == shown, (
                    f"seat {seat} can see hidden info"
                )
    assert checked >= 100
    assert changed > checked // 4, "the scrambler hardly changed anything: the test proves nothing"


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_waiting_seats_have_moves_and_the_public_waiting_list_is_well_formed(engine, players):
    for run in runs(engine, players, count=2):
        for state in positions(run):
            waiting = engine.waiting_for(state)
            for seat in waiting.seats:
                assert engine.legal_actions(state, seat), (
                    f"waiting on seat {seat} with no legal action"
                )
            public_waiting = waiting.to_public_dict()
            assert json.loads(json.dumps(public_waiting)) == public_waiting


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_window_answers_are_legal_in_windows_only_and_every_window_takes_one(engine, players):
    """``window_answers`` tells a late answer to a window ("too late") from a move made on a
    page gone stale: it must name exactly what answers a window."""
    for run in runs(engine, players, count=2):
        for state in positions(run):
            waiting = engine.waiting_for(state)
            for seat in range(players):
                kinds = {a["type"] for a in engine.legal_actions(state, seat)}
                if waiting.kind == "window" and seat in waiting.seats:
                    assert kinds & engine.window_answers, (waiting.window, kinds)
                else:
                    assert not kinds & engine.window_answers, (waiting.kind, seat, kinds)


# --- the firmer contract (issue 11) --------------------------------------------------------------


def vandalise(value):
    """Changes every list and dict inside ``value``, as a careless caller might."""
    if isinstance(value, dict):
        for item in list(value.values()):
            vandalise(item)
        value["vandal"] = True
    elif isinstance(value, list):
        for item in list(value):
            vandalise(item)
        value.append("vandal")


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_changing_what_view_result_and_legal_actions_return_never_changes_the_game(engine, players):
    for run in runs(engine, players, count=2):
        for state in positions(run):
            before = canonical(state)
            calls = [(engine.view, (state, s)) for s in [None, *range(players)]]
            calls += [(engine.legal_actions, (state, s)) for s in range(players)]
            calls.append((engine.result, (state,)))
            for function, args in calls:
                first = function(*args)
                expected = canonical(first)
                vandalise(first)
                assert canonical(state) == before, "a caller's change reached the state"
                assert canonical(function(*args)) == expected, "a caller's change came back"


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_an_action_with_a_field_its_type_does_not_have_is_refused(engine, players):
    for run in runs(engine, players, count=2):
        for state in positions(run):
            before = canonical(state)
            for seat in range(players):
                for action in engine.legal_actions(state, seat):
                    with pytest.raises(IllegalAction) as caught:
                        engine.apply(state, seat, {**action, "note": "hello"})
                    assert caught.value.code == "unknown_field", (action, caught.value)
            if engine.waiting_for(state).kind == "window":
                with pytest.raises(IllegalAction) as caught:
                    engine.apply(state, None, {"type": "timeout", "why": "late"})
                assert caught.value.code == "unknown_field"
            assert canonical(state) == before


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_no_game_is_longer_than_the_engines_declared_longest_game(engine, players):
    bound = engine.max_moves(players)
    assert isinstance(bound, int) and bound > 0
    longest = 0
    for policy in ("bot", "random", "mixed"):
        for run in runs(engine, players, policy=policy):
            longest = max(longest, len(run.steps))
    assert longest <= bound, f"a game took {longest} moves, max_moves says {bound}"


def _bot_module(engine):
    return importlib.import_module(f"games.engines.{package_of(engine)}.bot")


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_the_bot_decides_from_its_seats_view_and_legal_actions_only(engine, players):
    decide = _bot_module(engine).decide
    scramble = scrambler(engine)
    rng = random.Random(11 * players)
    compared = 0
    for run in runs(engine, players, count=2):
        for state in positions(run):
            if engine.result(state) is not None:
                continue
            for seat in range(players):
                legal = engine.legal_actions(state, seat)
                if not legal:
                    continue
                key = rng.randrange(10**6)
                chosen = engine.bot_action(state, seat, random.Random(key))
                view = engine.view(state, seat)
                assert decide(view, legal, random.Random(key)) == chosen
                # Everything the seat may not know, changed: the same decision.
                other = scramble(copy.deepcopy(state), seat, rng)
                assert engine.bot_action(other, seat, random.Random(key)) == chosen
                compared += 1
    assert compared >= 50


ASIDE_CASES = [case for case in CASES if case.values[0].bot_asides]


@pytest.mark.parametrize(("engine", "players"), ASIDE_CASES)
def test_a_bots_own_out_of_turn_move_is_always_legal(engine, players):
    """``bot_aside`` drops an illegal aside silently, so the bot's own choice is checked
    here, before that safety net: every aside it proposes is one of the seat's legal moves."""
    aside = _bot_module(engine).aside
    proposed = 0
    for run in runs(engine, players, count=2):
        for state in positions(run):
            for seat in range(players):
                legal = engine.legal_actions(state, seat)
                if not legal:
                    continue
                action = aside(engine.view(state, seat), legal, random.Random(seat))
                if action is not None:
                    assert action in legal, (seat, action)
                    proposed += 1
    assert proposed >= 50


@pytest.mark.parametrize("engine", [ENGINES[slug] for slug in sorted(ENGINES)], ids=sorted(ENGINES))
def test_every_engine_names_its_starting_seat_option_first_seat(engine):
    assert engine.start_option == "first_seat"
    for seat in range(engine.min_players):
        chosen = engine.setup(engine.min_players, {"first_seat": seat}, 5)
        assert engine.waiting_for(chosen).seats == (seat,)
    with pytest.raises(IllegalAction):
        engine.setup(engine.min_players, {"first_seat": engine.min_players}, 5)


@pytest.mark.parametrize("engine", [ENGINES[slug] for slug in sorted(ENGINES)], ids=sorted(ENGINES))
def test_every_name_of_the_starting_seat_option_is_read_alike(engine):
    assert engine.start_options[0] == engine.start_option
    seat = engine.min_players - 1
    wanted = engine.setup(engine.min_players, {engine.start_option: seat}, 5)
    for name in engine.start_options[1:]:
        assert engine.setup(engine.min_players, {name: seat}, 5) == wanted, name


def test_the_rules_decide_who_may_pick_the_starting_seat():
    # Cockroach Poker Royal and Mogel Motte: the table's creator picks [D]; Imperador: "the
    # first emperor is drawn at random [D]"
    assert {slug: e.creator_picks_start for slug, e in ENGINES.items()} == {
        "cockroach-poker-royal": True,
        "mogel-motte": True,
        "imperador": False,
    }
