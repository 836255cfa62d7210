"""Scenario tests for Imperador on hand-built positions: one per rule and per [D] decision."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines.core import IllegalAction, Waiting
from games.engines.imperador import ENGINE
from games.engines.imperador.cards import object_band, value_of
from tests.engines.imperador.builders import FOUR, act, build, hands_round, ids, kinds, play, values

THREE = [[1, 1, 3, 5], [2, 3, 4, 6], [2, 4, 5, 6]]


def at_reveal(state, raised, liars=(), band=2):
    """The emperor's turn has reached the reveal with these raised hands and caught liars."""
    turn = state["turn"]
    turn["band"] = band
    turn["raised"] = list(raised)
    turn["liars"] = list(liars)
    state["phase"] = "reveal"
    return state


def band_slot(state, band):
    return next(
        i for i, o in enumerate(state["grid"]) if o is not None and object_band(state, o) == band
    )


# --- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_deals_four_number_cards_each_and_lays_two_n_objects_face_down(players):
    state = ENGINE.setup(players, {}, seed=players)
    assert [len(hand) for hand in state["hands"]] == [4] * players
    dealt = Counter(value_of(state, c) for hand in state["hands"] for c in hand)
    assert dealt == Counter({v: 2 for v in range(1, 2 * players + 1)})
    bands = Counter(object_band(state, o) for o in state["grid"])
    assert bands == Counter({b: 2 for b in range(1, players + 1)})
    assert not any(state["seen"])
    zones = ENGINE.card_zones(state)
    assert sorted(c for zone in zones.values() for c in zone) == list(range(6 * players))


def test_card_ids_are_shuffled_so_an_id_never_tells_its_kind():
    first_cards = {tuple(ENGINE.setup(4, {}, seed=s)["cards"][0]) for s in range(40)}
    assert len(first_cards) > 4
    assert {kind for kind, _ in first_cards} == {"number", "object"}


def test_the_first_emperor_is_drawn_from_the_seed_unless_given_and_takes_a_sheep():
    assert {ENGINE.setup(4, {}, seed=s)["emperor"] for s in range(40)} == {0, 1, 2, 3}
    state = ENGINE.setup(4, {"first_seat": 2}, seed=1)
    assert state["emperor"] == 2
    assert state["sheep"] == [False, False, True, False]
    assert ENGINE.setup(4, {}, seed=5) == ENGINE.setup(4, {}, seed=5)


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (7, {}), (4, {"first_seat": 4}), (4, {"first_seat": True}), (4, {"x": 1})],
)
def test_setup_refuses_bad_player_counts_and_options(players, options):
    with pytest.raises(IllegalAction):
        ENGINE.setup(players, options, seed=1)


# --- announce and the secret hands window ----------------------------------------------------


def test_the_hands_window_asks_every_other_player_without_foxes_and_keeps_answers_secret():
    state = build(FOUR, foxes=[0, 0, 2, 0])
    state, _ = act(state, 0, {"type": "announce", "band": 1})
    assert ENGINE.waiting_for(state) == Waiting.open_window("hands", [1, 3], shown=[1, 3])
    assert ENGINE.legal_actions(state, 2) == []
    assert ENGINE.legal_actions(state, 0) == []
    state, events = act(state, 1, {"type": "hand", "choice": "raise"})
    waiting = ENGINE.waiting_for(state)
    assert waiting.seats == (3,)
    assert waiting.to_public_dict()["seats"] == [1, 3]
    assert [(e.kind, e.to) for e in events] == [("hand_answered", (1,))]
    assert ENGINE.view(state, 3)["turn"]["your_answer"] is None
    assert ENGINE.view(state, 3)["turn"]["hands"] is None
    assert ENGINE.view(state, 1)["turn"]["your_answer"] == "raise"
    assert ENGINE.legal_actions(state, 1) == []


def test_a_fox_holder_is_not_asked_and_counts_as_a_hand_down():
    state = build(FOUR, foxes=[0, 0, 2, 0])
    state, _ = hands_round(state, 1, {1: "raise", 3: "raise"})
    assert state["turn"]["hands"] == ["emperor", "raised", "fox", "raised"]
    assert state["turn"]["downs"] == [2]
    assert state["turn"]["picked"] == 2  # case (a), the only hand down


