"""The reveal replay is the table: the game's own board at every step, every card face up,
players by name, the step's sentences, every bluff and cheat marked; and a toy fourth game
registered from the test goes through the same pages with no shared module edited."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games import selectors, services
from games.catalog import registry as catalog
from games.engines import registry
from games.engines.cockroach_poker import cards as cockroach_cards
from games.models import Event, Game
from tests.games import toy_game
from tests.games.helpers import play_to_the_end, play_until, seat_users

ENGINES = sorted(registry.ENGINES)
COUNTS = [(slug, n) for slug in ENGINES for n in range(3, registry.ENGINES[slug].max_players + 1)]
COUNTS += [("cockroach-poker-royal", 2)]
# What a raw state dump showed: seat numbers, internal fields, identifiers.
RAW = re.compile(
    r"\bSeat \d|\bFrom \d+ To \d+|\b(Case|Card) [a-z0-9]\b"
    r"|\b(Offerer|Turn|Emperor|Active|Guard|Seat|From|To): \d"
    r"|\b[a-z]+_[a-z_]+\b|%\(|\{\{|\{%"
)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def replay_page(client: Client, game: Game, step: int | None = None) -> str:
    url = reverse("games:replay", args=[game.pk]) + ("" if step is None else f"?step={step}")
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def main_of(html: str) -> str:
    """The step, the board and the marks: the page without the site's header and footer."""
    return html.split('class="replay-page', 1)[1].split("</main>", 1)[0]


@pytest.mark.django_db
@pytest.mark.parametrize(("engine", "players"), COUNTS)
@pytest.mark.slow
def test_every_step_of_a_finished_game_draws_the_games_board_with_names(alice, engine, players):
    User.objects.filter(pk=alice.pk).update(display_name="Anouk")
    game = services.game_create(alice, engine=engine, seats=players, bots=players - 1)
    services.game_start(alice, game.pk)
    game = play_to_the_end(game, players)
    names = selectors.seat_names(game)
    client = Client()
    client.force_login(alice)
    moves = Event.objects.filter(game=game).count()

    first = replay_page(client, game)
    assert "The deal" in first and f"Move {moves} of {moves}" not in first
    assert 'rel="next"' in first and 'rel="prev"' not in first
    marks_seen = 0
    for step in range(moves + 1):
        response = client.get(reverse("games:replay", args=[game.pk]), {"step": step})
        assert response.status_code == 200
        assert catalog.get(engine).board_template in [t.name for t in response.templates]
        html = main_of(response.content.decode())
        text = text_of(html)
        for name in names:
            assert name in text, (step, name)
        assert not RAW.search(text), (step, RAW.search(text))
        assert 'class="tree"' not in html  # the game's board, not the generic tree
        if step:
            assert f"Move {step} of {moves}" in text
            assert 'class="step-events"' in html and "<li" in html.split("step-events", 1)[1]
        marks_seen += html.split('class="replay-marks"', 1)[0].count('class="mark mark-')
    last = main_of(replay_page(client, game, moves))
    assert 'rel="next"' not in last
    listed = last.split('class="replay-marks"', 1)[1].count('<li class="mark-')
    assert listed == marks_seen  # every mark listed once, each shown at its own step
    if engine == "cockroach-poker-royal":  # every untrue claim of the public chain is a bluff
        lies = sum(
            not cockroach_cards.is_true(e["data"]["card"]["kind"], link["claim"])
            for row in Event.objects.filter(game=game)
            for e in row.events
            if e["kind"] == "called"
            for link in e["data"]["chain"]
        )
        assert listed >= lies > 0
    if engine == "mogel-motte":  # every card up a sleeve is a cheat
        slips = sum(
            e["kind"] == "slipped" for row in Event.objects.filter(game=game) for e in row.events
        )
        assert listed == slips


@pytest.mark.django_db
def test_the_replay_shows_every_card_face_up_mid_game(trio):
    alice, bob, carol = trio
    game = services.game_create(alice, engine="mogel-motte", seats=3, invite=["bob", "carol"])
    services.game_join(bob, game.pk)
    services.game_join(carol, game.pk)
    services.game_start(alice, game.pk)
    game = play_to_the_end(game, 7)
    client = Client()
    client.force_login(bob)
    html = main_of(replay_page(client, game, 1))
    from games.replays import played

    state = played(game).states[1]
    engine = registry.get(game.engine)
    for seat in range(3):  # each seat's own hand, as only that seat saw it then
        for card in engine.view(state, seat)["you"]["hand"]:
            assert f'data-kind="{card["kind"]}"' in html
    assert html.count('class="card ') >= sum(len(h) for h in state["hands"])


