"""The table page as people read it: per-game boards, names instead of seat numbers, cards as
chips, the history in sentences, and the result with the full reveal at the end."""

from __future__ import annotations

import random
import re

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games import history, services
from games.catalog import registry as catalog
from games.engines import registry
from games.models import Game
from games.templatetags.tables import board_template
from tests.games.helpers import next_human_move, seat_users

ENGINES = sorted(registry.ENGINES)
NAMES = {"alice": "Anouk", "bob": "Bertil", "carol": "Cosima"}


@pytest.fixture(autouse=True)
def english():
    """Sentences compared in English, whatever language an earlier test left active."""
    with translation.override("en"):
        yield


@pytest.fixture
def named(trio):
    """alice, bob and carol under display names that appear nowhere else on a page."""
    for username, name in NAMES.items():
        User.objects.filter(username=username).update(display_name=name)
    return trio


def page_for(user: User, game: Game) -> tuple[str, list[str]]:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("games:table", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode(), [t.name for t in response.templates if t.name]


def board_area(html: str) -> str:
    """The board, the moves and the players' rows: everything before the history column."""
    return html.split('id="board"', 1)[1].split('class="col-side"', 1)[0]


def history_area(html: str) -> str:
    return html.split('id="log-h"', 1)[1].split("</section>", 1)[0]


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def play(game: Game, moves: int, rng: random.Random) -> Game:
    users = seat_users(game)
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        move = next_human_move(game, rng)
        if move is None:
            break
        seat, action = move
        services.act(users[seat], game.pk, game.version_for(seat), action)
    game.refresh_from_db()
    return game


def my_hand(view: dict) -> list[dict]:
    if "you" in view:  # Mogel Motte
        return view["you"]["hand"]
    return view.get("hand") or []


def chip_part(engine: str, card: dict) -> str:
    """What a card's chip shows: the kind's word (a royal: its species and a crown), or the
    value of a number card."""
    if card["kind"] == "number":
        return f'<b class="val">{card["value"]}</b>'
    word = catalog.get(engine).word(card["kind"].removeprefix("royal_"))
    if card["kind"].startswith("royal_"):  # shown as its species, said as a royal one
        said = catalog.get(engine).word(card["kind"])
        return f'<span class="nm" aria-hidden="true">{word}</span><span class="visually-hidden">{said}</span>'
    return f'<span class="nm">{word}</span>'


def board_of(engine: str) -> str:
    return f"catalog/{engine}/board.html"


@pytest.mark.django_db
@pytest.mark.parametrize("engine", ENGINES)
def test_the_table_uses_the_games_own_board_with_names_and_my_cards(started, named, engine):
    game = started(engine)
    alice = named[0]
    html, templates = page_for(alice, game)
    assert board_of(engine) in templates
    assert "games/boards/_generic.html" not in templates
    board = board_area(html)
    assert 'class="tree"' not in board  # not the generic key/value tree
    for name in NAMES.values():
        assert name in board, f"{name} missing from the {engine} board"
    shown = text_of(board)
    assert not re.search(r"\bSeat \d", shown)
    assert not re.search(r"\b(Offerer|Turn|Emperor|Active|Guard): \d\b", shown)
    view = registry.get(engine).view(game.state, 0)
    hand = my_hand(view)
    assert hand, "seat 0 starts with cards"
    for card in hand:
        assert chip_part(engine, card) in board, card


@pytest.mark.django_db
@pytest.mark.parametrize("engine", ENGINES)
def test_the_history_tells_moves_in_sentences_with_player_names(started, named, engine):
    game = play(started(engine), 6, random.Random(3))
    html, _templates = page_for(named[0], game)
    log = text_of(history_area(html))
    assert any(name in log for name in NAMES.values())
    assert not re.search(r"\bSeat \d|\b(from|to|seat|emperor): \d\b", log)
    assert " · " not in log  # not "kind · key: value"


@pytest.mark.django_db
def test_a_cockroach_offer_reads_as_a_sentence(started, named):
    game = started("cockroach-poker-royal")
    engine = registry.get(game.engine)
    users = seat_users(game)
    seat = engine.waiting_for(game.state).seats[0]
    to = (seat + 1) % 3
    card = game.state["hands"][seat][0]
    services.act(
        users[seat],
        game.pk,
        game.version_for(seat),
        {"type": "offer", "card": card, "to": to, "claim": "scorpion"},
    )
    game.refresh_from_db()
    names = list(NAMES.values())
    html, _templates = page_for(users[to], game)
    log = text_of(history_area(html))
    assert f"{names[seat]} offered {names[to]} a card, claiming “scorpion”." in log
    board = text_of(board_area(html))
    assert names[seat] in board and "Call it true or a lie" in board
    assert 'name="type" value="call"' in html and 'name="f_says"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("engine", ENGINES)
def test_a_finished_game_shows_the_result_and_every_hand(started, named, engine):
    game = play(started(engine), 3000, random.Random(5))
    assert game.status == Game.Status.FINISHED
    html, templates = page_for(named[1], game)
    assert board_of(engine) in templates
    result = html.split('class="result"', 1)[1].split("</div>", 1)[0]
    winners = [list(NAMES.values())[s] for s in game.result["winners"]]
    assert "🏆" in result and all(name in result for name in winners)
    assert "Watch the full reveal" in html
    final = registry.get(engine).view(game.state, None)
    hands = final.get("hands") or [s["public_cards"] for s in final.get("seats", [])]
    board = board_area(html)
    for hand in hands:
        for card in hand:
            assert chip_part(engine, card) in board, card


@pytest.mark.django_db
def test_a_spectator_sees_the_board_without_a_hand(started, named, make_user):
    game = started("mogel-motte")
    Game.objects.filter(pk=game.pk).update(allow_spectators=True)
    from accounts.services import friendship_create

    friend = make_user("dora")
    friendship_create(named[0], friend)
    html, templates = page_for(friend, game)
    assert board_of("mogel-motte") in templates
    assert "Your hand" not in html and "Your move" not in html
    assert all(name in board_area(html) for name in NAMES.values())


def test_an_engine_without_a_board_falls_back_to_the_generic_one():
    assert board_template("no-such-game") == "games/boards/_generic.html"
    assert board_template("imperador") == board_of("imperador")
    view = {"pile": [{"id": 1, "kind": "rat"}], "scores": [3, 4]}
    context = {"view": view, "players": ["Anouk", "Bertil"]}
    top = render_to_string(
        "games/boards/_generic.html", {**context, "part": "top", "game_slug": "x"}
    )
    assert 'class="tree"' in top and "Anouk" in top and 'data-kind="rat"' in top
    assert render_to_string("games/boards/_generic.html", {**context, "part": "rest"}).strip() == ""


def _events_of_whole_games() -> list[tuple[str, dict]]:
    """Every kind of event the engines emit, from a few bot games (the engines are pure)."""
    found: dict[tuple[str, str], dict] = {}
    for slug, engine in sorted(registry.ENGINES.items()):
        for seed in range(6):
            players = 3 + seed % 3
            state = engine.setup(players, {}, seed)
            rng = random.Random(seed)
            while engine.result(state) is None:
                waiting = engine.waiting_for(state)
                aside_seat = rng.randrange(players)
                aside = engine.bot_aside(state, aside_seat, rng) if rng.random() < 0.2 else None
                if aside is not None:  # as the platform offers bots at each change
                    state, events = engine.apply(state, aside_seat, aside)
                elif waiting.kind == "window" and rng.random() < 0.1:
                    state, events = engine.apply(state, None, {"type": "timeout"})
                else:
                    seat = rng.choice(list(waiting.seats))
                    state, events = engine.apply(state, seat, engine.bot_action(state, seat, rng))
                for event in events:
                    found.setdefault((slug, event.kind), {"kind": event.kind, "data": event.data})
    return [(slug, event) for (slug, _kind), event in sorted(found.items())]


SEAT_KEYS = {"seat", "from", "to", "by", "guard", "target", "emperor", "giver", "receiver", "taker"}


def test_every_engine_event_has_a_sentence_with_names_not_numbers():
    players = ["Anouk", "Bertil", "Cosima", "Dagny", "Elmer"]
    events = _events_of_whole_games()
    kinds = {e["kind"] for _slug, e in events}
    assert {"offered", "called", "played", "accused", "band_announced", "pair_laid"} <= kinds
    for slug, event in events:
        assert event["kind"] in catalog.get(slug).sentences, f"no sentence for {event['kind']}"
        text = history.sentence(slug, event, players)
        assert text and "%(" not in text and "{" not in text, (event, text)
        assert not re.search(r"\bseat \d|\bSeat \d", text), (event, text)
        assert "_" not in text, (event, text)
        seats = [
            v
            for k, v in event["data"].items()
            if k in SEAT_KEYS and isinstance(v, int) and not isinstance(v, bool)
        ]
        for seat in seats:
            assert players[seat] in text, (event, text)


def test_an_unknown_event_still_reads_with_names():
    text = history.sentence(
        "no-such-game",
        {"kind": "table_flipped", "data": {"seat": 1, "loud": True}},
        ["Anouk", "Bertil"],
    )
    assert text.startswith("Table flipped") and "Bertil" in text


def test_a_called_card_tells_who_takes_it():
    event = {
        "kind": "called",
        "data": {
            "number": 3,
            "seat": 0,
            "says": "false",
            "claim": "rat",
            "chain": [{"from": 2, "to": 0, "claim": "rat"}],
            "card": {"id": 9, "kind": "royal_rat"},
            "right": False,
            "taker": 0,
        },
    }
    text = history.sentence("cockroach-poker-royal", event, ["Anouk", "Bertil", "Cosima"])
    assert text == "Anouk called “rat” a lie and was wrong — it was royal rat. Anouk takes it."


def test_a_mogel_motte_game_ends_in_one_sentence_with_penalty_points_and_winners():
    names = ["Anouk", "Bertil", "Cosima"]
    result = {"winners": [2], "losers": [0, 1], "scores": [9, 7, 3], "reason": "3 rounds played"}
    text = history.sentence("mogel-motte", {"kind": "game_over", "data": result}, names)
    assert text.startswith("Game over. Penalty points:") and "Winner: Cosima" in text
    # each score beside its name in brackets: "Bot 2 3" read as one number
    assert "Anouk (9), Bertil (7), Cosima (3)" in text
    # games stored before the end was one event still read as they did
    old = history.sentence(
        "mogel-motte", {"kind": "game_result", "data": {"result": result}}, names
    )
    assert old == "Winner: Cosima (lowest total)."


def test_a_cockroach_player_left_with_special_cards_only_loses_in_words():
    data = {"winners": [1, 2], "losers": [0], "reason": "only_special_in_hand", "detail": "x"}
    text = history.sentence(
        "cockroach-poker-royal", {"kind": "game_over", "data": data}, ["Anouk", "Bertil", "Cosima"]
    )
    assert "held only special cards" in text and "Anouk lost" in text


def test_a_caught_cheat_no_longer_asks_the_new_guard_to_accuse(started, named):
    """Bob slips a card up his sleeve; the guard's board says someone is fidgeting and asks
    it to accuse. The guard catches him: the card is back in the open, bob is the guard now,
    and nobody's board speaks of fidgeting any more (it asked bob to accuse nobody)."""
    engine = registry.get("mogel-motte")
    game = started("mogel-motte")
    users = seat_users(game)
    guard = game.state["guard"]
    cheater = next(s for s in users if s != guard)
    card = next(a for a in engine.legal_actions(game.state, cheater) if a["type"] == "cheat")
    services.act(users[cheater], game.pk, game.version_for(cheater), card)
    game.refresh_from_db()
    fidgeting = "Someone is fidgeting under the table"
    asked = "You are the guard: accuse before the card falls."
    html, _ = page_for(users[guard], game)
    assert fidgeting in text_of(board_area(html)) and asked in text_of(board_area(html))
    accuse = next(
        a
        for a in engine.legal_actions(game.state, guard)
        if a["type"] == "accuse" and a["target"] == cheater
    )
    services.act(users[guard], game.pk, game.version_for(guard), accuse)
    game.refresh_from_db()
    assert game.state["guard"] == cheater  # caught: the cheater guards now
    for seat, user in users.items():
        html = page_for(user, game)[0]
        # "Last moves" above the board quotes the History's newest lines, the fidget among them
        # (what happened, in its order): the board itself asks nothing and warns of nothing
        latest = html.split('class="latest"', 1)[1].split("</section>", 1)[0]
        board = text_of(board_area(html).replace(latest, ""))
        assert fidgeting not in board and asked not in board, (seat, board)
        assert "caught" in text_of(latest), "the catch leads the last moves"


def test_a_cockroach_chain_reads_right_to_left_in_persian(started, named):
    """The card's way, on the board and in the recent rounds: each name isolated (<bdi>), or
    Latin names around the arrow made a left-to-right run and the mirrored arrow pointed back
    at the giver; the claim in Persian quotes; the hop's "to" said to screen readers."""
    game = started("cockroach-poker-royal")
    users = seat_users(game)
    rng = random.Random(5)
    for _move in range(200):  # until a round is over and the next has its first offer
        game.refresh_from_db()
        state = game.state
        if state["recent"] and state.get("round") and state["round"]["chain"]:
            break
        seat, action = next_human_move(game, rng)
        services.act(users[seat], game.pk, game.version_for(seat), action)
    else:
        raise AssertionError("no round with a chain after a finished one")
    User.objects.filter(pk__in=[u.pk for u in users.values()]).update(language="fa")
    client = Client()
    client.force_login(users[0])
    client.cookies["django_language"] = "fa"
    html = client.get(reverse("games:table", args=[game.pk])).content.decode()
    chain = html.split('<ol class="chain"', 1)[1].split("</ol>", 1)[0]
    recent = html.split('<ol class="recent">', 1)[1].split("</ol>", 1)[0]
    for part in (chain, recent):
        assert re.search(r"<bdi>(Anouk|Bertil|Cosima)</bdi>", part), part
        hops = re.findall(
            r'→</span><span class="visually-hidden">([^<]+)</span> (?:<strong>)?<bdi>', part
        )
        assert hops and all(hop.strip() and hop != "to" for hop in hops), part  # said, in Persian
    assert "«" in recent and "“" not in recent


def test_lists_use_the_languages_own_comma():
    from games.catalog.base import join

    with translation.override("fa"):
        # the mark after the comma (U+200F) keeps a list of Latin names in right-to-left order
        assert join(["a", "b", "c"]) == "a،\u200f b و c"
    with translation.override("cs"):
        assert join(["a", "b", "c"]).startswith("a, b")


def test_a_persian_lobby_lists_names_with_the_persian_comma(trio):
    alice, bob, _carol = trio
    User.objects.filter(pk=alice.pk).update(language="fa")
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])
    client = Client()
    client.force_login(alice)
    client.cookies["django_language"] = "fa"
    table = client.get(reverse("games:table", args=[game.pk])).content.decode()
    invited = table.split('class="invitees"', 1)[1].split("</p>", 1)[0]
    assert "،\u200f " in invited and "), " not in invited, invited
    services.game_join(bob, game.pk)
    listed = client.get(reverse("games:my_games")).content.decode()
    seated = listed.split('class="line seated"', 1)[1].split("</span>", 1)[0]
    assert "،\u200f " in seated and ", " not in seated, seated


def test_a_bots_seat_is_named_in_the_readers_language():
    """A bot's seat ("Bot 3", "Alice (bot)") stood in English inside Persian pages."""
    from games.models import Seat

    with translation.override("fa"):
        assert Seat.label(2, True, None) == "ربات 3"
        assert Seat.label(0, True, "Alice") == "Alice (ربات)"
        assert Seat.label(1, False, None) == "صندلی 2"
    assert Seat.label(2, True, None) == "Bot 3"  # the test's English
