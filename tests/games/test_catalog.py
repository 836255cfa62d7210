"""A game is one package: no shared module names a game's event kinds, card kinds or slug.

The kinds are read from the engines themselves (bot games played to the end), so the list
cannot go stale when a game gains an event or a card. "Shared" is everything outside the
game packages (``games/engines/<game>/``, ``games/catalog/<game>/``), the registries, the
migrations and the translation catalogues.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from games.catalog import registry as catalog
from games.catalog.base import GENERIC_BOARD, Presentation
from games.engines import registry

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("accounts", "config", "games", "templates", "static")
SUFFIXES = {".py", ".html", ".txt", ".js", ".css"}
NOT_SHARED = (
    "games/engines/",  # the engines (each game's package, and the engines' registry)
    "games/catalog/",  # the presentations (each game's package, and their registry)
    "/migrations/",
    "static/vendor/",
)
# A literal that happens to spell a kind but means something else where it stands.
HOMONYMS = {
    ("static/js/table.js", "number"): "typeof x === 'number'",
    ("templates/games/vacation.html", "number"): '<input type="number">',
    ("accounts/models.py", "declined"): "a friend request's status",
    ("games/models.py", "declined"): "an invitation's or a live-pace answer's status",
    ("games/selectors.py", "played"): "the PlayerRecord column (tables played)",
    ("games/labels.py", "number"): 'the English word for the view key "n"',
}
LITERAL = re.compile(r"""(?<![\w-])["']([a-z][a-z0-9_-]*)["']""")


def _cards_in(node: Any, found: set[str]) -> None:
    if isinstance(node, dict):
        if isinstance(node.get("kind"), str) and ({"id", "value", "values"} & node.keys()):
            found.add(node["kind"])
        for value in node.values():
            _cards_in(value, found)
    elif isinstance(node, list):
        for value in node:
            _cards_in(value, found)


def engine_words() -> dict[str, str]:
    """Every event kind, card kind and slug the engines use -> the game it belongs to."""
    words: dict[str, str] = {}
    for slug, engine in sorted(registry.ENGINES.items()):
        words[slug] = slug
        kinds: set[str] = set()
        for players in range(engine.min_players, engine.max_players + 1):
            rng = random.Random(players)
            state = engine.setup(players, {}, players)
            while engine.result(state) is None:
                waiting = engine.waiting_for(state)
                seat = rng.choice(list(waiting.seats))
                aside = engine.bot_aside(state, seat, rng) if rng.random() < 0.3 else None
                state, events = engine.apply(
                    state, seat, aside or engine.bot_action(state, seat, rng)
                )
                for event in events:
                    kinds.add(event.kind)
                    _cards_in(dict(event.data), kinds)
                _cards_in(engine.view(state, seat), kinds)
            _cards_in(engine.view(state, None), kinds)
        for kind in kinds:
            words.setdefault(kind, slug)
    return words


def shared_files() -> Iterator[Path]:
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix in SUFFIXES and not any(part in rel for part in NOT_SHARED):
                yield path


@pytest.fixture(scope="module")
def words() -> dict[str, str]:
    return engine_words()


def test_the_engines_tell_their_kinds(words):
    """The derivation finds what every game is known for (so an empty list cannot pass)."""
    assert {"offered", "called", "royal_rat", "joker"} <= words.keys()
    assert {"slipped", "accused", "moth", "mosquito"} <= words.keys()
    assert {"band_announced", "pair_laid", "object"} <= words.keys()
    assert set(registry.ENGINES) <= words.keys()


def test_no_shared_module_names_a_games_kinds_or_slug(words):
    found = []
    for path in shared_files():
        rel = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in LITERAL.finditer(line):
                word = match.group(1)
                if word in words and (rel, word) not in HOMONYMS:
                    found.append(f"{rel}:{number}: {word!r} ({words[word]})")
    assert found == [], "move these into the game's package:\n" + "\n".join(found)


def test_the_homonyms_are_still_there():
    """Every exception above still matches a line (a stale exception would hide a new one)."""
    for (rel, word), _why in HOMONYMS.items():
        assert re.search(rf"[\"']{word}[\"']", (ROOT / rel).read_text(encoding="utf-8")), rel


def test_every_game_registers_its_presentation_and_board():
    for slug in registry.ENGINES:
        presentation = catalog.get(slug)
        assert presentation.slug == slug
        assert type(presentation) is not Presentation
        assert presentation.board_template == f"catalog/{slug}/board.html"
        package = type(presentation).__module__.split(".")[2]
        board = ROOT / "games/catalog" / package / "templates" / presentation.board_template
        assert board.is_file(), board


def test_a_game_without_a_presentation_gets_the_generic_one():
    generic = catalog.get("no-such-game")
    assert type(generic) is Presentation and generic.board_template == GENERIC_BOARD
    assert generic.word("stink_bug") == "stink bug"
    text = generic.sentence({"kind": "table_flipped", "data": {"seat": 1}}, ["Anouk", "Bertil"])
    assert text.startswith("Table flipped") and "Bertil" in text


def test_colliding_kinds_read_per_game():
    """Two engines say ``turn_started``: each game tells its own."""
    names = ["Anouk", "Bertil", "Cosima"]
    event = {"kind": "turn_started", "data": {"turn": 2, "seat": 1, "emperor": 2}}
    mogel = catalog.get("mogel-motte").sentence(event, names)
    imperador = catalog.get("imperador").sentence(event, names)
    assert "Bertil" in mogel and "Cosima" not in mogel
    assert "Cosima" in imperador and "emperor" in imperador


@pytest.mark.django_db
def test_board_highlights_come_from_the_seats_legal_actions(started):
    """Mogel Motte's playable cards are the cards of the seat's legal "play" actions."""
    from django.test import Client
    from django.urls import reverse

    from tests.games.helpers import seat_users

    game = started("mogel-motte")
    engine = registry.get(game.engine)
    for seat, user in seat_users(game).items():
        client = Client()
        client.force_login(user)
        html = client.get(reverse("games:table", args=[game.pk])).content.decode()
        hand = html.split('class="my-hand"', 1)[1].split('class="cards">', 1)[1]
        hand = hand.split("</div>", 1)[0]
        legal = engine.legal_actions(game.state, seat)
        playable = {a["card"] for a in legal if a["type"] == "play"}
        cards = engine.view(game.state, seat)["you"]["hand"]
        kinds = {(c["kind"], c.get("value")) for c in cards}
        playable_kinds = {(c["kind"], c.get("value")) for c in cards if c["id"] in playable}
        # equal cards are one chip "×n" (as in Cockroach Poker's hand), playable or not
        assert hand.count(" playable") == len(playable_kinds), seat
        assert hand.count('class="card ') == len(kinds)
        counts = [int(n) for n in re.findall(r'class="n">×(\d+)<', hand)]
        assert sum(counts) + len(kinds) - len(counts) == len(cards)


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "Anouk discards a fox.", "Anouk and Bertil discard a fox each."),
        ("fr", "Anouk se défausse d’un renard.", "se défaussent chacun d’un renard."),
        ("pt", "Anouk descarta uma raposa.", "descartam uma raposa cada."),
    ],
)
def test_shedding_foxes_agrees_with_the_number_of_players(lang, one, two):
    """One player sheds a fox in the singular ("Alice discard a fox." was read at a table)."""
    imperador = catalog.get("imperador")
    names = ["Anouk", "Bertil", "Cosima"]
    with translation.override(lang):
        alone = imperador.sentence({"kind": "foxes_shed", "data": {"seats": [0]}}, names)
        both = imperador.sentence({"kind": "foxes_shed", "data": {"seats": [0, 1]}}, names)
    assert alone == one
    assert two in both and "Bertil" in both