def test_a_missing_answer_counts_as_down_when_the_window_times_out():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise"})
    state, events = act(state, None, {"type": "timeout"})
    assert state["turn"]["hands"] == ["emperor", "raised", "down", "down"]
    assert state["turn"]["case"] == "b"
    assert state["turn"]["liars"] == []
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "pick", "seat": 2},
        {"type": "pick", "seat": 3},
    ]
    assert "hands_shown" in kinds(events)


def test_the_system_timeout_is_refused_outside_the_window():
    state = build(FOUR)
    with pytest.raises(IllegalAction):
        act(state, None, {"type": "timeout"})
    with pytest.raises(IllegalAction):
        act(state, 1, {"type": "timeout"})


def test_when_every_other_player_holds_foxes_nobody_is_asked():
    state = build(FOUR, foxes=[0, 1, 1, 1])
    state, _ = act(state, 0, {"type": "announce", "band": 2})
    assert state["phase"] == "pick"
    assert state["turn"]["downs"] == [1, 2, 3]


# --- resolving: case (a) ---------------------------------------------------------------------


def test_case_a_the_emperor_shows_his_pair_even_when_no_hand_is_down_and_nobody_is_caught():
    state = build(FOUR)
    before = [values(state, s) for s in range(4)]
    state, events = hands_round(state, 1, {1: "raise", 2: "raise", 3: "raise"})
    assert state["turn"]["case"] == "a"
    shown = next(e for e in events if e.kind == "pair_shown")
    assert shown.to is None and [c["value"] for c in shown.data["cards"]] == [1, 1]
    assert state["phase"] == "reveal"
    assert state["foxes"] == [0, 0, 0, 0]  # seats 2 and 3 raised holding a 2: not caught
    assert [values(state, s) for s in range(4)] == before


def test_case_a_with_one_hand_down_takes_a_random_card_from_that_player_and_gives_one_back():
    state = build(FOUR)
    state, _ = hands_round(state, 1, {1: "raise", 2: "raise", 3: "down"})
    assert state["turn"]["picked"] == 3
    assert len(state["hands"][3]) == 3 and len(state["hands"][0]) == 5
    received = state["turn"]["giving"]["not"]
    assert received in state["hands"][0]
    gift = next(c for c in state["hands"][0] if c != received)
    state, _ = act(state, 0, {"type": "give", "card": gift})
    assert gift in state["hands"][3] and len(state["hands"][3]) == 4
    assert state["phase"] == "reveal"


def test_case_a_with_several_hands_down_the_emperor_picks_one():
    state = build(FOUR)
    state, _ = hands_round(state, 1, {1: "raise", 2: "down", 3: "down"})
    assert state["turn"]["case"] == "a"
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "pick", "seat": 2},
        {"type": "pick", "seat": 3},
    ]


# --- case (b) and the exchange ----------------------------------------------------------------


def test_case_b_two_hands_down_the_emperor_picks_takes_a_random_card_and_gives_one_back():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "down"})
    assert state["turn"]["case"] == "b" and state["phase"] == "pick"
    state, _ = act(state, 0, {"type": "pick", "seat": 2})
    assert state["turn"]["exchanges"] == [{"from": 2, "to": 0, "how": "random"}]
    assert state["phase"] == "give" and state["turn"]["giving"]["to"] == 2
    state, _ = act(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert [len(h) for h in state["hands"]] == [4, 4, 4, 4]
    assert state["phase"] == "reveal"


def test_the_random_card_comes_from_the_rng_stored_in_the_state():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "down"})
    first, _ = act(state, 0, {"type": "pick", "seat": 3})
    again, _ = act(state, 0, {"type": "pick", "seat": 3})
    assert first == again
    assert first["rng"]["step"] == state["rng"]["step"] + 1
    taken = set()
    for seed in range(30):
        state["rng"]["seed"] = seed
        after, _ = act(state, 0, {"type": "pick", "seat": 3})
        taken.add(after["turn"]["giving"]["not"])
    assert taken == set(state["hands"][3])


def test_the_emperor_never_gives_back_the_card_he_has_just_received():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "down"})
    state, _ = act(state, 0, {"type": "pick", "seat": 2})
    received = state["turn"]["giving"]["not"]
    gives = [a["card"] for a in ENGINE.legal_actions(state, 0)]
    assert received not in gives and sorted([*gives, received]) == sorted(state["hands"][0])
    with pytest.raises(IllegalAction) as caught:
        act(state, 0, {"type": "give", "card": received})
    assert caught.value.code == "not_allowed"
    assert caught.value.message == "You may not give back the card you have just received."


