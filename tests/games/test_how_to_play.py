"""A newcomer finds each game's rules (and from them a table against bots to learn) from the
pages they have before any table: the rules were linked only from a table's page (newcomer
review)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

RULES = [
    ("Cockroach Poker Royal", "/games/rules/cockroach-poker-royal/"),
    ("Mogel Motte", "/games/rules/mogel-motte/"),
    ("Imperador", "/games/rules/imperador/"),
]


@pytest.mark.parametrize("page", ["home", "games:my_games", "games:new"])
def test_the_first_pages_link_every_games_rules(alice, page):
    client = Client()
    client.force_login(alice)

    html = client.get(reverse(page)).content.decode()

    for title, url in RULES:
        assert f'<a href="{url}">{title}</a>' in html
    rules = client.get(RULES[1][1]).content.decode()
    assert "Learn to play: a Live table against bots" in rules


def test_a_visitor_reads_the_rules_from_the_home_page(client):
    html = client.get("/").content.decode()
    assert all(f'href="{url}"' in html for _title, url in RULES)
