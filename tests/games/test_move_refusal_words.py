"""What a refused move says, in the words the player reads (words review, 2026-12-07)."""

from __future__ import annotations

import asyncio

import pytest
from django.test import Client
from django.utils import translation

from accounts.services import api_token_create
from games.catalog import registry as catalog
from games.engines.core import IllegalAction
from games.engines.mogel_motte import ENGINE
from games.engines.registry import ENGINES
from games.errors import engine_message
from tests.engines.mogel_motte.tables import act, card, play, table
from tests.games.helpers import connect, seat_users


def _refusal(state, seat, action, language="en") -> str:
    with pytest.raises(IllegalAction) as refused:
        act(state, seat, action)
    with translation.override(language):
        return engine_message(refused.value, catalog.get(ENGINE.slug).word)


def test_a_turn_move_out_of_its_moment_names_the_move_not_the_phase():
    """A give outside a spider's turn said "This is not the moment to spider."; a draw owed
    a spider's gift said "This is not the moment to play."."""
    state = table([["S2", "N4", "N5"], ["N1"], ["N1"]], top="N3")
    give = {"type": "give", "card": card(state, 0, "N4"), "to": 1}
    assert _refusal(state, 0, give) == "This is not the moment to give."
    spider, _events = play(state, 0, "S2")
    assert spider["phase"] == "spider"
    assert _refusal(spider, 0, {"type": "draw"}) == "This is not the moment to draw."
    said = "Ce n’est pas le moment pour «\u202fpiocher\u202f»."  # the move's own word, in French
    assert _refusal(spider, 0, {"type": "draw"}, "fr") == said


@pytest.mark.django_db
def test_an_api_move_the_api_cannot_read_is_refused_in_the_players_language(started):
    """A French player's program that sent a move with a quoted version, none, or a body that
    is no JSON object read "The request is not valid." or "Send a JSON object." in English,
    when every other refusal of its moves was in French."""
    game = started("cockroach-poker-royal")
    seat = ENGINES[game.engine].waiting_for(game.state).seats[0]
    player = seat_users(game)[seat]
    player.language = "fr"
    player.save()
    api = Client(headers={"Authorization": f"Bearer {api_token_create(player, 'script')[1]}"})
    moves = f"/api/games/{game.pk}/actions"

    for body in ({"version": "0", "action": {"type": "offer"}}, {"action": {"type": "offer"}}):
        answer = api.post(moves, body, content_type="application/json")
        assert answer.status_code == 422
        assert answer.json()["error"] == "La requête n’est pas valide.", body
    for body, kind in (
        ([], "application/json"),
        ("version=1", "application/x-www-form-urlencoded"),
    ):
        answer = api.post(moves, body, content_type=kind)
        assert (answer.status_code, answer.json()["error"]) == (400, "Envoyez un objet JSON.")
    game.refresh_from_db()
    assert not game.events.filter(actor=player).exists()


@pytest.mark.django_db(transaction=True)
def test_a_socket_move_the_socket_cannot_read_is_refused_in_the_players_language(started):
    """A French player's socket answered a frame it could not read (no JSON object, broken
    JSON, too long) in English; the moves it could read were refused in French."""
    game = started("cockroach-poker-royal")
    player = seat_users(game)[0]
    player.language = "fr"
    player.save(update_fields=["language"])

    async def scenario() -> list[dict]:
        socket, connected, _code = await connect(player, f"/ws/games/{game.pk}/")
        assert connected
        await socket.receive_json_from(timeout=5)  # the table as it is
        replies = []
        for frame in ("[]", "{", "[" * 20 + "]" * 20, "x" * 9000):
            await socket.send_to(text_data=frame)
            replies.append(await socket.receive_json_from(timeout=5))
        await socket.disconnect()
        return replies

    replies = asyncio.run(scenario())

    assert [(r["code"], r["error"]) for r in replies] == [
        ("malformed", "Envoyez un objet JSON."),
        ("malformed", "Envoyez un objet JSON."),
        ("too_deep", "Le JSON peut s’imbriquer sur 8 niveaux au plus."),
        ("too_large", "Envoyez un petit objet JSON."),
    ]