def test_an_emperor_holding_only_a_pair_must_break_it_in_an_exchange():
    hands = [[3, 3], [2, 4, 5, 7], [2, 4, 6, 8], [5, 6, 7, 8]]
    state = build(hands, laid=[[1], [], [], []])
    state, _ = hands_round(state, 1, {1: "down", 2: "down", 3: "raise"})
    state, _ = act(state, 0, {"type": "pick", "seat": 1})
    gives = [a["card"] for a in ENGINE.legal_actions(state, 0)]
    assert sorted(gives) == sorted(ids(state, 0, 3))


# --- case (c) ---------------------------------------------------------------------------------


def test_case_c_the_down_player_gives_the_named_value_and_receives_a_card_of_choice():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "raise"})
    assert state["turn"]["case"] == "c"
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "name", "value": 3},
        {"type": "name", "value": 4},
    ]
    four = ids(state, 2, 4)[0]
    state, events = act(state, 0, {"type": "name", "value": 4})
    assert four in state["hands"][0]
    passed = next(e for e in events if e.kind == "card_passed")
    assert passed.to is None and passed.data["card"]["value"] == 4 and passed.data["how"] == "named"
    assert state["turn"]["giving"] == {"to": 2, "not": four}
    assert state["foxes"] == [0, 0, 0, 2]  # seat 3 raised holding a 4; seat 1 holds a 3 only


def test_case_c_a_raised_hand_holding_the_named_value_is_caught_and_takes_two_foxes():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "raise"})
    state, events = act(state, 0, {"type": "name", "value": 3})
    assert state["turn"]["liars"] == [1]
    assert state["foxes"] == [0, 2, 0, 0]
    caught = next(e for e in events if e.kind == "liars_caught")
    assert caught.to is None and caught.data["seats"] == [1]


def test_case_c_a_liar_gives_the_named_value_when_the_emperor_has_not_received_it():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "raise"})
    three = ids(state, 1, 3)[0]
    state, _ = act(state, 0, {"type": "name", "value": 3})  # seat 2 holds no 3
    assert three in state["hands"][0]
    assert state["phase"] == "give" and state["turn"]["giving"] == {"to": 1, "not": three}


def test_case_c_a_liar_after_the_named_value_was_received_gives_a_card_of_the_emperors_choice():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "raise"})
    state, _ = act(state, 0, {"type": "name", "value": 4})
    state, _ = act(state, 0, ENGINE.legal_actions(state, 0)[0])  # gift to seat 2
    assert state["phase"] == "take" and state["turn"]["taking_from"] == 3
    assert sorted(a["card"] for a in ENGINE.legal_actions(state, 0)) == sorted(state["hands"][3])
    eight = ids(state, 3, 8)[0]
    state, events = act(state, 0, {"type": "take", "card": eight})
    assert eight in state["hands"][0]
    assert next(e for e in events if e.kind == "card_passed").data["card"]["value"] == 8
    assert state["phase"] == "give" and state["turn"]["giving"] == {"to": 3, "not": eight}
    state, _ = act(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert state["phase"] == "reveal"


def test_case_c_caught_liars_exchange_in_seat_order_after_the_emperor():
    state = build(FOUR, emperor=2)
    state, _ = hands_round(state, 4, {3: "raise", 0: "raise", 1: "raise"})
    state, _ = act(state, 2, {"type": "name", "value": 8})
    assert state["turn"]["liars"] == [3, 1]
    assert state["turn"]["giving"]["to"] == 3
    state, _ = act(state, 2, ENGINE.legal_actions(state, 2)[0])
    assert state["phase"] == "take" and state["turn"]["taking_from"] == 1


def test_case_c_a_laid_value_may_be_named_and_when_nobody_holds_it_nothing_is_exchanged():
    hands = [[3, 5], [3, 6, 7, 8], [2, 4, 5, 7], [2, 4, 6, 8]]
    state = build(hands, emperor=1, laid=[[1], [], [], []])
    state, _ = hands_round(state, 1, {2: "raise", 3: "raise", 0: "raise"})
    assert state["phase"] == "name"
    state, events = act(state, 1, {"type": "name", "value": 1})
    assert state["turn"]["liars"] == [] and state["turn"]["exchanges"] == []
    assert state["phase"] == "reveal"
    assert "nobody_holds" in kinds(events)


# --- foxes and what they show -----------------------------------------------------------------


def test_a_caught_liar_shows_their_hand_except_the_card_the_emperor_gives_them():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "raise"})
    state, _ = act(state, 0, {"type": "name", "value": 3})
    assert [c["value"] for c in ENGINE.view(state, None)["seats"][1]["public_cards"]] == [6, 7, 8]
    five = ids(state, 0, 5)[0]
    state, events = act(state, 0, {"type": "give", "card": five})
    for viewer in (None, 2, 3):
        seat1 = ENGINE.view(state, viewer)["seats"][1]
        assert [c["value"] for c in seat1["public_cards"]] == [6, 7, 8]
        assert seat1["hidden_count"] == 1 and seat1["cards_you_gave"] == []
    assert ENGINE.view(state, 0)["seats"][1]["cards_you_gave"] == [
        {"id": five, "kind": "number", "value": 5}
    ]
    assert five in [c["id"] for c in ENGINE.view(state, 1)["hand"]]
    seen = next(e for e in events if e.kind == "card_seen")
    assert seen.to == (0, 1) and seen.data["card"]["id"] == five
    assert next(e for e in events if e.kind == "card_passed").data["card"] is None


