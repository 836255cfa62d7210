"""Scenario tests for the sleeve, the guard's accusations, secrecy and the bot."""

from __future__ import annotations

import copy
import random

import pytest

from games.engines.core import IllegalAction
from games.engines.mogel_motte import ENGINE
from tests.engines.mogel_motte.scramble import scramble_hidden
from tests.engines.mogel_motte.tables import act, card, code, counts, hand, kinds_of, play, table


def cheat(state, seat, wanted):
    return act(state, seat, {"type": "cheat", "card": card(state, seat, wanted)})


def accuse(state, target, wanted=None):
    guard = state["guard"]
    named = None if wanted is None else card(state, guard, wanted)
    return act(state, guard, {"type": "accuse", "target": target, "card": named})


def four():
    return table(
        [["N4", "N2", "A1"], ["M1", "N1", "N5"], ["Q5", "N1", "N5"], ["N4", "N5"]],
        top="N3",
        guard=0,
        draw=("N2", "N2", "N2"),
    )


# --- the sleeve --------------------------------------------------------------------------


def test_a_cheat_slips_the_card_up_the_sleeve_and_the_public_count_stays():
    state = four()
    after, events = cheat(state, 1, "M1")
    assert hand(after, 1) == ["N1", "N5"] and code(after, after["sleeves"][1]) == "M1"
    assert counts(after) == counts(state)
    fidget = next(e for e in events if e.kind == "fidget")
    assert fidget.to is None and "seat" not in fidget.data and "card" not in fidget.data
    assert [e.to for e in events if e.kind == "slipped"] == [(1,)]


def test_any_non_guard_may_cheat_on_or_off_turn_and_it_is_offered_to_each_of_them():
    state = four()
    for seat in (1, 2, 3):
        cheats = [a for a in ENGINE.legal_actions(state, seat) if a["type"] == "cheat"]
        assert {a["card"] for a in cheats} == set(state["hands"][seat])
    assert not [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "cheat"]


def test_the_guard_a_full_sleeve_and_a_last_card_forbid_cheating():
    state = four()
    with pytest.raises(IllegalAction) as caught:
        cheat(state, 0, "A1")
    assert caught.value.code == "guard_cannot_cheat"
    state, _ = cheat(state, 2, "Q5")
    with pytest.raises(IllegalAction) as caught:
        cheat(state, 2, "N1")  # two cards left in hand: only the full sleeve forbids it
    assert caught.value.code == "sleeve_full"
    state, _ = cheat(state, 3, "N4")
    state["sleeves"][3] = None
    with pytest.raises(IllegalAction) as caught:
        cheat(state, 3, "N5")
    assert caught.value.code == "last_card"


def test_a_sleeve_card_falls_to_the_floor_when_the_turn_after_ends():
    state = four()  # turn 5, seat 0 active
    state, _ = cheat(state, 2, "Q5")
    state, _ = play(state, 0, "N4")  # turn 6: seat 1
    assert state["sleeves"][2] is not None and state["turn"] == 6
    before = counts(state)
    state, events = play(state, 1, "N5")  # turn 6 ends: turn 7 begins
    assert state["sleeves"][2] is None and code(state, state["floor"][2][0]) == "Q5"
    assert counts(state)[2] == before[2] - 1
    fell = next(e for e in events if e.kind == "fell")
    assert fell.to is None and fell.data["seat"] == 2 and "card" not in fell.data
    assert ENGINE.view(state, 0)["floor_count"] == 1
    assert ENGINE.view(state, 2)["you"]["floor"][0]["kind"] == "mosquito"


def test_a_fallen_sleeve_card_that_leaves_its_owner_nothing_ends_the_round_with_them_out():
    state = table(
        [["N2", "N1", "N5"], ["N4", "M2"], ["N1", "N5", "N5"]], top="N3", guard=0, active=1
    )
    state, _ = cheat(state, 1, "M2")  # turn 5
    state, _ = play(state, 1, "N4")  # an empty hand, the sleeve keeps seat 1 in: turn 6
    assert state["round"] == 1 and counts(state)[1] == 1
    after, events = play(state, 2, "N5")  # turn 6 ends: the moth falls
    assert kinds_of(events).index("fell") < kinds_of(events).index("round_ended")
    summary = after["round_scores"][0]
    assert summary["reason"] == "out" and summary["out"] == [1]
    assert summary["scores"] == [3, 0, 2]