@pytest.mark.django_db
def test_the_replay_shows_the_offered_card_without_saying_the_reader_knew_it(started):
    """The reveal shows the card on its way to everyone, and said "You know the card:" to
    every reader, also to a player who never saw it (phone review, 2026-12-07)."""
    game = play_to_the_end(started("cockroach-poker-royal"), 5)
    first = Event.objects.filter(game=game).order_by("seq").first()
    assert first is not None and first.action["type"] == "offer"
    offerer = seat_users(game)[first.seat]
    receiver = seat_users(game)[first.action["to"]]
    client = Client()
    client.force_login(receiver)  # the card came to them face down: they did not know it
    html = main_of(replay_page(client, game, 1))
    known = re.search(r'<p class="known">(.*?)</p>', html, re.S)
    assert known, "the offered card is shown"
    assert "You know the card" not in html
    assert text_of(known[1]).strip().startswith("The card on its way:")
    assert offerer.name in text_of(html)


@pytest.mark.django_db
def test_the_replay_steps_by_links_and_keys(started):
    game = play_to_the_end(started("imperador"), 3)
    client = Client()
    client.force_login(User.objects.get(username="alice"))
    html = replay_page(client, game, 2)
    assert 'href="?step=1"' in html and 'href="?step=3"' in html and 'href="?step=0"' in html
    assert "js/replay.js" in html and "data-replay" in html
    assert 'class="replay-rounds"' in html  # jumps to each turn
    moves = Event.objects.filter(game=game).count()
    past_the_end = main_of(replay_page(client, game, 10**6))
    assert past_the_end == main_of(replay_page(client, game, moves))
    assert "The deal" in replay_page(client, game, "x")  # type: ignore[arg-type]


# --- a toy fourth game ------------------------------------------------------------------------


@pytest.fixture
def toy(monkeypatch):
    """Registers the toy game as a game package would: one engine entry, one presentation."""
    monkeypatch.setitem(registry.ENGINES, toy_game.SLUG, toy_game.ENGINE)
    monkeypatch.setitem(registry.VERSIONS, (toy_game.SLUG, 1), toy_game.ENGINE)
    monkeypatch.setitem(catalog.PRESENTATIONS, toy_game.SLUG, toy_game.PRESENTATION)
    return toy_game


@pytest.mark.django_db
def test_a_toy_fourth_game_plays_through_the_table_history_and_replay(toy, trio):
    alice, bob, _carol = trio
    User.objects.filter(pk=alice.pk).update(display_name="Anouk")
    User.objects.filter(pk=bob.pk).update(display_name="Bertil")
    for _ in range(50):  # a deal where the first seat can lie: it holds no 1 or no 9
        game = services.game_create(alice, engine=toy.SLUG, seats=2, invite=["bob"])
        services.game_join(bob, game.pk)
        services.game_start(alice, game.pk)
        game.refresh_from_db()
        first = toy.ENGINE.waiting_for(game.state).seats[0]
        held = [game.state["values"][c] for c in game.state["hands"][first]]
        lies = [v for v in (1, 9) if v not in held]  # the toy whispers only 1 or 9
        if lies:
            break
    lie = lies[0]
    users = seat_users(game)
    services.act(users[first], game.pk, game.version_for(first), {"type": "whisper", "value": lie})

    clients = {}
    for seat, user in users.items():
        clients[seat] = Client()
        clients[seat].force_login(user)
    table = clients[first].get(reverse("games:table", args=[game.pk]))
    assert table.status_code == 200
    html = table.content.decode()
    names = selectors.seat_names(game)
    assert "games/boards/_generic.html" in [t.name for t in table.templates]
    assert "games/_card.html" in [t.name for t in table.templates]  # its cards: the one place
    assert 'data-kind="pebble"' in html and "pebble stone" in html
    assert f"{names[first]} whispered “{lie}”." in html
    log = html.split('id="log-h"', 1)[1].split("</section>", 1)[0]
    assert 'class="event secret"' in log  # the engine's audience, not a list of kinds
    assert 'value="drop"' in html and "Drop a pebble" in html  # its move, in its words

    game = play_to_the_end(game, 1)
    table = clients[first].get(reverse("games:table", args=[game.pk])).content.decode()
    assert "dropped a pebble worth" in table and "Watch the full reveal" in table
    moves = Event.objects.filter(game=game).count()
    for step in range(moves + 1):
        page = replay_page(clients[first], game, step)
        assert all(name in page for name in names)
        assert 'data-kind="pebble"' in page
    marked = replay_page(clients[first], game, 1)
    assert f"Bluff: {names[first]} holds no {lie}." in marked
    assert f"{names[first]} whispered “{lie}”." in marked