def test_a_card_taken_from_a_fox_holders_visible_hand_is_seen_by_everybody():
    state = build(FOUR, foxes=[0, 0, 1, 0])
    state, events = hands_round(state, 1, {1: "raise", 3: "raise"})
    passed = next(e for e in events if e.kind == "card_passed")
    assert passed.to is None and passed.data["card"]["id"] == state["turn"]["giving"]["not"]


def test_a_random_card_from_a_private_hand_is_told_only_to_the_two_players():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "down"})
    state, events = act(state, 0, {"type": "pick", "seat": 3})
    passed = next(e for e in events if e.kind == "card_passed")
    seen = next(e for e in events if e.kind == "card_seen")
    assert passed.to is None and passed.data["card"] is None
    assert seen.to == (0, 3) and seen.data["card"]["id"] == state["turn"]["giving"]["not"]


# --- revealing an object ----------------------------------------------------------------------


def test_turning_over_an_object_that_fits_a_pair_lays_the_pair_on_it():
    state = build(FOUR)
    state, _ = hands_round(state, 1, {1: "raise", 2: "raise", 3: "raise"})
    slot = band_slot(state, 1)
    obj = state["grid"][slot]
    state, events = act(state, 0, {"type": "reveal", "slot": slot})
    assert values(state, 0) == [3, 5]
    assert state["laid"][0][0]["object"] == obj and state["grid"][slot] is None
    assert state["turn"]["revealed"] == {"slot": slot, "band": 1, "laid": 1}
    assert "pair_laid" in kinds(events)


def test_an_object_that_fits_no_pair_is_turned_face_down_and_stays_as_a_public_hint():
    state = build(FOUR)
    state, _ = hands_round(state, 1, {1: "raise", 2: "raise", 3: "raise"})
    slot = band_slot(state, 2)
    state, events = act(state, 0, {"type": "reveal", "slot": slot})
    assert state["grid"][slot] is not None and state["seen"][slot]
    assert values(state, 0) == [1, 1, 3, 5]
    assert "object_turned_down" in kinds(events)
    for viewer in (None, 1, 2):
        grid = ENGINE.view(state, viewer)["grid"]
        assert grid[slot]["band"] == 2 and grid[slot]["values"] == [3, 4]
        assert all(g["band"] is None for g in grid if g["slot"] != slot)


def test_with_two_fitting_pairs_the_emperor_chooses_which_one_to_lay():
    hands = [[1, 1, 2, 2], [3, 4, 5, 6], [3, 4, 7, 8], [5, 6, 7, 8]]
    state = build(hands)
    state, events = hands_round(state, 1, {1: "raise", 2: "raise", 3: "raise"})
    assert len(next(e for e in events if e.kind == "pair_shown").data["cards"]) == 4
    state, _ = act(state, 0, {"type": "reveal", "slot": band_slot(state, 1)})
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "lay", "value": 1},
        {"type": "lay", "value": 2},
    ]
    state, _ = act(state, 0, {"type": "lay", "value": 2})
    assert values(state, 0) == [1, 1]


