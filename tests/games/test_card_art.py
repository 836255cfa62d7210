"""Every card the engines deal has its own picture, a name in every language, and a readable
picture: collected from bot-played games, not from a hand-written list."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template import Context, Template
from django.utils import translation

from games.catalog.pictures import picture_path
from games.catalog.registry import art as art_module
from games.engines import registry
from games.engines.mogel_motte import cards as mogel_cards

ROOT = Path(settings.BASE_DIR)
SVG_NS = "{http://www.w3.org/2000/svg}"
# Markers are not cards in the engines' views, but each has a picture of its own.
MARKERS = {"mogel-motte": ["guard"], "imperador": ["sheep", "fox", "emperor"]}


def _walk(value: Any, found: dict[str, dict]) -> None:
    if isinstance(value, dict):
        if "id" in value and isinstance(value.get("kind"), str):
            found.setdefault(
                repr(sorted((k, repr(v)) for k, v in value.items() if k != "id")), value
            )
        for item in value.values():
            _walk(item, found)
    elif isinstance(value, list):
        for item in value:
            _walk(item, found)


def _cards_of_bot_games(slug: str) -> list[dict]:
    """Every distinct card dict the engine's views show in whole bot games, at every count."""
    engine = registry.ENGINES[slug]
    found: dict[str, dict] = {}
    for players in range(engine.min_players, engine.max_players + 1):
        for seed in range(3):
            state = engine.setup(players, {}, seed)
            rng = random.Random(seed)
            steps = 0
            while engine.result(state) is None and steps < 4000:
                seat = rng.choice(list(engine.waiting_for(state).seats))
                _walk(engine.view(state, seat), found)
                state, _events = engine.apply(state, seat, engine.bot_action(state, seat, rng))
                steps += 1
            _walk(engine.view(state, None), found)
    return list(found.values())


@pytest.fixture(scope="module")
def cards() -> dict[str, list[dict]]:
    return {slug: _cards_of_bot_games(slug) for slug in sorted(registry.ENGINES)}


def test_the_bot_games_show_every_kind_of_card(cards):
    files = {
        slug: {art_module(slug).face(card).file for card in found} for slug, found in cards.items()
    }
    assert {f"royal_{s}" for s in ("rat", "toad")} | {"joker", "blank", "fly"} <= files[
        "cockroach-poker-royal"
    ]
    assert len(files["cockroach-poker-royal"]) == 16  # 7 creatures, 7 royals, joker, blank
    # number cards 1-5 and the four actions and the moth
    assert len(files["mogel-motte"]) == 5 + len(mogel_cards.ACTION_KINDS) + 1
    # numbers 1..12 (six players) and the six objects
    assert len(files["imperador"]) == 12 + 6
    assert "back" not in set().union(*files.values())  # every card got its own face


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_every_card_has_a_picture_and_a_name_in_every_language(language, cards):
    with translation.override(language):
        for slug, found in cards.items():
            art = art_module(slug)
            faces = [art.face(card) for card in found]
            faces += [art.face({"kind": marker}) for marker in MARKERS.get(slug, [])]
            faces.append(art.back())
            names = set()
            for face in faces:
                assert finders.find(picture_path(slug, face)), (slug, face)
                assert face.name.strip() and "%(" not in face.name, (slug, face)
                names.add(face.name)
            assert len(names) == len(faces), f"two {slug} cards share a name in {language}"


def test_names_are_translated():
    card = {"id": 3, "kind": "royal_stink_bug"}
    art = art_module("cockroach-poker-royal")
    with translation.override("en"):
        english = art.face(card).name
    for language in ("fa", "cs", "pt", "fr"):
        with translation.override(language):
            assert art.face(card).name != english, language


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


SVGS = sorted(ROOT.glob("games/catalog/*/static/catalog/*/cards/*.svg"))


def test_there_are_pictures():
    assert len(SVGS) >= 45


@pytest.mark.parametrize("path", SVGS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_each_picture_is_small_valid_svg_with_readable_text(path):
    assert path.stat().st_size < 4096
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG_NS}svg" and root.get("viewBox") == "0 0 60 84"
    ground = root.find(f"{SVG_NS}rect").get("fill")
    for text in root.iter(f"{SVG_NS}text"):
        fill = text.get("fill")
        assert re.fullmatch(r"#[0-9a-f]{6}", fill), fill
        assert _contrast(fill, ground) >= 4.5, (path.name, fill, ground)
    assert not root.findall(f".//{SVG_NS}image") and not root.findall(f".//{SVG_NS}script")


@translation.override("en")
def test_the_tag_draws_the_picture_with_its_name():
    html = Template(
        "{% load cards %}{% card slug c %}|{% card slug hidden %}|{% card_back slug %}"
    ).render(
        Context(
            {"slug": "mogel-motte", "c": {"id": 9, "kind": "spider", "value": 4}, "hidden": None}
        )
    )
    face, hidden, back = html.split("|")
    assert 'src="/static/catalog/mogel-motte/cards/spider.svg"' in face
    assert 'alt="Spider, value 4"' in face and ">4</bdi>" in face
    assert 'alt="Face-down card"' in hidden and "back.svg" in hidden
    assert hidden == back


def test_the_shared_tag_names_no_game():
    source = (ROOT / "games/templatetags/cards.py").read_text()
    source += (ROOT / "games/catalog/pictures.py").read_text()
    source += (ROOT / "templates/games/_card_face.html").read_text()
    packages = [p.name for p in (ROOT / "games/catalog").iterdir() if (p / "art.py").exists()]
    assert len(packages) == len(registry.ENGINES)
    for name in [*registry.ENGINES, *packages]:
        assert name not in source, name


def _spoken(html: str) -> str:
    """What a screen reader says of a chip: its text, without what is hidden from it."""
    html = re.sub(r'<(\w+)[^>]*aria-hidden="true"[^>]*>.*?</\1>', "", html)
    html = re.sub(r'<img[^>]*alt="([^"]*)"[^>]*>', r" \1 ", html)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.parametrize("short", [False, True])
def test_a_royal_card_is_said_royal_to_screen_readers(short):
    """The crown is a picture and the shown name just "rat": the royal rat and the plain rat
    sounded the same, so a blind player could not choose whether to offer a royal."""
    from games.templatetags.tables import card_chip

    slug = "cockroach-poker-royal"
    with translation.override("en"):
        royal = _spoken(card_chip(slug, {"id": 1, "kind": "royal_rat"}, short=short))
        plain = _spoken(card_chip(slug, {"id": 2, "kind": "rat"}, short=short))
    assert "royal rat" in royal and "royal" not in plain and "rat" in plain, (royal, plain)