@pytest.mark.parametrize("slug", sorted(registry.ENGINES))
def test_a_sentence_that_opens_with_a_name_keeps_the_name_as_written(slug):
    """A history line begins with a capital, but a player's name is theirs: "caiophone played
    cockroach 5." read "Caiophone played…" in the history, the latest moves and the replay
    (phone review, 2026-12-07), while the seats and the talk beside it said "caiophone"."""
    engine, presentation = registry.get(slug), catalog.get(slug)
    names = ["mia", "noa", "oli"]
    rng = random.Random(7)
    state = engine.setup(3, {}, 7)
    opened_with_a_name = 0
    for _move in range(200):
        if engine.result(state) is not None:
            break
        seat = rng.choice(list(engine.waiting_for(state).seats))
        state, events = engine.apply(state, seat, engine.bot_action(state, seat, rng))
        for event in events:
            text = presentation.sentence({"kind": event.kind, "data": dict(event.data)}, names)
            for name in names:
                if text.lower().startswith(name):
                    opened_with_a_name += 1
                    assert text.startswith(name), text
    assert opened_with_a_name
    # a line that opens with a word still begins with a capital
    assert catalog.get("no-such-game").sentence({"kind": "table_flipped"}, names)[0] == "T"


@pytest.mark.parametrize(
    "names",
    [
        ["b", "noa"],  # a name that is only the first letters of the opening word
        ["bat", "noa"],  # a name that is the opening word, but not this sentence's name
        ["Bat", "noa"],
    ],
)
def test_a_sentence_that_opens_with_a_card_begins_with_a_capital_whatever_the_names(names):
    """A sentence kept its small first letter whenever it began with the letters of any
    player's name: beside a player called "b" (or "bat"), "Bat goes into noa's row." read
    "bat goes into noa's row." (review, 2026-12-07)."""
    cockroach = catalog.get("cockroach-poker-royal")
    line = cockroach.sentence(
        {"kind": "to_row", "data": {"card": {"kind": "bat"}, "seat": 1}}, names
    )
    assert line == "Bat goes into noa's row."
    # the seat's own name opening it stays as written
    mine = cockroach.sentence(
        {"kind": "to_row", "data": {"card": {"kind": "bat"}, "seat": 0}}, ["noa", "b"]
    )
    assert mine.startswith("Bat goes into noa")