@pytest.mark.django_db
def test_the_status_line_isolates_each_name(started):
    """Persian pages mix numbers and names: each name in the status line is a ``<bdi>``."""
    game = started("imperador")
    User.objects.filter(username="bob").update(display_name="بهرام 2")
    waiting = registry.get(game.engine).waiting_for(game.state).seats
    other = next(u for s, u in seat_users(game).items() if s not in waiting)
    client = Client()
    client.force_login(other)
    html = client.get(reverse("games:table", args=[game.pk])).content.decode()
    status = html.split('id="status"', 1)[1].split("</p>", 1)[0]
    names = selectors.seat_names(game)
    for seat in waiting:
        assert f"<bdi>{names[seat]}</bdi>" in status
    User.objects.filter(username="bob").update(display_name="<b>Bob</b>")
    html = client.get(reverse("games:table", args=[game.pk])).content.decode()
    assert "<b>Bob</b>" not in html  # a name is escaped inside its <bdi>


def test_the_first_round_jump_is_the_deal(started):
    """A 3-round Mogel Motte game offered jumps "1 2", to rounds 2 and 3 (spectators' review,
    2026-12-01): the deal starts round 1, and no event says so."""
    from games.reveal_pages import reveal_page

    game = play_to_the_end(started("mogel-motte"), 2)
    names = selectors.seat_names(game)
    rounds = reveal_page(game, names, 0).rounds
    second = [i for i in rounds[1:] if reveal_page(game, names, i).step.starts_round]

    assert rounds == [0, *second]
    assert game.state["rounds"] == len(rounds)


def test_a_long_history_says_where_its_older_moves_are(started):
    """The table page shows the newest 40 log rows: a longer game says so while it runs, and
    once it is over leads to the full reveal, which has every one."""
    game = started("mogel-motte")
    alice = seat_users(game)[0]
    client = Client()
    client.force_login(alice)
    url = reverse("games:table", args=[game.pk])
    assert "latest moves are shown here" not in client.get(url).content.decode()
    game = play_until(
        lambda: game,
        # rows alice may see (a deal's secret rows are not hers): more than the page shows
        lambda g: g if len(selectors.events_for(g, alice)) > 41 else None,
        seed=3,
        tables=1,
        moves=3000,
    )
    page = client.get(url).content.decode()
    assert "Only the 40 latest moves are shown here." in page
    assert reverse("games:replay", args=[game.pk]) not in page, "no reveal while it runs"
    game = play_to_the_end(game)
    page = client.get(url).content.decode()
    assert "latest moves are shown here" not in page
    link = f'<a href="{reverse("games:replay", args=[game.pk])}">See the earlier moves'
    assert link in page


def test_each_step_of_the_reveal_has_its_own_page_title(started):
    """Stepping reloads the page and focus starts again at the top: the title is what a
    screen reader says first, so it names the step."""
    game = play_to_the_end(started("imperador"))
    client = Client()
    client.force_login(seat_users(game)[0])
    url = reverse("games:replay", args=[game.pk])
    last = int(re.search(r"\?step=(\d+)\" data-step=\"last\"", client.get(url).content.decode())[1])
    titles = [
        re.search(r"<title>(.*?)</title>", client.get(f"{url}?step={n}").content.decode(), re.S)[1]
        for n in (0, 1, last)
    ]
    assert titles[0].startswith("The deal · Reveal")
    assert titles[1].startswith(f"Move 1 of {last} · Reveal")
    assert titles[2].startswith(f"Move {last} of {last} · Reveal")
