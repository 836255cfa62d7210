"""The headings of a table and of its reveal, as a screen reader lists them to move through a
page: a third-level heading belongs to the part it stands in. The players' list (a hidden
"Players" heading) sat in a part with no heading of its own, so it was listed under whatever
came before it: "Your move", or "What happened" in the reveal."""

from __future__ import annotations

import random
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.engines import registry
from tests.games.helpers import next_human_move, play_to_the_end, seat_users

pytestmark = pytest.mark.django_db


class Outline(HTMLParser):
    """Each <h3> of the page with whether a section around it (or <main>) has its own <h2>
    before it."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[bool] = []  # per open section: an h2 seen in it yet
        self.heading: str | None = None
        self.found: list[tuple[str, bool]] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "section":
            self.sections.append(False)
        elif tag == "h2" and self.sections:
            self.sections[-1] = True
        elif tag == "h3":
            self.heading, self.text = tag, ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "section" and self.sections:
            self.sections.pop()
        elif tag == "h3" and self.heading:
            self.found.append((" ".join(self.text.split()), any(self.sections)))
            self.heading = None

    def handle_data(self, data: str) -> None:
        if self.heading:
            self.text += data


def _orphans(html: str) -> list[str]:
    outline = Outline()
    outline.feed(html.split("<main", 1)[1])
    assert outline.found, "no third-level heading to check"
    return [text for text, placed in outline.found if not placed]


@pytest.mark.parametrize("engine", sorted(registry.ENGINES))
def test_every_third_level_heading_stands_in_a_part_with_its_own_heading(
    engine: str, started: Any
) -> None:
    running = started(engine)
    rng = random.Random(2)
    for _ in range(4):
        move = next_human_move(running, rng)
        assert move is not None
        seat, action = move
        services.act(seat_users(running)[seat], running.pk, running.version_for(seat), action)
        running.refresh_from_db()
    finished = play_to_the_end(started(engine), seed=3)
    client = Client()
    client.force_login(seat_users(running)[0])
    found = {
        "table": _orphans(client.get(reverse("games:table", args=[running.pk])).content.decode()),
        "replay": _orphans(
            client.get(reverse("games:replay", args=[finished.pk]) + "?step=3").content.decode()
        ),
    }
    assert not any(found.values()), found