def test_laying_the_second_pair_wins_at_once():
    hands = [[1, 1], [2, 4, 5, 7], [2, 4, 6, 8], [5, 6, 7, 8]]
    state = build(hands, laid=[[3], [], [], []])
    state, _ = hands_round(state, 1, {1: "raise", 2: "raise", 3: "raise"})
    assert ENGINE.result(state) is None
    state, _ = act(state, 0, {"type": "reveal", "slot": band_slot(state, 1)})
    assert ENGINE.result(state) == {
        "winners": [0],
        "losers": [1, 2, 3],
        "scores": [2, 0, 0, 0],
        "reason": "two_pairs",
    }
    assert ENGINE.waiting_for(state) == Waiting.nobody()
    assert all(ENGINE.legal_actions(state, s) == [] for s in range(4))


# --- the next emperor -------------------------------------------------------------------------


def finish_turn(state):
    """Reveal an object that fits nothing the emperor (FOUR hand, seat 0) holds."""
    return act(state, state["emperor"], {"type": "reveal", "slot": band_slot(state, 2)})


def test_the_emperor_stays_when_nobody_raised_a_hand():
    state = at_reveal(build(FOUR, foxes=[0, 1, 0, 0]), raised=[])
    state, _ = finish_turn(state)
    assert state["emperor"] == 0 and state["reign"] == 2 and state["turn_number"] == 2
    assert state["phase"] == "announce"
    assert state["foxes"] == [0, 1, 0, 0]  # the emperor card did not pass: no shedding


def test_a_caught_liar_without_a_sheep_has_priority_as_next_emperor():
    state = at_reveal(build(FOUR), raised=[1, 2, 3], liars=[2])
    state, _ = finish_turn(state)
    assert state["emperor"] == 2 and state["sheep"] == [True, False, True, False]


def test_among_several_caught_liars_without_a_sheep_the_emperor_chooses():
    state = at_reveal(build(FOUR), raised=[1, 2, 3], liars=[1, 3])
    state, _ = finish_turn(state)
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "successor", "seat": 1},
        {"type": "successor", "seat": 3},
    ]
    state, _ = act(state, 0, {"type": "successor", "seat": 3})
    assert state["emperor"] == 3 and state["reign"] == 1


def test_without_such_a_liar_a_raiser_without_a_sheep_comes_next():
    sheep = [True, False, True, False]
    state = at_reveal(build(FOUR, sheep=sheep), raised=[1, 2], liars=[2])
    state, _ = finish_turn(state)
    assert state["emperor"] == 1


def test_only_when_every_raiser_holds_a_sheep_may_any_raiser_be_chosen():
    sheep = [True, True, True, False]
    state = at_reveal(build(FOUR, sheep=sheep), raised=[1, 2])
    state, _ = finish_turn(state)
    assert [a["seat"] for a in ENGINE.legal_actions(state, 0)] == [1, 2]


def test_the_new_emperor_takes_a_sheep_and_when_everyone_holds_one_all_sheep_go_back():
    sheep = [True, True, True, False]
    state = at_reveal(build(FOUR, sheep=sheep), raised=[3])
    state, events = finish_turn(state)
    assert state["emperor"] == 3
    assert state["sheep"] == [False, False, False, False]
    assert kinds(events).index("sheep_taken") < kinds(events).index("sheep_returned")


def test_every_fox_holder_sheds_one_fox_each_time_the_emperor_card_passes():
    state = build(FOUR, foxes=[1, 0, 2, 0])
    state["hidden"][0] = [{"card": state["hands"][0][0], "giver": 3}]
    state = at_reveal(state, raised=[2], liars=[2])
    state, _ = finish_turn(state)
    assert state["emperor"] == 2
    assert state["foxes"] == [0, 0, 1, 0]
    assert state["hidden"][0] == []


