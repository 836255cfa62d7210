"""Scenario tests for Mogel Motte's deck, turns, action cards and round ends."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from games.engines.core import IllegalAction, Waiting
from games.engines.mogel_motte import ENGINE, rules
from games.engines.mogel_motte.cards import SPLIT, faces
from tests.engines.mogel_motte.tables import act, card, code, counts, hand, kinds_of, play, table

# --- the deck and the deal ---------------------------------------------------------------


def test_the_deck_has_71_cards_split_by_value_as_decided():
    deck = Counter(faces())
    assert sum(deck.values()) == 71
    assert [deck[("number", v)] for v in range(1, 6)] == [9, 9, 9, 8, 8]
    assert [deck[("moth", v)] for v in range(1, 6)] == [2, 2, 2, 1, 1]
    for kind in ("ant", "cockroach", "mosquito", "spider"):
        assert [deck[(kind, v)] for v in range(1, 6)] == [1, 1, 1, 1, 1]
    assert SPLIT["number"] == (9, 9, 9, 8, 8)


def test_card_ids_do_not_map_to_kinds_across_games():
    decks = {ENGINE.setup(4, {}, seed)["deck"] for seed in range(5)}
    assert len(decks) == 5


def test_setup_deals_eight_each_turns_up_one_card_and_the_starting_guard_plays_first():
    state = ENGINE.setup(4, {"first_seat": 2}, seed=3)
    assert [len(h) for h in state["hands"]] == [8, 8, 8, 8]
    assert len(state["discard"]) == 1 and len(state["draw"]) == 71 - 33
    assert state["guard"] == state["active"] == state["starting_guard"] == 2
    assert ENGINE.waiting_for(state).kind == "turn" and ENGINE.waiting_for(state).seats == (2,)
    assert state["rounds"] == 4 and state["turn"] == 1


def test_the_first_guard_is_drawn_from_the_seed_unless_chosen():
    guards = {ENGINE.setup(5, {}, seed)["guard"] for seed in range(30)}
    assert len(guards) > 1
    assert ENGINE.setup(5, {}, 11) == ENGINE.setup(5, {}, 11)
    for bad in ({"first_seat": 5}, {"first_seat": "1"}, {"first_seat": True}, {"x": 1}):
        with pytest.raises(IllegalAction):
            ENGINE.setup(5, bad, 1)


def test_a_turned_up_action_card_only_counts_for_its_value():
    for seed in range(200):
        state = ENGINE.setup(3, {}, seed)
        if rules.kinds(state)[state["discard"][-1]] in ("cockroach", "mosquito", "spider"):
            assert state["phase"] == "play" and state["window"] is None
            return
    pytest.fail("no seed turned up an action card")


# --- a turn ------------------------------------------------------------------------------


def test_a_card_must_be_one_above_or_below_the_top_with_five_and_one_adjacent():
    state = table([["N1", "N2", "N3", "N4", "N5"], ["N1"], ["N1"]], top="N5")
    plays = {code(state, a["card"]) for a in ENGINE.legal_actions(state, 0) if a["type"] == "play"}
    assert plays == {"N1", "N4"}
    with pytest.raises(IllegalAction) as caught:
        play(state, 0, "N3")
    assert caught.value.code == "not_playable"


def test_action_cards_follow_the_same_plus_or_minus_one_rule():
    state = table([["A2", "S4", "N1"], ["N1"], ["N1"]], top="N3")
    plays = {code(state, a["card"]) for a in ENGINE.legal_actions(state, 0) if a["type"] == "play"}
    assert plays == {"A2", "S4"}


def test_playing_is_compulsory_so_drawing_is_refused_when_a_card_fits():
    state = table([["N4", "N1"], ["N1"], ["N1"]], top="N3")
    assert {"type": "draw"} not in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalAction) as caught:
        act(state, 0, {"type": "draw"})
    assert caught.value.code == "must_play"


def test_a_player_who_cannot_play_draws_one_card_and_the_turn_ends():
    state = table([["N1", "N1"], ["N1"], ["N1"]], top="N3", draw=("N2",), guard=2, active=0)
    assert ENGINE.legal_actions(state, 0)[0] == {"type": "draw"}
    assert [a["type"] for a in ENGINE.legal_actions(state, 0)[1:]] == ["cheat", "cheat"]
    after, events = act(state, 0, {"type": "draw"})
    assert hand(after, 0) == ["N1", "N1", "N2"]  # the N2 fits, but only next turn
    assert after["active"] == 1 and after["turn"] == 6
    drew = [e for e in events if e.kind == "drew_card"]
    assert drew and drew[0].to == (0,)


def test_play_goes_up_the_seat_order_and_wraps():
    state = table([["N1"], ["N1"], ["N4", "N1"]], top="N3", active=2, guard=0)
    after, _ = play(state, 2, "N4")
    assert after["active"] == 0


def test_moths_can_only_be_played_by_the_guard_like_number_cards():
    state = table([["M2", "N1"], ["M2", "N1"], ["N1"]], top="N3", guard=0, active=1)
    assert ENGINE.legal_actions(state, 1)[0] == {"type": "draw"}
    with pytest.raises(IllegalAction) as caught:
        play(state, 1, "M2")
    assert caught.value.code == "moth"
    state["active"] = 0
    after, _ = play(state, 0, "M2")
    assert after["active"] == 1 and code(after, after["discard"][-1]) == "M2"


def test_a_player_with_an_empty_hand_and_a_full_sleeve_draws():
    state = table([["N1"], [], ["N1"]], top="N3", active=1, sleeves=[None, "N4", None])
    assert ENGINE.legal_actions(state, 1) == [{"type": "draw"}]
    after, _ = act(state, 1, {"type": "draw"})
    assert len(after["hands"][1]) == 1 and after["phase"] == "play"


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile_except_its_top():
    state = table([["N1", "N1"], ["N1"], ["N1"]], top="N3", under=("N2", "N4", "A1"), rest="floor")
    top = state["discard"][-1]
    after, events = act(state, 0, {"type": "draw"})
    assert after["discard"] == [top]
    assert len(after["hands"][0]) == 3 and len(after["draw"]) == 2
    assert "reshuffled" in kinds_of(events)


def test_the_draw_is_skipped_when_there_is_nothing_to_reshuffle():
    state = table([["N1", "N1"], ["N1"], ["N1"]], top="N3", rest="floor")
    after, events = act(state, 0, {"type": "draw"})
    assert hand(after, 0) == ["N1", "N1"] and after["active"] == 1
    assert "draw_skipped" in kinds_of(events)


# --- action cards ------------------------------------------------------------------------


def test_ant_makes_every_other_player_draw_one_starting_after_its_player():
    state = table([["N1"], ["N1"], ["A2", "N1"], ["N1"]], top="N3", active=2, guard=2)
    after, events = play(state, 2, "A2")
    assert counts(after) == [2, 2, 1, 2]
    assert [e.data["seat"] for e in events if e.kind == "drew"] == [3, 0, 1]
    assert after["active"] == 3


def test_spider_gives_a_non_moth_card_to_a_player_of_the_players_choice():
    state = table([["S2", "M1", "Q4", "N5"], ["N1"], ["N1"]], top="N3")
    after, _ = play(state, 0, "S2")
    assert after["phase"] == "spider" and ENGINE.waiting_for(after).seats == (0,)
    gives = [a for a in ENGINE.legal_actions(after, 0) if a["type"] == "give"]
    assert {(code(after, a["card"]), a["to"]) for a in gives} == {
        ("Q4", 1),
        ("Q4", 2),
        ("N5", 1),
        ("N5", 2),
    }
    assert not [a for a in ENGINE.legal_actions(after, 0) if a["type"] in ("play", "draw")]
    with pytest.raises(IllegalAction):
        act(after, 0, {"type": "give", "card": card(after, 0, "M1"), "to": 1})
    done, events = act(after, 0, {"type": "give", "card": card(after, 0, "Q4"), "to": 2})
    assert hand(done, 2) == ["N1", "Q4"] and done["active"] == 1
    secret = [e for e in events if e.kind == "card_given"]
    assert secret[0].to == (0, 2)
    assert all("card" not in e.data for e in events if e.to is None)


def test_a_spider_hand_over_of_the_last_card_ends_the_round_with_the_giver_out():
    state = table([["S2", "N5"], ["N1", "N4"], ["N1"]], top="N3")
    spider, _ = play(state, 0, "S2")
    after, _ = act(spider, 0, {"type": "give", "card": card(spider, 0, "N5"), "to": 2})
    summary = after["round_scores"][0]
    assert summary["reason"] == "out" and summary["out"] == [0]
    assert summary["scores"] == [0, 2, 2]


def test_a_spider_whose_player_holds_only_moths_does_nothing():
    state = table([["S2", "M1"], ["N1"], ["N1"]], top="N3")
    after, events = play(state, 0, "S2")
    assert "spider_nothing" in kinds_of(events)
    assert after["active"] == 1 and hand(after, 0) == ["M1"]


def test_playing_your_last_card_ends_the_round_and_its_action_does_not_happen():
    state = table([["A2"], ["N1", "N5"], ["N1"]], top="N3")
    after, events = play(state, 0, "A2")
    assert "drew" not in kinds_of(events)
    assert after["round"] == 2
    assert after["round_scores"][0]["scores"] == [0, 2, 1]
    assert after["round_scores"][0]["out"] == [0]


# --- the cockroach race ------------------------------------------------------------------


def test_a_cockroach_opens_a_race_for_every_seat_its_player_included():
    state = table([["C2", "N2"], ["N1"], ["N2", "A2"]], top="N3")
    after, _ = play(state, 0, "C2")
    waiting = ENGINE.waiting_for(after)
    assert waiting.kind == "window" and waiting.window == "race"
    assert waiting.seats == (0, 1, 2) and waiting.shown == (0, 1, 2)
    assert {"type": "decline"} in ENGINE.legal_actions(after, 1)  # asked without a match
    races = [a for a in ENGINE.legal_actions(after, 2) if a["type"] == "race"]
    assert [code(after, a["card"]) for a in races] == ["N2"]  # not the ant of value 2
    assert [a["type"] for a in ENGINE.legal_actions(after, 0)][:2] == ["race", "decline"]


def test_the_first_valid_race_wins_and_play_continues_after_the_cockroach_player():
    state = table([["C2", "N2"], ["N1", "N5"], ["N2", "N4"]], top="N3")
    racing, _ = play(state, 0, "C2")
    racing, _ = act(racing, 1, {"type": "decline"})
    after, events = act(racing, 2, {"type": "race", "card": card(racing, 2, "N2")})
    assert after["phase"] == "play" and after["active"] == 1
    assert hand(after, 2) == ["N4"] and hand(after, 0) == ["N2"]
    assert rules.top_value(after) == 2
    won = [e for e in events if e.kind == "race_won"]
    assert won[0].to is None and won[0].data["seat"] == 2


def test_racing_with_the_last_card_ends_the_round_with_the_racer_out():
    state = table([["C2", "N2"], ["N1", "N5"], ["N2"]], top="N3")
    racing, _ = play(state, 0, "C2")
    after, _ = act(racing, 2, {"type": "race", "card": card(racing, 2, "N2")})
    summary = after["round_scores"][0]
    assert summary["reason"] == "out" and summary["out"] == [2]
    assert summary["scores"] == [1, 2, 0]


def test_a_race_card_must_be_a_plain_number_card_of_the_cockroachs_value():
    state = table([["C2", "A2"], ["N1"], ["N4"]], top="N3")
    racing, _ = play(state, 0, "C2")
    with pytest.raises(IllegalAction) as caught:
        act(racing, 0, {"type": "race", "card": card(racing, 0, "A2")})
    assert caught.value.code == "not_a_match"


def test_the_race_closes_when_everybody_declined_or_at_the_deadline():
    state = table([["C2", "N2"], ["N1", "N5"], ["N2", "N4"]], top="N3")
    racing, _ = play(state, 0, "C2")
    declined = racing
    for seat in (2, 0, 1):
        declined, _ = act(declined, seat, {"type": "decline"})
    assert declined["phase"] == "play" and declined["active"] == 1
    timed_out, _ = act(racing, None, {"type": "timeout"})
    assert timed_out["phase"] == "play" and timed_out["active"] == 1
    assert hand(timed_out, 2) == ["N2", "N4"]


def test_nobody_sees_who_has_declined_a_race():
    state = table([["C2", "N2"], ["N1", "N5"], ["N2", "N4"]], top="N3")
    racing, _ = play(state, 0, "C2")
    after, events = act(racing, 1, {"type": "decline"})
    for seat in (None, 0, 2):
        assert ENGINE.view(after, seat) == ENGINE.view(racing, seat)
    assert ENGINE.waiting_for(after).to_public_dict() == ENGINE.waiting_for(racing).to_public_dict()
    assert all(e.to == (1,) for e in events)
    assert ENGINE.view(after, 1)["you"]["answer"] == "declined"


# --- the mosquito ------------------------------------------------------------------------


def mosquito_table():
    return table(
        [["Q2", "N5", "M1"], ["N1", "A4"], ["M2", "M3"], ["N4", "S5"]],
        top="N3",
        guard=1,
        active=0,
    )


def test_the_last_to_slap_is_the_slowest_and_every_holder_of_a_non_moth_gives_a_card():
    slapping, _ = play(mosquito_table(), 0, "Q2")
    assert ENGINE.waiting_for(slapping).seats == (1, 2, 3)
    for seat in (3, 1, 2):
        slapping, _ = act(slapping, seat, {"type": "slap"})
    window = slapping["window"]
    assert slapping["phase"] == "gift" and window["receiver"] == 2
    assert window["asked"] == [0, 1, 3]  # the mosquito's player gives too
    waiting = ENGINE.waiting_for(slapping)
    assert waiting.window == "gift" and waiting.shown == (0, 1, 3)
    gifts = [a for a in ENGINE.legal_actions(slapping, 0) if a["type"] == "gift"]
    assert [code(slapping, a["card"]) for a in gifts] == ["N5"]


def test_when_some_never_slapped_the_first_of_them_after_the_mosquito_player_is_slowest():
    slapping, _ = play(mosquito_table(), 0, "Q2")
    slapping, _ = act(slapping, 1, {"type": "slap"})
    after, _ = act(slapping, None, {"type": "timeout"})
    assert after["window"]["receiver"] == 2


def test_all_gifts_move_together_when_the_last_giver_has_chosen():
    state, _ = play(mosquito_table(), 0, "Q2")
    for seat in (1, 3, 2):
        state, _ = act(state, seat, {"type": "slap"})
    state, events = act(state, 0, {"type": "gift", "card": card(state, 0, "N5")})
    assert hand(state, 0) == ["M1", "N5"] and [e.to for e in events] == [(0,)]
    state, _ = act(state, 1, {"type": "gift", "card": card(state, 1, "A4")})
    after, events = act(state, 3, {"type": "gift", "card": card(state, 3, "S5")})
    assert hand(after, 2) == ["A4", "M2", "M3", "N5", "S5"]
    assert hand(after, 0) == ["M1"] and after["active"] == 1 and after["phase"] == "play"
    moved = next(e for e in events if e.kind == "gifts_moved")
    assert moved.data == {"receiver": 2, "givers": [0, 1, 3]}
    for given in (e for e in events if e.kind == "gift_given"):
        assert given.to == tuple(sorted({given.data["giver"], 2}))


def test_a_missing_gift_is_chosen_at_random_at_the_deadline():
    state, _ = play(mosquito_table(), 0, "Q2")
    for seat in (1, 3, 2):
        state, _ = act(state, seat, {"type": "slap"})
    picked = set()
    for step in range(12):
        state["rng"]["step"] = step
        after, _ = act(state, None, {"type": "timeout"})
        assert len(after["hands"][2]) == 5
        picked.add(tuple(hand(after, 1)))
    assert picked == {("A4",), ("N1",)}


def test_gift_choices_are_secret_until_the_gifts_move():
    state, _ = play(mosquito_table(), 0, "Q2")
    for seat in (1, 3, 2):
        state, _ = act(state, seat, {"type": "slap"})
    after, _ = act(state, 1, {"type": "gift", "card": card(state, 1, "A4")})
    for seat in (None, 0, 2, 3):
        assert ENGINE.view(after, seat) == ENGINE.view(state, seat)
    assert ENGINE.view(after, 1)["you"]["answer"]["gift"]["kind"] == "ant"


def test_a_gift_that_empties_a_hand_ends_the_round_once_all_gifts_moved():
    state = table([["Q2", "N5"], ["N1"], ["N4", "N1"]], top="N3", guard=2, active=0)
    state, _ = play(state, 0, "Q2")
    state, _ = act(state, 2, {"type": "slap"})
    state, _ = act(state, 1, {"type": "slap"})  # seat 1 is slowest
    state, _ = act(state, 0, {"type": "gift", "card": card(state, 0, "N5")})
    after, _events = act(state, 2, {"type": "gift", "card": card(state, 2, "N1")})
    assert after["round"] == 2 and after["round_scores"][0]["out"] == [0]
    assert after["round_scores"][0]["scores"] == [0, 3, 1]


def test_gifts_that_empty_several_hands_end_the_round_with_all_of_them_out():
    state = table([["Q2", "N5"], ["N1"], ["N4", "N1"]], top="N3", guard=1, active=0)
    state, _ = play(state, 0, "Q2")
    state, _ = act(state, 1, {"type": "slap"})
    state, _ = act(state, 2, {"type": "slap"})  # seat 2 is slowest: seats 0 and 1 give
    state, _ = act(state, 0, {"type": "gift", "card": card(state, 0, "N5")})
    after, _ = act(state, 1, {"type": "gift", "card": card(state, 1, "N1")})
    summary = after["round_scores"][0]
    assert summary["reason"] == "out" and summary["out"] == [0, 1]
    assert summary["scores"] == [0, 0, 4]


# --- the end of a round and of the game ----------------------------------------------------


def test_a_card_in_the_sleeve_keeps_its_owner_in_the_round():
    state = table([["N1"], ["N4"], ["N1", "N1"]], top="N3", active=1, sleeves=[None, "M2", None])
    after, _ = play(state, 1, "N4")
    assert after["round"] == 1 and counts(after)[1] == 1


def test_round_scores_count_hand_and_sleeve_one_five_ten_and_the_out_player_none():
    state = table(
        [["N4"], ["N1", "A1", "M1"], ["N5", "N5"]],
        top="N3",
        sleeves=[None, None, "Q5"],
    )
    after, _ = play(state, 0, "N4")
    assert after["round_scores"][0]["scores"] == [0, 16, 7]
    assert after["scores"] == [0, 16, 7]


def test_each_round_starts_with_the_seat_after_the_previous_starting_guard():
    state = table([["N4"], ["N1"], ["N1"]], top="N3", guard=0)
    state["guard"] = 2  # the bug moved during the round
    after, _ = play(state, 0, "N4")
    assert after["starting_guard"] == after["guard"] == after["active"] == 1
    assert after["turn"] == 1 and [len(h) for h in after["hands"]] == [8, 8, 8]


def test_a_round_ends_after_its_300th_turn_scoring_every_hand_and_sleeve():
    state = table(
        [["N1", "N1"], ["N2"], ["N1"]],
        top="N3",
        draw=("N2",),
        turn=300,
        sleeves=[None, "M1", None],
    )
    after, _events = act(state, 0, {"type": "draw"})
    summary = after["round_scores"][0]
    assert summary["reason"] == "turn_limit" and summary["out"] == []
    assert summary["scores"] == [3, 11, 1]
    assert after["round"] == 2


def test_after_as_many_rounds_as_players_the_lowest_total_wins_and_ties_share():
    state = table([["N4"], ["N1"], ["N1"], ["N1", "N1"]], top="N3")
    state["round"] = 4
    state["scores"] = [5, 4, 4, 0]
    after, events = play(state, 0, "N4")
    result = ENGINE.result(after)
    assert after["phase"] == "over" and ENGINE.waiting_for(after) == Waiting.nobody()
    assert result["scores"] == [5, 5, 5, 2]
    assert result["winners"] == [3] and result["losers"] == [0, 1, 2]
    state["scores"] = [5, 4, 4, 3]
    tied = ENGINE.result(play(state, 0, "N4")[0])
    assert tied["winners"] == [0, 1, 2, 3] and tied["losers"] == []
    ends = [e for e in events if e.kind in ("game_over", "game_result")]
    assert [e.kind for e in ends] == ["game_over"]  # one end-of-game event, with the result
    assert ends[0].to is None and ends[0].data == ENGINE.result(after)


def test_the_end_reveals_every_zone_to_every_viewer():
    state = table([["N4"], ["N1"], ["N1", "N2"]], top="N3", sleeves=[None, "M1", None])
    state["round"] = 3
    after, _ = play(state, 0, "N4")
    views = [ENGINE.view(after, seat) for seat in (None, 0, 1, 2)]
    assert all(v == views[0] for v in views)
    assert views[0]["over"] and views[0]["sleeves"][1]["kind"] == "moth"
    assert [len(h) for h in views[0]["hands"]] == [0, 1, 2]
    assert all(not ENGINE.legal_actions(after, s) for s in range(3))


# --- the system and forged input ---------------------------------------------------------


def test_the_system_may_only_close_an_open_window():
    state = table([["N4"], ["N1"], ["N1"]], top="N3")
    with pytest.raises(IllegalAction):
        act(state, None, {"type": "timeout"})
    with pytest.raises(IllegalAction):
        act(state, None, {"type": "play", "card": card(state, 0, "N4")})
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "timeout"})


def test_a_move_out_of_its_step_is_refused_naming_the_move():
    state = table([["S2", "N5", "N1"], ["N1"], ["N1"]], top="N3")
    with pytest.raises(IllegalAction) as caught:
        act(state, 0, {"type": "give", "card": card(state, 0, "N5"), "to": 1})
    assert caught.value.code == "wrong_phase" and caught.value.params == {"what": "give"}
    spider, _ = play(state, 0, "S2")
    with pytest.raises(IllegalAction) as caught:
        act(spider, 0, {"type": "draw"})
    assert caught.value.code == "wrong_phase" and caught.value.params == {"what": "draw"}
    with pytest.raises(IllegalAction) as caught:
        act(spider, 0, {"type": "play", "card": card(spider, 0, "N1")})
    assert caught.value.params == {"what": "play"}


def test_forged_payloads_are_refused_without_touching_the_state():
    state = table([["N4", "N2"], ["N1"], ["N1"]], top="N3")
    before = copy.deepcopy(state)
    n4 = card(state, 0, "N4")
    forged = [
        {"type": "play", "card": True},
        {"type": "play", "card": float(n4)},
        {"type": "play", "card": n4, "extra": 1},
        {"type": "play", "card": 71},
        {"type": "accuse", "target": 1},
        {"type": "accuse", "target": "1", "card": None},
        {"type": "cheat", "card": card(state, 1, "N1")},
        {"type": "cheat", "card": card(state, 0, "N4")},  # the guard
    ]
    for action in forged:
        with pytest.raises(IllegalAction):
            act(state, 0, action)
    for seat in (-1, 3, "0", True):
        with pytest.raises(IllegalAction):
            act(state, seat, {"type": "draw"})
    assert state == before


def test_the_fast_working_copy_shares_nothing_mutable():
    state, _ = play(mosquito_table(), 0, "Q2")
    copied = rules.copy_state(state)
    assert copied == state
    for key, value in copied.items():
        if isinstance(value, (list, dict)) and key != "last_accusation":
            assert value is not state[key], key
    for seat in range(4):
        assert copied["hands"][seat] is not state["hands"][seat]
    assert copied["window"]["slapped"] is not state["window"]["slapped"]
