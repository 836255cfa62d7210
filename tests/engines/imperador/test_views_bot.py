"""What each seat sees (targeted leak tests), card zones, and the bot's habits."""

from __future__ import annotations

import random

from games.engines.imperador import ENGINE
from games.engines.imperador.cards import object_band
from tests.engines.imperador.builders import FOUR, act, build, hands_round, ids
from tests.engines.imperador.test_rules import at_reveal, band_slot


def swap_kinds(state, a, b):
    """A copy of ``state`` in which cards ``a`` and ``b`` have traded faces."""
    other = {**state, "cards": [list(k) for k in state["cards"]]}
    other["cards"][a], other["cards"][b] = other["cards"][b], other["cards"][a]
    assert other["cards"][a] != other["cards"][b]
    return other


def bot(state, seat, seed=0):
    action = ENGINE.bot_action(state, seat, random.Random(seed))
    assert action in ENGINE.legal_actions(state, seat)
    return action


# --- leaks ------------------------------------------------------------------------------------


def test_other_hands_show_only_their_counts():
    state = build(FOUR)
    other = swap_kinds(state, ids(state, 2, 5)[0], ids(state, 3, 6)[0])
    for viewer in (None, 0, 1):
        assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer)
        assert ENGINE.view(state, viewer)["seats"][2]["hidden_count"] == 4
    assert ENGINE.view(other, 2) != ENGINE.view(state, 2)
    assert [c["value"] for c in ENGINE.view(state, 2)["hand"]] == [2, 4, 5, 7]


def test_the_card_taken_at_random_is_hidden_from_the_other_players():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "down"})
    state, _ = act(state, 0, {"type": "pick", "seat": 3})
    taken = state["turn"]["giving"]["not"]
    partner = next(c for c in state["hands"][2] if state["cards"][c] != state["cards"][taken])
    other = swap_kinds(state, taken, partner)
    for viewer in (None, 1):
        assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer)
    assert ENGINE.view(other, 0) != ENGINE.view(state, 0)
    assert ENGINE.view(state, 0)["turn"]["received"]["id"] == taken


def test_the_emperors_gift_to_a_fox_holder_is_seen_only_by_the_two_of_them():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "raise"})
    state, _ = act(state, 0, {"type": "name", "value": 3})  # seat 1 caught
    gift = ids(state, 0, 5)[0]
    state, _ = act(state, 0, {"type": "give", "card": gift})
    other = swap_kinds(state, gift, ids(state, 3, 6)[0])
    for viewer in (None, 2):
        assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer)
    assert ENGINE.view(swap_kinds(state, gift, ids(state, 2, 7)[0]), 3) == ENGINE.view(state, 3)
    assert ENGINE.view(other, 0) != ENGINE.view(state, 0)
    assert ENGINE.view(other, 1) != ENGINE.view(state, 1)


def _fox_emperor_gives_to_a_fox_holder(rules_version):
    state = build(FOUR, foxes=[1, 1, 0, 0])  # the emperor (seat 0) holds a fox, and seat 1
    state["rules_version"] = rules_version
    state, _ = hands_round(state, 2, {2: "raise", 3: "raise"})  # seat 1 is down (fox)
    state, _ = act(state, 0, {"type": "name", "value": 3})  # seat 1 gives its 3
    gift = ids(state, 0, 5)[0]
    state, events = act(state, 0, {"type": "give", "card": gift})
    passed = next(e for e in events if e.kind == "card_passed" and e.data["how"] == "gift")
    return state, gift, passed


def test_an_emperor_holding_foxes_gives_a_fox_holder_a_card_everybody_sees():
    state, gift, passed = _fox_emperor_gives_to_a_fox_holder(rules_version=2)
    assert passed.to is None and passed.data["card"]["id"] == gift
    for viewer in (None, 2, 3):
        seat1 = ENGINE.view(state, viewer)["seats"][1]
        assert gift in [c["id"] for c in seat1["public_cards"]] and seat1["hidden_count"] == 0
    assert ENGINE.view(state, 0)["seats"][1]["cards_you_gave"] == []


def test_a_fox_free_emperors_gift_to_a_fox_holder_stays_between_the_two():
    state = build(FOUR, foxes=[0, 1, 0, 0])
    state, _ = hands_round(state, 2, {2: "raise", 3: "raise"})
    state, _ = act(state, 0, {"type": "name", "value": 3})
    gift = ids(state, 0, 5)[0]
    state, events = act(state, 0, {"type": "give", "card": gift})
    passed = next(e for e in events if e.kind == "card_passed" and e.data["how"] == "gift")
    assert passed.data["card"] is None
    assert ENGINE.view(state, 2)["seats"][1]["hidden_count"] == 1
    assert [c["id"] for c in ENGINE.view(state, 0)["seats"][1]["cards_you_gave"]] == [gift]


def test_a_rules_version_1_game_hides_a_fox_emperors_gift_to_a_fox_holder():
    state, _gift, passed = _fox_emperor_gives_to_a_fox_holder(rules_version=1)
    assert passed.data["card"] is None
    assert ENGINE.view(state, 2)["seats"][1]["hidden_count"] == 1


