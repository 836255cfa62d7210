"""The rough edges a newcomer hit (issue 16), each driven through the Django test client."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from games import services

PASSWORD = "a-long-test-password"


def log_in(client: Client, login: str, next_url: str | None = None, follow: bool = False):
    url = reverse("account_login") + (f"?next={next_url}" if next_url else "")
    data = {"login": login, "password": PASSWORD}
    if next_url:
        data["next"] = next_url
    return client.post(url, data, follow=follow)


# --- 1. after logging in: My games, or the table the login interrupted -----------------------


def test_logging_in_lands_on_my_games_not_the_marketing_page(alice):
    response = log_in(Client(), "alice")

    assert response.status_code == 302
    assert response["Location"] == reverse("games:my_games")


def test_a_logged_out_visitor_opening_a_table_returns_to_it_after_logging_in(trio):
    alice, _bob, _carol = trio
    game = services.game_create(alice, engine="cockroach-poker-royal", seats=3, invite=["bob"])
    table = reverse("games:table", args=[game.pk])
    client = Client()

    bounced = client.get(table)
    assert bounced.status_code == 302
    login_url = bounced["Location"]
    assert login_url.startswith(reverse("account_login"))
    page = client.get(login_url)
    assert f'name="next" value="{table}"' in page.content.decode()

    response = client.post(
        login_url, {"login": "bob", "password": PASSWORD, "next": table}, follow=True
    )
    assert response.redirect_chain[-1][0] == table
    assert response.status_code == 200
    assert f"#{game.pk}" in response.content.decode()
