"""The rules pages: each game's own page from its catalog package, in every language, with the
card pictures drawn by {% card %}, also beside the board of a learn-to-play table."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.engines import registry

pytestmark = pytest.mark.django_db

SECTIONS = ["The cards", "Setting up", "An example"]


def _page(slug: str, language: str) -> str:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("games:rules", args=[slug]))
    assert response.status_code == 200
    assert f"catalog/{slug}/rules.html" in [t.name for t in response.templates]
    return response.content.decode()


@pytest.mark.parametrize("slug", sorted(registry.ENGINES))
@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_each_rules_page_is_written_in_every_language_with_pictures(slug, language):
    html = _page(slug, language)
    assert f'lang="{language}"' in html
    pictures = re.findall(
        r'<img src="/static/catalog/([^/]+)/cards/[^"]+\.svg" alt="([^"]*)"', html
    )
    assert len(pictures) >= 6
    assert {game for game, _alt in pictures} == {slug}
    assert all(alt.strip() for _game, alt in pictures)
    with translation.override(language):
        for heading in SECTIONS:
            assert f"<h2>{translation.gettext(heading)}</h2>" in html
    if language != "en":
        english = _page(slug, "en")
        lead = re.search(r'<p class="lead">(.*?)</p>', english, re.S).group(1).strip()
        assert lead not in html, "the rules are translated, not left in English"


def test_the_old_shared_rules_bodies_are_gone():
    assert not list((settings.BASE_DIR / "templates/games").glob("rules/*.html"))


def test_a_learn_to_play_table_shows_the_games_own_rules(alice):
    client = Client()
    client.force_login(alice)
    response = client.post(reverse("games:learn", args=["imperador"]))
    page = client.get(response.url)
    assert "catalog/imperador/rules.html" in [t.name for t in page.templates]
    assert "/static/catalog/imperador/cards/fox.svg" in page.content.decode()


# Rules the engines play that the pages once left out (each its own msgid, so the reviewed
# translations of the older paragraphs stay). With a phrase each translation must show.
ADDED_RULES = {
    "cockroach-poker-royal": [
        (
            "If the penalty card you take is the joker or the blank, it too goes into your hand,"
            " and you put two cards of your choice from your hand into your row — there is no"
            " claim to match.",
            {
                "fr": "Si la carte de pénalité que vous prenez est le joker ou la blanche",
                "cs": "Je-li trestná karta, kterou berete, žolík nebo prázdná karta",
            },
        ),
        (
            "In either case, if you hold fewer than two cards besides the joker and the blank,"
            " you put all of those into your row — one card, or none.",
            {
                "fr": "moins de deux cartes en dehors du joker et de la blanche",
                "cs": "kromě žolíka a prázdné karty méně než dvě karty",
            },
        ),
        (
            "If several players share the most cards in their row, the one who must make the"
            " next offer loses if they are among them; otherwise the first of them counting"
            " round the table from that player loses.",
            {
                "fr": "celui qui doit faire l’offre suivante perd s’il en fait partie",
                "cs": "prohrává z nich ten, kdo má nabízet další kartu",
            },
        ),
    ],
    "mogel-motte": [
        (
            "The spider is compulsory: if you hold a card that is not a moth, you must give one."
            " If you hold only moths, you give nothing.",
            {"fr": "L’araignée est obligatoire", "cs": "Pavouk je povinný"},
        ),
        (
            "A guard who holds only moths hands over nothing after a right accusation.",
            {
                "fr": "Un garde qui n’a que des chenilles ne donne rien",
                "cs": "Strážný, který má jen můry, po správném obvinění nepředá nic.",
            },
        ),
        (
            "A round ends after its 300th turn at the latest; then everybody scores the cards"
            " in their hand and up their sleeve.",
            {"fr": "au plus tard à la fin de son 300e tour", "cs": "nejpozději po svém 300. tahu"},
        ),
        (
            "Players tied for the lowest total share the win.",
            {"fr": "partagent la victoire", "cs": "vyhrávají společně"},
        ),
    ],
    "imperador": [
        (
            "If everybody who raised a hand already holds a sheep, the emperor may choose any"
            " one of them.",
            {"fr": "ont déjà un mouton", "cs": "smí císař vybrat kohokoli z nich"},
        ),
    ],
}


@pytest.mark.parametrize("slug", sorted(ADDED_RULES))
def test_each_rules_page_says_the_rules_the_engine_plays(slug):
    english = _page(slug, "en")
    for sentence, _phrases in ADDED_RULES[slug]:
        assert sentence in english
    for language in [code for code, _ in settings.LANGUAGES if code != "en"]:
        html = _page(slug, language)
        with translation.override(language):
            for sentence, phrases in ADDED_RULES[slug]:
                translated = translation.gettext(sentence)
                assert translated != sentence, (language, sentence)
                assert translated in html, (language, sentence)
                assert sentence not in html, (language, sentence)
                if language in phrases:
                    assert phrases[language] in translated, (language, sentence)


def test_the_name_hint_says_a_later_caught_liar_gives_a_card_of_the_emperors_choice():
    """Case (c): only the first card handed over is the named value (from the player whose hand
    is down, or else the first caught liar); from each other caught liar the emperor takes a
    card of his choice. The hint once said "whoever holds it hands it over"."""
    from games.catalog.imperador.presentation import PRESENTATION

    with translation.override("en"):
        hint = PRESENTATION.hint("name")
    assert "one copy" in hint
    assert "from each other caught liar you take a card of your choice" in hint
    for language, phrase in [("fr", "menteur démasqué"), ("cs", "přistiženému lháři")]:
        with translation.override(language):
            assert phrase in PRESENTATION.hint("name")