def test_face_down_objects_show_neither_band_nor_id_until_turned_over():
    state = build(FOUR)
    a, b = state["grid"][0], state["grid"][2]  # bands 1 and 2
    other = swap_kinds(state, a, b)
    for viewer in (None, 0, 1, 2, 3):
        assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer)
        assert all(
            set(g) == {"slot", "status", "seen", "band", "values"}
            for g in ENGINE.view(state, viewer)["grid"]
        )
    state["seen"][0] = True
    assert ENGINE.view(state, 3)["grid"][0]["band"] == 1


def test_the_end_reveals_everything_to_everyone_alike():
    hands = [[1, 1], [2, 4, 5, 7], [2, 4, 6, 8], [5, 6, 7, 8]]
    state = build(hands, laid=[[3], [], [], []])
    state, _ = hands_round(state, 1, {1: "raise", 2: "raise", 3: "raise"})
    state, _ = act(state, 0, {"type": "reveal", "slot": band_slot(state, 1)})
    shown = ENGINE.view(state, None)
    assert all(ENGINE.view(state, s) == shown for s in range(4))
    assert [len(s["public_cards"]) for s in shown["seats"]] == [0, 4, 4, 4]
    assert all(g["band"] is not None for g in shown["grid"] if g["status"] == "face_down")
    assert shown["over"] and shown["result"]["winners"] == [0]


def test_card_zones_cover_number_cards_and_objects_once_including_laid_pairs():
    hands = [[1, 1], [2, 4, 5, 7], [2, 4, 6, 8], [5, 6, 7, 8]]
    state = build(hands, laid=[[3], [], [], []])
    zones = ENGINE.card_zones(state)
    assert len(zones["laid_pairs:0"]) == 2 and len(zones["laid_objects:0"]) == 1
    assert len(zones["object_grid"]) == 7
    assert sorted(c for zone in zones.values() for c in zone) == list(range(24))


# --- the bot ----------------------------------------------------------------------------------


def test_the_bot_announces_a_band_where_it_holds_a_single():
    state = build(FOUR)  # seat 0 holds 1 1 3 5
    assert {bot(state, 0, seed)["band"] for seed in range(30)} == {2, 3}


def test_the_bot_prefers_a_band_whose_missing_card_a_fox_holder_shows():
    state = build(FOUR, foxes=[0, 0, 1, 0])  # seat 2 visibly holds the other 5
    assert {bot(state, 0, seed)["band"] for seed in range(30)} == {3}


def test_the_bot_names_the_value_it_holds_a_single_of():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "raise"})
    assert {bot(state, 0, seed)["value"] for seed in range(20)} == {3}


def test_the_bot_gives_away_a_single_and_never_breaks_a_pair():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "down"})
    state, _ = act(state, 0, {"type": "pick", "seat": 3})
    ones = set(ids(state, 0, 1))
    assert all(bot(state, 0, seed)["card"] not in ones for seed in range(30))


def test_the_bot_takes_the_partner_of_its_single_from_a_caught_liar():
    state = build(FOUR)
    state, _ = hands_round(state, 2, {1: "raise", 2: "down", 3: "raise"})
    state, _ = act(state, 0, {"type": "name", "value": 4})
    state, _ = act(state, 0, {"type": "give", "card": ids(state, 0, 5)[0]})
    assert bot(state, 0) == {"type": "take", "card": ids(state, 3, 4)[0]}


def test_the_bot_remembers_a_seen_object_that_fits_its_pair():
    state = at_reveal(build(FOUR), raised=[])
    slot = [i for i, o in enumerate(state["grid"]) if object_band(state, o) == 1][1]
    state["seen"][slot] = True
    assert {bot(state, 0, seed)["slot"] for seed in range(20)} == {slot}


def test_the_bot_explores_unseen_objects_when_none_it_knows_fits():
    state = at_reveal(build(FOUR, emperor=1), raised=[])  # seat 1 holds no pair
    state["seen"][0] = state["seen"][1] = True
    assert 0 not in {bot(state, 1, seed)["slot"] for seed in range(30)}
    assert 1 not in {bot(state, 1, seed)["slot"] for seed in range(30)}


def test_the_bot_raises_its_hand_truthfully_when_it_holds_nothing_in_the_band():
    state, _ = act(build(FOUR), 0, {"type": "announce", "band": 1})
    assert {bot(state, 1, seed)["choice"] for seed in range(30)} == {"raise"}


def test_the_bot_lies_sometimes_with_a_lone_card_but_never_with_a_pair():
    state, _ = act(build(FOUR), 0, {"type": "announce", "band": 2})
    choices = [bot(state, 1, seed)["choice"] for seed in range(200)]  # seat 1 holds one 3
    assert 20 < choices.count("raise") < 100
    state, _ = act(build(FOUR, emperor=1), 1, {"type": "announce", "band": 1})
    assert {bot(state, 0, seed)["choice"] for seed in range(30)} == {"down"}  # holds 1 1


def test_the_bot_passes_the_emperor_card_to_the_candidate_with_fewest_pairs():
    hands = [[1, 1, 3, 6], [2, 3, 7, 8], [4, 7], [2, 4, 6, 8]]
    state = build(hands, laid=[[], [], [5], []])
    state = at_reveal(state, raised=[2, 3], band=2)
    state, _ = act(state, 0, {"type": "reveal", "slot": band_slot(state, 2)})
    assert {bot(state, 0, seed)["seat"] for seed in range(20)} == {3}