def test_windows_belong_to_the_turn_of_the_card_that_opened_them():
    state = table([["C2", "N1", "N5"], ["N1", "N2", "N5"], ["M1", "N5", "N4"]], top="N3", guard=0)
    state, _ = play(state, 0, "C2")  # turn 5, race window
    state, _ = cheat(state, 2, "M1")  # slipped during turn 5
    state, _ = act(state, 1, {"type": "race", "card": card(state, 1, "N2")})
    assert state["turn"] == 6 and state["sleeves"][2] is not None
    state, _ = play(state, 1, "N1")  # turn 6 ends
    assert state["sleeves"][2] is None and state["floor"][2]


# --- accusations -------------------------------------------------------------------------


def test_a_right_accusation_returns_the_card_hands_over_the_named_card_and_moves_the_bug():
    state, _ = cheat(four(), 1, "M1")
    after, events = accuse(state, 1, "A1")
    assert hand(after, 1) == ["A1", "M1", "N1", "N5"] and after["sleeves"][1] is None
    assert hand(after, 0) == ["N2", "N4"] and after["guard"] == 1
    public = next(e for e in events if e.kind == "accused")
    assert public.to is None and public.data["right"] and public.data["returned"]["kind"] == "moth"
    assert [e.to for e in events if e.kind == "handed_over"] == [(0, 1)]
    assert after["active"] == 0  # the turn goes on
    assert [a for a in ENGINE.legal_actions(after, 0) if a["type"] == "cheat"]


def test_a_right_accusation_by_a_guard_holding_only_moths_hands_over_nothing():
    state = table([["M1", "M2"], ["N1", "N5", "N2"], ["N1"]], top="N3", guard=0, active=1)
    state, _ = cheat(state, 1, "N5")
    accusations = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "accuse"]
    assert accusations == [
        {"type": "accuse", "target": 1, "card": None},
        {"type": "accuse", "target": 2, "card": None},
    ]
    after, _ = accuse(state, 1)
    assert hand(after, 0) == ["M1", "M2"] and hand(after, 1) == ["N1", "N2", "N5"]


def test_a_right_accusation_that_hands_over_the_guards_last_card_ends_the_round():
    state = table([["N2"], ["N4", "M2", "N1"], ["N1", "N5"]], top="N3", guard=0, active=1)
    state, _ = cheat(state, 1, "M2")
    after, events = accuse(state, 1, "N2")
    assert "round_ended" in kinds_of(events)
    summary = after["round_scores"][0]
    assert summary["reason"] == "out" and summary["out"] == [0]
    assert summary["scores"] == [0, 13, 2]  # N4 N1 N2 and the moth back in hand


def test_a_wrong_accusation_makes_the_guard_draw_and_keeps_the_named_card_secret():
    state = four()
    after, events = accuse(state, 2, "A1")
    assert len(after["hands"][0]) == 4 and after["guard"] == 0
    assert "A1" in hand(after, 0)
    accused = next(e for e in events if e.kind == "accused")
    assert accused.data["right"] is False and accused.data["returned"] is None
    assert "handed_over" not in kinds_of(events)


def test_the_accusation_hand_over_must_be_a_non_moth_card_of_the_guard():
    state = table([["M1", "N4", "N1"], ["N1", "N5"], ["N1"]], top="N3", guard=0)
    named = {a["card"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "accuse"}
    assert {code(state, c) for c in named} == {"N4", "N1"}
    with pytest.raises(IllegalAction):
        accuse(state, 1, "M1")
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "accuse", "target": 1, "card": None})
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "accuse", "target": 0, "card": card(state, 0, "N4")})


def test_only_the_guard_accuses_and_may_do_so_off_turn_and_during_a_window():
    state = table(
        [["Q2", "N1", "N5"], ["N1", "N2", "N5"], ["M1", "N5", "N4"]], top="N3", guard=2, active=0
    )
    state, _ = play(state, 0, "Q2")  # slap window: seats 1 and 2 asked
    state, _ = cheat(state, 0, "N5")
    with pytest.raises(IllegalAction) as caught:
        act(state, 1, {"type": "accuse", "target": 0, "card": card(state, 1, "N1")})
    assert caught.value.code == "not_guard"
    after, _ = accuse(state, 0, "N4")
    assert after["guard"] == 0 and after["phase"] == "slap"