def test_a_liar_caught_this_turn_sheds_a_fox_when_the_emperor_card_passes_at_its_end():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "raise"})
    state, _ = act(state, 0, {"type": "name", "value": 4})  # seat 3 lied: two foxes
    state, _ = act(state, 0, ENGINE.legal_actions(state, 0)[0])  # gift to seat 2
    state, _ = act(state, 0, {"type": "take", "card": ids(state, 3, 8)[0]})
    state, _ = act(state, 0, ENGINE.legal_actions(state, 0)[0])  # gift to seat 3, hidden
    assert state["foxes"] == [0, 0, 0, 2]
    state, events = act(state, 0, {"type": "reveal", "slot": band_slot(state, 2)})
    assert state["emperor"] == 3  # the caught liar without a sheep
    assert state["foxes"] == [0, 0, 0, 1]
    assert next(e for e in events if e.kind == "foxes_shed").data == {"seats": [3]}
    seat3 = ENGINE.view(state, 1)["seats"][3]
    assert seat3["foxes"] == 1 and seat3["hidden_count"] == 1  # the gift stays hidden
    assert [c["value"] for c in seat3["public_cards"]] == [2, 4, 6]


def test_shedding_the_last_fox_makes_the_hand_private_again():
    state = at_reveal(build(FOUR, foxes=[0, 1, 0, 0]), raised=[3])
    assert len(ENGINE.view(state, 2)["seats"][1]["public_cards"]) == 4
    state, _ = finish_turn(state)
    seat1 = ENGINE.view(state, 2)["seats"][1]
    assert seat1["public_cards"] == [] and seat1["hidden_count"] == 4


def test_with_three_players_an_emperor_may_stay_for_a_second_turn():
    state = at_reveal(build(THREE), raised=[])
    state, _ = finish_turn(state)
    assert state["emperor"] == 0 and state["reign"] == 2


def test_with_three_players_after_two_turns_the_card_goes_to_the_next_seat_without_a_sheep():
    state = at_reveal(build(THREE, reign=2, sheep=[True, True, False]), raised=[])
    state, events = finish_turn(state)
    assert state["emperor"] == 2
    assert next(e for e in events if e.kind == "emperor_passed").data["forced"] is True


def test_with_three_players_the_forced_handover_takes_the_next_seat_if_all_others_hold_sheep():
    state = at_reveal(build(THREE, reign=2, sheep=[False, True, True]), raised=[])
    state, _ = finish_turn(state)
    assert state["emperor"] == 1


def test_with_three_players_a_caught_liar_without_a_sheep_keeps_priority_over_the_reign_limit():
    state = at_reveal(build(THREE, reign=2, sheep=[True, False, False]), raised=[2], liars=[2])
    state, events = finish_turn(state)
    assert state["emperor"] == 2 and state["reign"] == 1
    assert next(e for e in events if e.kind == "emperor_passed").data["forced"] is False


def test_with_three_players_after_two_turns_the_emperor_still_chooses_among_raisers():
    state = at_reveal(build(THREE, reign=2, sheep=[True, False, False]), raised=[1, 2])
    state, _ = finish_turn(state)
    assert state["phase"] == "successor" and state["emperor"] == 0
    assert [a["seat"] for a in ENGINE.legal_actions(state, 0)] == [1, 2]


def test_a_game_started_under_rules_version_1_keeps_the_reign_limit_over_the_choice():
    for old_rules in ({"rules_version": 1}, {}):  # {}: stored before versions were kept
        state = build(THREE, reign=2, sheep=[True, False, False])
        del state["rules_version"]
        state.update(old_rules)
        state, events = finish_turn(at_reveal(state, raised=[2], liars=[2]))
        assert state["emperor"] == 1
        assert next(e for e in events if e.kind == "emperor_passed").data["forced"] is True


# --- the end ----------------------------------------------------------------------------------


def test_after_sixty_turns_the_most_pairs_laid_wins_and_ties_share():
    hands = [[1, 2, 4, 6], [1, 7], [2, 8], [4, 6, 7, 8]]
    state = build(hands, laid=[[], [3], [5], []])
    state["turn_number"] = 60
    state = at_reveal(state, raised=[])
    assert ENGINE.result(state) is None
    state, _ = finish_turn(state)
    assert ENGINE.result(state) == {
        "winners": [1, 2],
        "losers": [0, 3],
        "scores": [0, 1, 1, 0],
        "reason": "turn_limit",
    }


def test_before_the_sixtieth_turn_ends_the_game_goes_on():
    state = at_reveal(build(FOUR), raised=[])
    state["turn_number"] = 59
    state, _ = finish_turn(state)
    assert ENGINE.result(state) is None and state["turn_number"] == 60


