"""Scenario tests on hand-built positions: one per rule [R] and decision [D] of
/work/shared/rules/cockroach-poker-royal.md (views and the bot: test_views_and_bot.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines.cockroach_poker import ENGINE
from games.engines.cockroach_poker import cards as C
from games.engines.core import IllegalAction
from tests.engines.cockroach_poker.tables import (
    call,
    card,
    event_kinds,
    hand,
    name,
    offer,
    pass_on,
    peek,
    play,
    row,
    table,
)

# --- cards ----------------------------------------------------------------------------


def test_the_deck_has_56_normal_7_royal_one_joker_and_one_blank():
    deck = Counter(C.deck_kinds())
    assert sum(deck.values()) == 65
    assert all(deck[s] == 8 and deck[C.royal_kind(s)] == 1 for s in C.SPECIES)
    assert deck["joker"] == deck["blank"] == 1
    assert len(C.SPECIES) == 7 and len(C.CLAIMS) == 8


def test_a_normal_card_is_truly_only_its_own_species():
    assert [c for c in C.CLAIMS if C.is_true("rat", c)] == ["rat"]


def test_a_royal_card_is_truly_its_species_and_royal():
    assert [c for c in C.CLAIMS if C.is_true("royal_rat", c)] == ["rat", "royal"]


def test_the_joker_is_every_species_but_royal_is_a_lie():
    assert [c for c in C.CLAIMS if C.is_true("joker", c)] == list(C.SPECIES)


def test_the_blank_makes_every_claim_a_lie():
    assert not any(C.is_true("blank", c) for c in C.CLAIMS)


def test_card_ids_are_shuffled_per_game_so_an_id_never_maps_to_a_kind():
    maps = {tuple(ENGINE.setup(4, {}, seed)["kinds"]) for seed in range(5)}
    assert len(maps) == 5
    assert all(sorted(m) == sorted(C.deck_kinds()) for m in maps)


# --- setup ----------------------------------------------------------------------------


def test_the_tables_creator_may_pick_the_starting_player():
    for first in range(5):
        state = ENGINE.setup(5, {"first_seat": first}, seed=3)
        assert state["active"] == first and state["phase"] == "offer"


def test_by_default_the_starting_player_is_drawn_from_the_seed():
    firsts = {ENGINE.setup(4, {}, seed)["active"] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert ENGINE.setup(4, {}, 11) == ENGINE.setup(4, {}, 11)


@pytest.mark.parametrize("bad", [-1, 4, "1", True, 1.0])
def test_a_bad_starting_player_option_is_refused(bad):
    with pytest.raises(IllegalAction):
        ENGINE.setup(4, {"first_seat": bad}, seed=1)


@pytest.mark.parametrize(
    ("players", "sizes", "pile"),
    [
        (2, [25, 24], 16),
        (3, [20, 19, 19], 7),
        (4, [15, 14, 14, 14], 8),
        (5, [12, 11, 11, 11, 11], 9),
        (6, [10, 9, 9, 9, 9, 9], 10),
    ],
)
def test_the_deal_gives_the_starting_player_the_extra_card_and_the_rest_goes_under_the_pile(
    players, sizes, pile
):
    first = players - 1
    state = ENGINE.setup(players, {"first_seat": first}, seed=5)
    counts = [len(state["hands"][(first + k) % players]) for k in range(players)]
    assert counts == sizes
    assert len(state["penalty"]) == pile
    assert ENGINE.view(state, None)["penalty"]["top"]["id"] == state["penalty"][0]


# --- a round --------------------------------------------------------------------------


def test_an_offer_sends_a_card_from_the_hand_face_down_with_a_claim():
    state = table([["rat", "fly"], ["bat"], ["toad"]])
    state, events = play(
        state, 0, {"type": "offer", "card": card(state, 0, "rat"), "to": 2, "claim": "bat"}
    )
    assert hand(state, 0) == ["fly"]
    assert state["phase"] == "answer" and state["active"] == 2
    offered = next(e for e in events if e.kind == "offered")
    assert offered.to is None and offered.data == {"number": 1, "from": 0, "to": 2, "claim": "bat"}
    secret = next(e for e in events if e.kind == "your_card")
    assert secret.to == (0,) and secret.data["card"]["kind"] == "rat"


@pytest.mark.parametrize(
    ("change", "code", "message"),
    [
        ({"to": 0}, "bad_target", "Give the card to another player."),
        ({"to": 3}, "bad_target", "No such player to give to."),
        ({"claim": "dragon"}, "bad_choice", "'dragon' is not a valid claim."),
    ],
)
def test_an_offer_must_go_to_another_player_with_one_of_the_eight_claims(change, code, message):
    state = table([["rat"], ["bat"], ["toad"]])
    action = {"type": "offer", "card": card(state, 0, "rat"), "to": 1, "claim": "rat", **change}
    with pytest.raises(IllegalAction) as caught:
        play(state, 0, action)
    assert caught.value.code == code and caught.value.message == message


def test_only_the_active_player_may_offer_and_only_a_card_in_their_hand():
    state = table([["rat"], ["bat"], ["toad"]])
    with pytest.raises(IllegalAction, match="not your turn"):
        play(state, 1, {"type": "offer", "card": card(state, 1, "bat"), "to": 2, "claim": "bat"})
    with pytest.raises(IllegalAction) as caught:
        play(state, 0, {"type": "offer", "card": card(state, 1, "bat"), "to": 2, "claim": "bat"})
    assert caught.value.code == "not_in_hand"
    assert ENGINE.legal_actions(state, 1) == []


@pytest.mark.parametrize(
    ("kind", "claim", "says", "claimer_takes"),
    [
        ("rat", "rat", "true", True),
        ("rat", "rat", "false", False),
        ("rat", "bat", "false", True),
        ("rat", "bat", "true", False),
    ],
)
def test_a_right_call_gives_the_card_to_the_claimer_and_a_wrong_one_to_the_caller(
    kind, claim, says, claimer_takes
):
    state = table([[kind, "fly"], ["bat"], ["toad"]])
    state = offer(state, 0, kind, 1, claim)
    state, events = call(state, 1, says)
    taker = 0 if claimer_takes else 1
    assert row(state, taker) == [kind] and row(state, 1 - taker) == []
    called = next(e for e in events if e.kind == "called")
    assert called.to is None and called.data["right"] is claimer_takes
    assert called.data["card"]["kind"] == kind  # the call reveals the card to all


def test_whoever_takes_the_card_makes_the_next_offer():
    state = table([["rat", "fly"], ["bat"], ["toad"]])
    state, _ = call(offer(state, 0, "rat", 1, "rat"), 1, "false")
    assert state["phase"] == "offer" and state["active"] == 1
    assert ENGINE.legal_actions(state, 1) and not ENGINE.legal_actions(state, 0)


def test_after_a_peek_the_card_is_revealed_to_that_player_only():
    state = table([["rat", "fly"], ["bat"], ["toad"]])
    state = offer(state, 0, "rat", 1, "bat")
    state, events = play(state, 1, {"type": "peek"})
    assert [(e.kind, e.to) for e in events] == [("peeked", None), ("your_card", (1,))]
    assert events[1].data["card"]["kind"] == "rat"
    assert state["round"]["seen"] == [0, 1]


def test_after_peeking_the_player_must_pass_and_can_never_call():
    state = peek(offer(table([["rat", "fly"], ["bat"], ["toad"]]), 0, "rat", 1, "bat"), 1)
    assert {a["type"] for a in ENGINE.legal_actions(state, 1)} == {"pass"}
    with pytest.raises(IllegalAction) as caught:
        call(state, 1, "true")
    assert caught.value.code == "must_pass"


def test_a_card_can_be_passed_only_to_a_player_who_has_not_seen_it():
    state = table([["rat", "fly"], ["bat"], ["toad"], ["cockroach"]])
    state = peek(offer(state, 0, "rat", 1, "bat"), 1)
    assert {a["to"] for a in ENGINE.legal_actions(state, 1)} == {2, 3}
    with pytest.raises(IllegalAction, match=r"^That player has already seen this card\.$"):
        pass_on(state, 1, 0, "rat")
    with pytest.raises(IllegalAction, match=r"^Give the card to another player\.$"):
        pass_on(state, 1, 1, "rat")
    state = pass_on(state, 1, 3, "toad")
    assert state["active"] == 3 and state["round"]["chain"][-1] == {
        "from": 1,
        "to": 3,
        "claim": "toad",
    }


def test_when_every_other_player_has_seen_the_card_the_receiver_must_call():
    state = table([["rat", "fly"], ["bat"], ["toad"]])
    state = pass_on(peek(offer(state, 0, "rat", 1, "bat"), 1), 1, 2, "rat")
    assert ENGINE.legal_actions(state, 2) == [
        {"type": "call", "says": "true"},
        {"type": "call", "says": "false"},
    ]
    with pytest.raises(IllegalAction) as caught:
        peek(state, 2)
    assert caught.value.code == "must_call"


def test_with_two_players_there_is_no_passing():
    state = offer(table([["rat", "fly"], ["bat"]]), 0, "rat", 1, "bat")
    assert {a["type"] for a in ENGINE.legal_actions(state, 1)} == {"call"}
    with pytest.raises(IllegalAction):
        peek(state, 1)


def test_a_right_call_gives_the_card_to_the_most_recent_passer():
    state = table([["rat", "fly"], ["bat"], ["toad"], ["cockroach"]])
    state = pass_on(peek(offer(state, 0, "rat", 1, "rat"), 1), 1, 2, "bat")
    state, _ = call(state, 2, "false")
    assert row(state, 1) == ["rat"] and row(state, 0) == []
    assert state["active"] == 1


def test_a_call_judges_only_the_last_claim_of_the_chain():
    state = table([["rat", "fly"], ["bat"], ["toad"], ["cockroach"]])
    state = pass_on(peek(offer(state, 0, "rat", 1, "rat"), 1), 1, 2, "bat")
    state, _ = call(state, 2, "true")  # the first claim was true, the last one is a lie
    assert row(state, 2) == ["rat"]


# --- taking cards ---------------------------------------------------------------------


def test_a_normal_card_goes_face_up_into_the_takers_row_without_penalty():
    state = table([["rat", "fly"], ["bat"], ["toad"]], penalty=["toad", "bat"])
    state, events = call(offer(state, 0, "rat", 1, "rat"), 1, "false")
    assert row(state, 1) == ["rat"] and len(state["penalty"]) == 2
    assert "penalty" not in event_kinds(events)


def test_a_royal_in_a_row_takes_the_face_up_penalty_card_and_turns_the_next_one_up():
    state = table([["royal_rat", "fly"], ["bat"], ["toad"]], penalty=["toad", "bat", "fly"])
    state, events = call(offer(state, 0, "royal_rat", 1, "royal"), 1, "false")
    assert row(state, 1) == ["royal_rat", "toad"]
    penalty = next(e for e in events if e.kind == "penalty")
    assert penalty.to is None and penalty.data["card"]["kind"] == "toad"
    assert penalty.data["new_top"]["kind"] == "bat" and penalty.data["pile_size"] == 2
    assert ENGINE.view(state, 2)["penalty"]["top"]["kind"] == "bat"


def test_a_royal_penalty_card_triggers_the_next_penalty_in_a_chain():
    pile = ["royal_bat", "royal_fly", "toad", "rat"]
    state = table([["royal_rat", "fly"], ["bat"], ["toad"]], penalty=pile)
    state, _ = call(offer(state, 0, "royal_rat", 1, "rat"), 1, "true")
    assert row(state, 0) == ["royal_rat", "royal_bat", "royal_fly", "toad"]
    assert [state["kinds"][c] for c in state["penalty"]] == ["rat"]


def test_an_empty_penalty_pile_gives_no_penalty():
    state = table([["royal_rat", "fly"], ["bat"], ["toad"]], penalty=[])
    state, events = call(offer(state, 0, "royal_rat", 1, "rat"), 1, "true")
    assert row(state, 0) == ["royal_rat"]
    assert "penalty" not in event_kinds(events)
    assert ENGINE.view(state, 1)["penalty"] == {"top": None, "size": 0}


def test_a_special_card_taken_after_a_call_goes_into_the_hand_not_the_row():
    state = table([["joker", "fly"], ["bat", "toad", "rat"], ["toad"]])
    state, events = call(offer(state, 0, "joker", 1, "bat"), 1, "false")
    assert row(state, 1) == [] and "joker" in hand(state, 1)
    announced = next(e for e in events if e.kind == "special_to_hand")
    assert announced.to is None and announced.data == {
        "seat": 1,
        "special": "joker",
        "source": "call",
    }
    assert state["phase"] == "name" and state["active"] == 1


def _after_joker(taker_hand, claim="bat", penalty=(), taker_row=()):
    """Seat 1 wrongly calls the joker a lie and must name cards from ``taker_hand``."""
    state = table(
        [["joker", "fly"], taker_hand, ["toad"]], rows=[[], list(taker_row), []], penalty=penalty
    )
    state, _ = call(offer(state, 0, "joker", 1, claim), 1, "false")
    return state


def test_the_taker_of_a_special_card_may_name_one_card_that_truly_matches_the_claim():
    state = _after_joker(["bat", "toad", "rat"])
    state, events = name(state, 1, "bat")
    assert row(state, 1) == ["bat"] and sorted(hand(state, 1)) == ["joker", "rat", "toad"]
    assert next(e for e in events if e.kind == "named").to is None
    assert state["phase"] == "offer" and state["active"] == 1


def test_a_single_named_card_must_truly_match_the_claim():
    state = _after_joker(["bat", "toad", "rat"])
    with pytest.raises(IllegalAction) as caught:
        name(state, 1, "toad")
    assert caught.value.code == "bad_naming"


def test_a_royal_matches_the_claim_royal_when_naming():
    state = table([["blank", "fly"], ["royal_toad", "rat", "bat"], ["toad"]], penalty=["fly"])
    state, _ = call(offer(state, 0, "blank", 1, "royal"), 1, "true")
    assert [{"type": "name", "cards": [card(state, 1, "royal_toad")]}] == [
        a for a in ENGINE.legal_actions(state, 1) if len(a["cards"]) == 1
    ]
    state, _ = name(state, 1, "royal_toad")
    assert row(state, 1) == ["royal_toad", "fly"]


def test_the_taker_of_a_special_card_may_instead_name_any_two_cards_in_order():
    state = _after_joker(["bat", "toad", "rat"])
    state, _ = name(state, 1, "rat", "toad")
    assert row(state, 1) == ["rat", "toad"] and sorted(hand(state, 1)) == ["bat", "joker"]


def test_special_cards_can_never_be_named():
    state = _after_joker(["bat", "toad", "blank"])
    assert all(
        not C.is_special(state["kinds"][c])
        for a in ENGINE.legal_actions(state, 1)
        for c in a["cards"]
    )
    with pytest.raises(IllegalAction):
        name(state, 1, "bat", "blank")
    with pytest.raises(IllegalAction):
        name(state, 1, "joker", "bat")


def test_with_fewer_than_two_non_special_cards_all_of_them_are_named_at_once():
    state = _after_joker(["toad", "blank"])
    assert row(state, 1) == ["toad"] and sorted(hand(state, 1)) == ["blank", "joker"]
    # left with special cards only, the taker must offer next: they lose (rules version 2)
    assert ENGINE.result(state)["losers"] == [1]


def test_with_no_non_special_card_nothing_is_named():
    state = _after_joker(["blank"])
    assert row(state, 1) == [] and sorted(hand(state, 1)) == ["blank", "joker"]
    assert ENGINE.result(state)["reason"] == "only_special_in_hand"


def test_in_a_rules_version_1_game_a_taker_left_with_special_cards_only_plays_on():
    state = table([["joker", "fly"], ["toad", "blank"], ["toad"]])
    state["rules_version"] = 1
    state, _ = call(offer(state, 0, "joker", 1, "bat"), 1, "false")
    assert row(state, 1) == ["toad"] and sorted(hand(state, 1)) == ["blank", "joker"]
    assert state["phase"] == "offer" and state["active"] == 1


def test_named_cards_go_down_in_order_and_each_royal_penalty_resolves_before_the_next():
    state = _after_joker(["royal_rat", "bat", "toad"], penalty=["scorpion", "fly"])
    state, events = name(state, 1, "royal_rat", "bat")
    assert row(state, 1) == ["royal_rat", "scorpion", "bat"]
    placed = [e.data["card"]["kind"] for e in events if e.kind == "to_row"]
    assert placed == ["royal_rat", "scorpion", "bat"]


def test_a_special_penalty_card_during_naming_is_answered_before_the_next_named_card():
    state = _after_joker(["royal_rat", "bat", "toad"], penalty=["blank", "fly"])
    state, _ = name(state, 1, "royal_rat", "bat")
    # the blank goes to the hand; its two-of-choice naming takes the only plain card (toad)
    assert row(state, 1) == ["royal_rat", "toad", "bat"]
    assert sorted(hand(state, 1)) == ["blank", "joker"]


def test_the_game_ends_as_soon_as_a_named_card_completes_a_row():
    state = _after_joker(["rat", "bat", "toad"], taker_row=["rat", "rat", "rat"])
    state, _ = name(state, 1, "rat", "bat")
    assert ENGINE.result(state)["losers"] == [1]
    assert row(state, 1) == ["rat"] * 4
    assert [state["kinds"][c] for c in ENGINE.card_zones(state)["named_not_placed"]] == ["bat"]


def test_a_special_card_taken_as_a_penalty_goes_to_the_hand_and_two_cards_of_choice_follow():
    state = table(
        [["royal_rat", "fly"], ["bat", "toad", "scorpion"], ["toad"]], penalty=["joker", "fly"]
    )
    state, events = call(offer(state, 0, "royal_rat", 1, "rat"), 1, "false")
    assert row(state, 1) == ["royal_rat"] and "joker" in hand(state, 1)
    special = next(e for e in events if e.kind == "special_to_hand")
    assert special.data == {"seat": 1, "special": "joker", "source": "penalty"}
    legal = ENGINE.legal_actions(state, 1)
    assert legal and all(len(a["cards"]) == 2 for a in legal)  # no claim to match
    state, _ = name(state, 1, "scorpion", "bat")
    assert row(state, 1) == ["royal_rat", "scorpion", "bat"]
    assert ENGINE.view(state, 0)["penalty"]["top"]["kind"] == "fly"


# --- the end --------------------------------------------------------------------------


def test_four_of_one_species_in_a_row_loses_and_everybody_else_wins():
    state = table([["rat", "fly"], ["bat"], ["toad"]], rows=[[], ["rat", "rat", "rat"], []])
    state, events = call(offer(state, 0, "rat", 1, "rat"), 1, "false")
    result = ENGINE.result(state)
    assert result["losers"] == [1] and result["winners"] == [0, 2]
    assert result["reason"] == "row_limit" and "game_over" in event_kinds(events)
    assert ENGINE.waiting_for(state).kind == "none"
    assert all(ENGINE.legal_actions(state, s) == [] for s in range(3))


def test_royals_count_as_their_species_and_the_game_ends_before_their_penalty():
    state = table(
        [["royal_rat", "fly"], ["bat"], ["toad"]],
        rows=[[], ["rat", "rat", "rat"], []],
        penalty=["bat"],
    )
    state, _ = call(offer(state, 0, "royal_rat", 1, "royal"), 1, "false")
    assert ENGINE.result(state)["losers"] == [1]
    assert row(state, 1) == ["rat", "rat", "rat", "royal_rat"] and len(state["penalty"]) == 1


def test_three_of_a_species_is_still_safe_with_three_or_more_players():
    state = table([["rat", "fly"], ["bat"], ["toad"]], rows=[[], ["rat", "rat"], []])
    state, _ = call(offer(state, 0, "rat", 1, "rat"), 1, "false")
    assert ENGINE.result(state) is None


def test_with_two_players_the_limit_is_five_of_a_species():
    state = table([["rat", "rat", "fly"], ["bat"]], rows=[[], ["rat"] * 3])
    state, _ = call(offer(state, 0, "rat", 1, "rat"), 1, "false")
    assert ENGINE.result(state) is None and row(state, 1) == ["rat"] * 4
    state, _ = call(offer(state, 1, "bat", 0, "fly"), 0, "true")  # wrong: seat 0 takes the bat
    state, _ = call(offer(state, 0, "rat", 1, "bat"), 1, "true")
    assert ENGINE.result(state)["losers"] == [1] and ENGINE.result(state)["winners"] == [0]


def test_a_player_who_must_offer_with_an_empty_hand_loses():
    state = table([["rat", "fly"], [], ["toad"]])
    state, _ = call(offer(state, 0, "rat", 1, "rat"), 1, "false")
    result = ENGINE.result(state)
    assert result["losers"] == [1] and result["reason"] == "empty_hand"


def test_when_no_hand_holds_a_normal_card_the_player_who_must_offer_loses():
    state = table([["joker"], ["blank"], []])
    state, _ = call(offer(state, 0, "joker", 1, "rat"), 1, "true")
    result = ENGINE.result(state)
    assert result["losers"] == [0] and result["reason"] == "only_special_cards"


def test_a_player_who_must_offer_holding_only_special_cards_loses_as_if_the_hand_were_empty():
    state = table([["blank", "rat"], ["bat"], ["toad", "joker"]])
    state, events = call(offer(state, 0, "rat", 1, "rat"), 1, "true")  # seat 0 takes, must offer
    result = ENGINE.result(state)
    assert result["losers"] == [0] and result["winners"] == [1, 2]
    assert result["reason"] == "only_special_in_hand"
    assert "game_over" in event_kinds(events)


def test_a_lone_special_card_no_longer_goes_back_and_forth_until_the_offer_cap():
    state = table([["joker", "rat"], ["bat", "fly"], ["toad"]])
    state, _ = call(offer(state, 0, "joker", 1, "fly"), 1, "true")  # right: the joker comes back
    assert row(state, 0) == ["rat"] and hand(state, 0) == ["joker"]  # its one card is named
    assert ENGINE.result(state)["losers"] == [0] and state["offers"] == 1


def test_a_game_started_under_rules_version_1_lets_a_player_with_only_special_cards_offer():
    state = table([["blank", "rat"], ["bat"], ["toad", "joker"]])
    state["rules_version"] = 1
    state, _ = call(offer(state, 0, "rat", 1, "rat"), 1, "true")
    assert ENGINE.result(state) is None and state["phase"] == "offer" and state["active"] == 0
    assert {a["card"] for a in ENGINE.legal_actions(state, 0)} == {card(state, 0, "blank")}


def test_after_500_offers_the_player_with_the_most_cards_in_their_row_loses():
    rows = [["bat"], ["fly", "toad"], ["rat", "bat", "toad"]]
    state = table([["rat", "fly"], ["bat"], ["toad"]], rows=rows, offers=499)
    state, _ = call(offer(state, 0, "rat", 1, "rat"), 1, "true")  # seat 0 takes: 2 cards
    result = ENGINE.result(state)
    assert result["losers"] == [2] and result["reason"] == "offer_limit"


def test_after_500_offers_a_tie_goes_against_the_player_who_must_offer_next():
    rows = [["bat"], ["fly", "toad"], ["bat", "toad"]]
    state = table([["rat", "fly"], ["bat"], ["toad"]], rows=rows, offers=499)
    state, _ = call(offer(state, 0, "rat", 2, "rat"), 2, "false")  # seat 2 takes and must offer
    assert ENGINE.result(state)["losers"] == [2]


def test_before_500_offers_the_game_goes_on():
    state = table([["rat", "fly"], ["bat"], ["toad"]], offers=498)
    state, _ = call(offer(state, 0, "rat", 1, "rat"), 1, "true")
    assert ENGINE.result(state) is None and state["offers"] == 499
