"""Bad input found by the robustness review of 2026-12-01: each answer is clear, and the game is
left exactly as it was."""

from __future__ import annotations

import asyncio

import pytest
from django.test import Client

from accounts.services import api_token_create
from tests.games.helpers import connect

pytestmark = pytest.mark.django_db(transaction=True)

TOO_BIG = 2**63  # one past the largest bigint: PostgreSQL refused the raw reads (a 500)


def test_a_game_id_past_the_largest_one_is_no_such_game_everywhere(alice):
    client = Client()
    client.force_login(alice)
    for path in ("", "live/", "replay/", "chat/"):
        assert client.get(f"/games/{TOO_BIG}/{path}").status_code == 404, path
    for path in ("act/", "join/", "start/", "chat/post/"):
        assert client.post(f"/games/{TOO_BIG}/{path}").status_code == 404, path
    _token, raw = api_token_create(alice, "script")
    api = Client(headers={"Authorization": f"Bearer {raw}"})
    for path in ("", "/events"):
        answer = api.get(f"/api/games/{TOO_BIG}{path}")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", path
    for path, body in (("/actions", {"version": 0, "action": {"type": "x"}}), ("/join", {})):
        answer = api.post(f"/api/games/{TOO_BIG}{path}", body, content_type="application/json")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", path

    async def socket() -> tuple[bool, int | None]:
        communicator, connected, code = await connect(alice, f"/ws/games/{TOO_BIG}/")
        await communicator.disconnect()
        return connected, code

    assert asyncio.run(socket()) == (False, 4404)
