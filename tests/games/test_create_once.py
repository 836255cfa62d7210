"""A new-table form makes one table however often it is sent (social review, 2026-12-01): a
double click on "Create table" made two tables 6 ms apart, each inviting every friend."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Game, Invitation

pytestmark = pytest.mark.django_db(transaction=True)


def _form(client: Client) -> dict:
    page = client.get(reverse("games:new")).content.decode()
    key = re.search(r'<input type="hidden" name="key" value="([^"]+)"', page)
    assert key, "the form has no key"
    return {
        "game": "imperador",
        "seats": 3,
        "pace": "daily",
        "join_policy": "invited",
        "bots": 0,
        "invite": ["bob"],
        "key": key[1],
    }


def test_the_same_form_sent_again_opens_the_table_it_made(trio):
    alice, bob, _carol = trio
    client = Client()
    client.force_login(alice)
    form = _form(client)

    first = client.post(reverse("games:new"), form)
    again = client.post(reverse("games:new"), form, follow=True)

    game = Game.objects.get(created_by=alice)
    assert first.url == again.redirect_chain[-1][0] == reverse("games:table", args=[game.pk])
    assert "This table was already created." in again.content.decode()
    assert Invitation.objects.filter(to_user=bob).count() == 1

    another = client.post(reverse("games:new"), _form(client))  # a new form: a new table
    assert another.status_code == 302 and Game.objects.filter(created_by=alice).count() == 2


def test_a_double_click_makes_one_table(trio):
    alice, bob, _carol = trio
    clients = [Client(), Client()]
    for client in clients:
        client.force_login(alice)
    form = _form(clients[0])
    barrier = threading.Barrier(2)
    landed: list[str] = []

    def send(client: Client) -> None:
        try:
            barrier.wait()
            landed.append(client.post(reverse("games:new"), form).url)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    game = Game.objects.get(created_by=alice)
    assert landed == [reverse("games:table", args=[game.pk])] * 2
    assert Invitation.objects.filter(to_user=bob).count() == 1
