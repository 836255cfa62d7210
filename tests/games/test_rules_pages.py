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