def test_a_card_owed_as_a_gift_cannot_be_cheated_away():
    state = table(
        [["Q2", "N1", "N5"], ["N1", "M2", "M3"], ["M1", "N5", "N4"]], top="N3", guard=2, active=0
    )
    state, _ = play(state, 0, "Q2")
    state, _ = act(state, 2, {"type": "slap"})
    state, _ = act(state, 1, {"type": "slap"})  # seat 1 is slowest: 0 and 2 give
    cheats = {
        code(state, a["card"]) for a in ENGINE.legal_actions(state, 0) if a["type"] == "cheat"
    }
    assert cheats == {"N1", "N5"}  # two non-moths: either may go
    state, _ = act(state, 0, {"type": "gift", "card": card(state, 0, "N5")})
    cheats = {
        code(state, a["card"]) for a in ENGINE.legal_actions(state, 0) if a["type"] == "cheat"
    }
    assert cheats == {"N1"}
    lone = table([["Q2", "N1", "M2"], ["N5", "N2"], ["N1"]], top="N3", guard=2, active=0)
    lone, _ = play(lone, 0, "Q2")
    lone, _ = act(lone, None, {"type": "timeout"})  # seat 1 is slowest
    with pytest.raises(IllegalAction) as caught:
        cheat(lone, 0, "N1")
    assert caught.value.code == "reserved"


# --- secrecy -----------------------------------------------------------------------------


def test_while_catchable_no_other_view_tells_who_cheated():
    by_one, _ = cheat(four(), 1, "N1")
    by_two, _ = cheat(four(), 2, "N1")
    for seat in (None, 0, 3):
        assert ENGINE.view(by_one, seat) == ENGINE.view(by_two, seat)
    assert ENGINE.view(by_one, 1)["you"]["sleeve"]["kind"] == "number"
    assert ENGINE.view(by_one, 1)["you"]["sleeve_falls_after_turn"] == 6


def test_a_view_shows_only_its_own_hand_and_counts_for_the_others():
    state = four()
    view = ENGINE.view(state, 1)
    assert sorted(c["id"] for c in view["you"]["hand"]) == sorted(state["hands"][1])
    shown = str(view)
    for seat in (0, 2, 3):
        for c in state["hands"][seat]:
            assert f"'id': {c}," not in shown
    assert [s["count"] for s in view["seats"]] == [3, 3, 3, 2]
    assert "you" not in ENGINE.view(state, None)


# --- the bot -----------------------------------------------------------------------------


def test_the_bot_slips_a_moth_away_when_it_is_not_guard():
    state = four()
    assert ENGINE.bot_action(state, 1, random.Random(1)) == {
        "type": "cheat",
        "card": card(state, 1, "M1"),
    }


def test_the_bot_accuses_once_per_fresh_fidget_as_guard_as_an_aside():
    state = four()
    assert ENGINE.bot_aside(state, 0, random.Random(1)) is None
    assert ENGINE.bot_action(state, 0, random.Random(1))["type"] == "play"
    state, _ = cheat(state, 2, "N1")
    action = ENGINE.bot_aside(state, 0, random.Random(1))
    assert action["type"] == "accuse" and action["card"] == card(state, 0, "A1")
    assert ENGINE.bot_action(state, 0, random.Random(1))["type"] == "play", "its turn: it plays"
    state, _ = act(state, 0, action)
    if state["guard"] == 0:
        assert ENGINE.bot_aside(state, 0, random.Random(1)) is None
        assert ENGINE.bot_action(state, 0, random.Random(1))["type"] == "play"


def test_the_bot_cheats_as_an_aside_never_as_its_turns_move():
    state = table(
        [["M1", "N5", "N1", "N2"], ["N2", "N4"], ["N1", "N3"]], top="N3", guard=2, active=0
    )
    assert ENGINE.bot_action(state, 0, random.Random(1))["type"] == "play"
    assert ENGINE.bot_aside(state, 0, random.Random(1)) == {
        "type": "cheat",
        "card": card(state, 0, "M1"),
    }


