"""Rules versions: a game keeps the rules it started with, or is refused with a clear error."""

from __future__ import annotations

import pytest

from games.engines import registry
from games.engines.core import UnknownRulesVersion
from tests.engines.playthrough import canonical, play

SLUGS = sorted(registry.ENGINES)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_current_rules_are_the_default_and_every_version_is_kept(slug):
    engine = registry.get(slug)
    assert registry.get(slug, engine.rules_version) is engine
    assert engine.rules_version == 2
    older = registry.get(slug, 1)
    assert older.slug == slug and older.rules_version == 1
    assert older.setup(older.min_players, {}, 3)["rules_version"] == 1
    assert engine.setup(engine.min_players, {}, 3)["rules_version"] == 2


@pytest.mark.parametrize("slug", SLUGS)
def test_a_rules_version_this_code_does_not_have_is_refused_clearly(slug):
    with pytest.raises(UnknownRulesVersion) as caught:
        registry.get(slug, 99)
    assert slug in str(caught.value) and "99" in str(caught.value)
    assert caught.value.known == (1, 2)
    with pytest.raises(KeyError):
        registry.get("no-such-game", 1)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_version_1_game_plays_to_its_end_and_replays_under_its_own_rules(slug):
    older = registry.get(slug, 1)
    run = play(older, older.min_players + 1, seed=5, policy="mixed")
    state = older.setup(run.players, {}, run.seed)
    for step in run.steps:
        state, _ = older.apply(state, step.seat, step.action)
    assert canonical(state) == canonical(run.final)
    assert run.final.get("rules_version", 1) == 1


@pytest.mark.parametrize("slug", SLUGS)
def test_tables_stored_with_the_old_name_of_the_starting_seat_option_still_start(slug):
    old_name = {
        "cockroach-poker-royal": "first",
        "imperador": "first_emperor",
        "mogel-motte": "first_guard",
    }[slug]
    engine = registry.get(slug)
    assert engine.setup(3, {old_name: 2}, 9) == engine.setup(3, {"first_seat": 2}, 9)