# --- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (1, {"type": "announce", "band": 1}, "not_your_turn"),
        (0, {"type": "announce", "band": 9}, "not_allowed"),
        (0, {"type": "announce", "band": "1"}, "malformed"),
        (0, {"type": "announce", "band": True}, "malformed"),
        (0, {"type": "announce"}, "malformed"),
        (0, {"type": "give", "card": 0}, "wrong_step"),
        (1, {"type": "hand", "choice": "raise"}, "not_asked"),
        (0, {"type": "nope"}, "unknown_action"),
        (0, ["announce"], "malformed"),
        (7, {"type": "announce", "band": 1}, "bad_seat"),
        (None, {"type": "announce", "band": 1}, "system_only_timeout"),
    ],
)
def test_out_of_turn_forged_and_malformed_actions_are_refused_without_change(seat, action, code):
    state = build(FOUR)
    before = repr(state)
    with pytest.raises(IllegalAction) as caught:
        act(state, seat, action)
    assert caught.value.code == code
    assert repr(state) == before


def _at_pick():
    state, _ = hands_round(build(FOUR), 2, {1: "raise", 2: "down", 3: "down"})
    return state


def _at_name():
    state, _ = hands_round(build(FOUR), 2, {1: "raise", 2: "down", 3: "raise"})
    return state


def _at_take():
    state, _ = hands_round(build(FOUR), 2, {1: "raise", 2: "raise", 3: "raise"})
    state, _ = act(state, 0, {"type": "name", "value": 4})  # seats 2 and 3 lied
    state, _ = act(state, 0, {"type": "give", "card": ids(state, 0, 1)[0]})
    return state


def _at_lay():
    hands = [[1, 1, 2, 2], [3, 4, 5, 6], [3, 4, 7, 8], [5, 6, 7, 8]]
    state, _ = hands_round(build(hands), 1, {1: "raise", 2: "raise", 3: "raise"})
    state, _ = act(state, 0, {"type": "reveal", "slot": band_slot(state, 1)})
    return state


def _at_successor():
    state = at_reveal(build(FOUR), raised=[1, 2, 3], liars=[1, 3])
    state, _ = act(state, 0, {"type": "reveal", "slot": band_slot(state, 2)})
    return state


@pytest.mark.parametrize(
    ("position", "action", "message"),
    [
        (
            lambda: build(FOUR),
            {"type": "announce", "band": 9},
            "Announce one of the bands of the objects.",
        ),
        (_at_pick, {"type": "pick", "seat": 1}, "Pick a player whose hand is down."),
        (
            _at_name,
            {"type": "name", "value": 5},
            "Name one of the two values of the announced band.",
        ),
        (_at_take, {"type": "take", "card": 0}, "Take a card from the caught liar's hand."),
        (
            lambda: at_reveal(build(FOUR), raised=[]),
            {"type": "reveal", "slot": 99},
            "Turn over an object that is still face down.",
        ),
        (
            _at_lay,
            {"type": "lay", "value": 3},
            "Lay a pair you hold that fits the object you turned over.",
        ),
        (
            _at_successor,
            {"type": "successor", "seat": 2},
            "Choose the next emperor among those who raised a hand: a caught liar without a "
            "sheep first, then a player without a sheep.",
        ),
    ],
)
def test_a_choice_the_rules_forbid_is_refused_naming_the_rule(position, action, message):
    state = position()
    assert state["phase"] == action["type"]
    before = repr(state)
    with pytest.raises(IllegalAction) as caught:
        act(state, state["emperor"], action)
    assert caught.value.code == "not_allowed" and caught.value.message == message
    assert repr(state) == before


def test_giving_a_card_the_emperor_does_not_hold_names_the_rule():
    state = _at_pick()
    state, _ = act(state, 0, {"type": "pick", "seat": 2})
    with pytest.raises(IllegalAction) as caught:
        act(state, 0, {"type": "give", "card": state["hands"][1][0]})
    assert caught.value.code == "not_allowed"
    assert caught.value.message == "Give a card from your hand."


def test_a_window_answer_is_refused_once_given_and_checked_for_shape():
    state, _ = play(build(FOUR), (0, {"type": "announce", "band": 1}))
    with pytest.raises(IllegalAction) as caught:
        act(state, 1, {"type": "hand", "choice": "maybe"})
    assert caught.value.code == "bad_choice"
    state, _ = act(state, 1, {"type": "hand", "choice": "down"})
    with pytest.raises(IllegalAction):
        act(state, 1, {"type": "hand", "choice": "raise"})