def test_the_bot_races_and_slaps():
    state = table([["C2", "N5", "N1"], ["N2", "N4"], ["N1"]], top="N3", guard=0)
    state, _ = play(state, 0, "C2")
    assert ENGINE.bot_action(state, 1, random.Random(1)) == {
        "type": "race",
        "card": card(state, 1, "N2"),
    }
    state = table([["Q2", "N5", "N1"], ["N2", "N4"], ["N1"]], top="N3", guard=0)
    state, _ = play(state, 0, "Q2")
    assert ENGINE.bot_action(state, 2, random.Random(1)) == {"type": "slap"}


def test_the_bot_beats_random_players():
    wins = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = ENGINE.setup(4, {}, seed)
        while ENGINE.result(state) is None:
            waiting = ENGINE.waiting_for(state)
            seat = rng.choice(waiting.seats)
            aside = ENGINE.bot_aside(state, 0, rng) if rng.random() < 0.2 else None
            if aside is not None:  # the platform offers the bot an aside at every change
                state, _ = act(state, 0, aside)
                continue
            legal = ENGINE.legal_actions(state, seat)
            action = ENGINE.bot_action(state, 0, rng) if seat == 0 else rng.choice(legal)
            assert action in legal
            state, _ = act(state, seat, action)
        wins += 0 in ENGINE.result(state)["winners"]
    assert wins >= 8


def test_nobody_sees_who_has_slapped():
    state = table(
        [["Q2", "N1", "N5"], ["N1", "N2", "N5"], ["M1", "N5", "N4"]], top="N3", guard=2, active=0
    )
    slapping, _ = play(state, 0, "Q2")
    after, events = act(slapping, 1, {"type": "slap"})
    for seat in (None, 0, 2):
        assert ENGINE.view(after, seat) == ENGINE.view(slapping, seat)
    assert ENGINE.waiting_for(after).shown == (1, 2) and ENGINE.waiting_for(after).seats == (2,)
    assert all(e.to == (1,) for e in events)


def test_the_scrambler_changes_every_secret_without_changing_other_views():
    state = table(
        [["Q2", "N1", "N5", "A3"], ["N1", "N2", "N5"], ["M1", "N5", "N4"], ["S1", "N4", "N2"]],
        top="N3",
        guard=3,
        active=0,
    )
    state, _ = cheat(state, 1, "N5")
    state, _ = play(state, 0, "Q2")
    slap, _ = act(state, 2, {"type": "slap"})
    gift = slap
    for seat in (1, 3):
        gift, _ = act(gift, seat, {"type": "slap"})
    gift, _ = act(gift, 0, {"type": "gift", "card": card(gift, 0, "A3")})
    rng = random.Random(3)
    for position, secrets in ((slap, ("slapped",)), (gift, ("chosen",))):
        for seat in (None, 0, 2, 3):
            changed = set()
            for _ in range(30):
                other = scramble_hidden(copy.deepcopy(position), seat, rng)
                assert ENGINE.view(other, seat) == ENGINE.view(position, seat)
                changed |= {k for k in ("sleeves", "draw", "hands") if other[k] != position[k]}
                changed |= {k for k in secrets if other["window"][k] != position["window"][k]}
            assert changed == {"sleeves", "draw", "hands", *secrets}, (seat, changed)


# --- the safety cap on cheats and accusations (rules version 2) ---------------------------


def _accuse_wrongly(state, target):
    action = next(
        a
        for a in ENGINE.legal_actions(state, state["guard"])
        if a["type"] == "accuse" and a["target"] == target
    )
    return act(state, state["guard"], action)[0]


def test_a_turn_allows_at_most_twice_the_players_cheats_and_accusations_together():
    state = four()  # 4 players: 8 a turn
    state, _ = cheat(state, 1, "M1")
    for _ in range(7):
        state = _accuse_wrongly(state, 3)
    assert not [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "accuse"]
    assert not [a for a in ENGINE.legal_actions(state, 2) if a["type"] == "cheat"]
    with pytest.raises(IllegalAction) as caught:
        accuse(state, 1, "A1")
    assert caught.value.code == "asides_limit"
    state, _ = play(state, 0, "N2")  # the next turn begins: the guard may accuse again
    state, events = accuse(state, 1, "A1")
    assert next(e for e in events if e.kind == "accused").data["right"] is True


def test_a_game_started_under_rules_version_1_has_no_cap_on_cheats_and_accusations():
    state = four()
    state["rules_version"] = 1
    del state["asides"]
    for _ in range(12):
        state = _accuse_wrongly(state, 3)
    assert [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "accuse"]
