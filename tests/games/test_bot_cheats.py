"""Bots cheat like people: the moment of a bot's sleeve cheat does not tell a guard which bot
made it. Driven through the one change path, as a human at a table of bots plays."""

from __future__ import annotations

import random

import pytest

from games import services
from games.engines import registry
from games.models import Event, Game

pytestmark = pytest.mark.django_db

ENOUGH_CHEATS = 200


def public_seat(row: Event) -> int | None:
    """The seat a row's public events name as acting (a played card, a race), if any."""
    for event in row.events:
        if event["to"] is None and isinstance(event["data"].get("seat"), int):
            return event["data"]["seat"]
    return None


def test_a_guard_names_a_bot_cheater_no_better_than_chance(alice):
    """Estimators, from what the human seat reads (its view's fidget notices, which carry the
    seat on turn and the guard, and the public event rows): (a) the seat on turn when the fidget
    appeared — the attack that named the cheater 43 times out of 45 — and (b) the last seat a
    public row named as acting before the fidget. Chance: 1 / the bots that could have cheated
    (not the guard). Each estimator's accuracy over 200+ bot cheats stays under chance + 10 %."""
    engine = registry.get("mogel-motte")
    rng = random.Random(3)
    hits = {"on_turn": 0, "last_actor": 0}
    chance = 0.0
    cheats = 0
    for _table in range(60):
        game = services.game_create(alice, engine="mogel-motte", seats=4, bots=3)
        services.game_start(alice, game.pk)
        seen: dict[int, dict] = {}
        while cheats + len(seen) < ENOUGH_CHEATS:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            view = engine.view(game.state, 0)
            for fidget in view["fidgets"]:
                seen.setdefault((fidget["n"], fidget["turn"]), dict(fidget))
            legal = engine.legal_actions(game.state, 0)
            owed = [a for a in legal if a["type"] not in ("cheat", "accuse")]
            assert owed, "the human is asked for nothing: bots settle what they owe"
            # The human never cheats or accuses: every fidget here is a bot's.
            action = engine.bot_action(game.state, 0, rng)
            if action["type"] in ("cheat", "accuse"):
                action = rng.choice(owed)
            services.act(alice, game.pk, game.version_for(0), action)
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
