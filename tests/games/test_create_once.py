"""A new-table form makes one table however often it is sent (social review, 2026-12-01): a
double click on "Create table" made two tables 6 ms apart, each inviting every friend."""

from __future__ import annotations

import re
import threading
import time

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import views
from games.errors import GameError
from games.models import Game, Invitation

pytestmark = pytest.mark.django_db(transaction=True)


def _form(client: Client) -> dict:
    page = client.get(reverse("games:new")).content.decode()
    key = re.search(r'<input type="text" name="key" value="([^"]+)"[^>]* hidden', page)
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


def _signed_in(user, n: int = 2) -> list[Client]:
    clients = [Client() for _ in range(n)]
    for client in clients:
        client.force_login(user)
    return clients


def _double_click(clients: list[Client], form: dict) -> list:
    """The form sent by two presses at once (two connections, as a browser's two requests);
    their answers."""
    barrier = threading.Barrier(len(clients))
    answers: list = []

    def send(client: Client) -> None:
        try:
            barrier.wait()
            answers.append(client.post(reverse("games:new"), form))
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


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
    clients = _signed_in(alice)

    landed = [answer.url for answer in _double_click(clients, _form(clients[0]))]

    game = Game.objects.get(created_by=alice)
    assert landed == [reverse("games:table", args=[game.pk])] * 2
    assert Invitation.objects.filter(to_user=bob).count() == 1


def test_the_same_page_sent_again_with_other_settings_makes_another_table(trio):
    """Back to the form after making a table, other settings chosen, sent again: another
    table, not "This table was already created." (diff review)."""
    alice, _bob, _carol = trio
    client = Client()
    client.force_login(alice)
    form = _form(client)
    client.post(reverse("games:new"), form)

    other = {**form, "game": "mogel-motte", "invite": []}
    again = client.post(reverse("games:new"), other)
    once_more = client.post(reverse("games:new"), other)  # and that one is guarded too

    games = Game.objects.filter(created_by=alice).order_by("pk")
    assert [g.engine for g in games] == ["imperador", "mogel-motte"]
    assert again.url == once_more.url == reverse("games:table", args=[games[1].pk])


def test_a_double_click_on_a_refused_table_says_why_both_times(trio, monkeypatch):
    """The first press refused (too many invitations), the second, waiting on the first,
    landed on My games with no word (diff review): it tries in its turn and says why."""
    alice, _bob, _carol = trio
    clients = _signed_in(alice)
    form = {**_form(clients[0]), "seats": 3, "bots": 2}  # 2 bots + bob: no seat for bob
    real_create = views.services.game_create

    def slow_create(*args, **kwargs):
        time.sleep(0.3)  # the second press arrives while the first is at it
        return real_create(*args, **kwargs)

    monkeypatch.setattr(views.services, "game_create", slow_create)
    pages = [f"{a.status_code} {a.content.decode()}" for a in _double_click(clients, form)]

    assert len(pages) == 2
    assert all(p.startswith("200 ") and "More invitations than free seats." in p for p in pages)
    assert not Game.objects.exists()


def test_after_a_first_press_refused_the_table_the_second_made_is_remembered(trio, monkeypatch):
    """A refusal that goes away on the second press (say, a friend's block lifted): the table
    the second press made was not remembered, and the form sent again made another."""
    alice, _bob, _carol = trio
    clients = _signed_in(alice)
    form = _form(clients[0])
    real_create, calls = views.services.game_create, []

    def refused_once(*args, **kwargs):
        calls.append(1)
        time.sleep(0.3)
        if len(calls) == 1:
            raise GameError("Not now.", "not_now")
        return real_create(*args, **kwargs)

    monkeypatch.setattr(views.services, "game_create", refused_once)
    _double_click(clients, form)
    game = Game.objects.get(created_by=alice)

    again = clients[0].post(reverse("games:new"), form)

    assert again.url == reverse("games:table", args=[game.pk])
    assert Game.objects.filter(created_by=alice).count() == 1
