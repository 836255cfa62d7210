"""Journey: who is at the table, as the other players' pages show it.

Anyone opening the table made every other viewer's page fetch its whole live parts again
(12–24 KB), presence being an input of their validator. The socket's beat says who is here
and the page marks the players' list in place; only everyone being here, which offers the
Live pace, still fetches the parts."""

from __future__ import annotations

import pytest

from tests.journeys.drive import friends_at_a_started_table, in_thread, open_seats, settle

pytestmark = [pytest.mark.browser]

MARKED_HERE = (
    "seat => { const li = document.querySelector(`ol.players li[data-seat='${seat}']`);"
    " return li.classList.contains('here') && !li.classList.contains('away')"
    " && !!li.querySelector('.here-said') && li.querySelector('.dot').title === 'at the table'; }"
)
# a page that comes back to the front says hello, and the socket answers with who is here
BACK_TO_THE_FRONT = "document.dispatchEvent(new Event('visibilitychange'))"


def test_an_arrival_is_marked_in_place_and_everyone_here_offers_the_live_pace(
    make_user, signed_in_page, stack
):
    users = [make_user(name) for name in ("ode", "pia", "quin", "rex")]
    game = in_thread(lambda: friends_at_a_started_table(users, "cockroach-poker-royal"))
    pages = open_seats(game, users[:2], signed_in_page, stack.base)
    seat_of = {s.user_id: s.index for s in game.seats.all()}
    ode = pages[seat_of[users[0].pk]]
    quin, rex = seat_of[users[2].pk], seat_of[users[3].pk]
    ode.wait_for_function("() => !!document.querySelector('ol.players')")
    settle(ode)
    assert not ode.evaluate(MARKED_HERE, quin)
    fetched: list[str] = []
    ode.on(
        "request", lambda request: fetched.append(request.url) if "/live/" in request.url else None
    )

    signed_in_page(users[2]).goto(f"{stack.base}/games/{game.pk}/")  # quin opens the table
    ode.evaluate(BACK_TO_THE_FRONT)
    ode.wait_for_function(MARKED_HERE, arg=quin, timeout=15_000)
    assert fetched == [], "an arrival fetched the parts again"
    assert not ode.evaluate(MARKED_HERE, rex)
    assert ode.get_by_text("Everyone is here: play live now").count() == 0

    signed_in_page(users[3]).goto(f"{stack.base}/games/{game.pk}/")  # rex: everyone is here
    ode.evaluate(BACK_TO_THE_FRONT)
    ode.get_by_text("Everyone is here: play live now").wait_for(timeout=15_000)
    assert len(fetched) == 1
    assert ode.evaluate(MARKED_HERE, rex) and ode.evaluate(MARKED_HERE, quin)
