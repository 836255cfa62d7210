"""Journey: three people sign up (each reading the verification email from its file), befriend
each other, create a Cockroach Poker Royal table, play it to the end through the pages — with
a pass chain and a royal penalty — and open the replay.

The test knows the whole deal (it reads the game's state, never writes it) and chooses the
moves that make the story certain: the first offer goes round a pass chain, a royal card is
wrongly called into a row (its penalty follows), then one player collects a species until four
of them end the game. Every move is made in that player's browser.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from accounts.models import User
from games.engines import registry
from games.engines.cockroach_poker import cards as C
from games.engines.cockroach_poker import rules as R
from games.models import Event, Game, Seat
from tests.journeys.drive import AnyOf, move, settle, shoot, sign_up, wait_revision

JOURNEY = "cockroach-poker-royal"
NAMES = ("ada", "ben", "cy")

pytestmark = [pytest.mark.browser]


def _happened(game: Game, kind: str) -> bool:
    return any(e.get("kind") == kind for row in Event.objects.filter(game=game) for e in row.events)


def _same_kind(state: dict[str, Any], card: int) -> AnyOf:
    """The cards of the seat's hand that look like ``card`` (the page offers one of them)."""
    kinds = state["kinds"]
    hand = next(h for h in state["hands"] if card in h)
    return AnyOf(c for c in hand if kinds[c] == kinds[card])


def _claim_for(kind: str) -> str:
    return C.species_of(kind)


def next_move(game: Game, loser: int | None) -> tuple[int, str, dict[str, Any]]:
    """(seat, move type, fields) for the story above."""
    state, n = game.state, game.state["players"]
    kinds, seat, phase = state["kinds"], state["active"], state["phase"]
    chained = _happened(game, "passed")
    penalised = _happened(game, "penalty")
    if phase == "offer":
        plain = [c for c in state["hands"][seat] if not C.is_special(kinds[c])]
        if not penalised:
            royals = [c for c in plain if C.is_royal(kinds[c])]
            if royals:  # the receiver will call the truth a lie and take it: a royal penalty
                return (
                    seat,
                    "offer",
                    {"card": _same_kind(state, royals[0]), "to": (seat + 1) % n, "claim": C.ROYAL},
                )
            holders = [
                s
                for s in range(n)
                if s != seat and any(C.is_royal(kinds[c]) for c in state["hands"][s])
            ]
            card = plain[0]
            to = holders[0] if holders else (seat + 1) % n
            return (
                seat,
                "offer",
                {"card": _same_kind(state, card), "to": to, "claim": _claim_for(kinds[card])},
            )
        assert loser is not None
        tally = dict.fromkeys(C.SPECIES, 0)
        for c in state["rows"][loser]:
            tally[C.species_of(kinds[c])] += 1
        best = max(plain, key=lambda c: tally[C.species_of(kinds[c])])
        to = (seat + 1) % n if seat == loser else loser
        return (
            seat,
            "offer",
            {"card": _same_kind(state, best), "to": to, "claim": _claim_for(kinds[best])},
        )
    if phase == "answer":
        if not chained and R.may_peek(state):
            return seat, "peek", {}
        rnd = state["round"]
        truth = C.is_true(kinds[rnd["card"]], rnd["chain"][-1]["claim"])
        receiver_takes = not penalised or seat == loser
        says = (not truth) if receiver_takes else truth
        return seat, "call", {"says": "true" if says else "false"}
    if phase == "pass":
        rnd = state["round"]
        to = next(s for s in range(n) if s not in rnd["seen"])
        return seat, "pass", {"to": to, "claim": rnd["chain"][-1]["claim"]}
    assert phase == "name", phase
    engine = registry.get(game.engine, game.rules_version)
    first = engine.legal_actions(state, seat)[0]
    return seat, "name", {"cards": first["cards"]}


def test_sign_up_befriend_play_cockroach_poker_royal_to_the_end_and_replay(stack, new_page):
    base = stack.base
    # each on a device in its own time zone, which the sign-up takes for the profile
    zones = dict(zip(NAMES, ("Asia/Tehran", "Europe/Prague", "America/Sao_Paulo"), strict=False))
    pages = {name: new_page(timezone_id=zones.get(name)) for name in NAMES}
    ada, ben, cy = (pages[n] for n in NAMES)

    # --- three sign-ups, each confirmed by the link in its email file ------------------------
    for name, page in pages.items():
        sign_up(page, base, name, stack.emails)
    shoot(ada, JOURNEY, "01-signed-in")
    assert {u.username: u.time_zone for u in User.objects.filter(username__in=NAMES)} == {
        name: zones.get(name, "UTC") for name in NAMES
    }

    # --- friends: ada asks ben and cy, ben asks cy; each accepts on the friends page ----------
    for asker, friend in (("ada", "ben"), ("ada", "cy"), ("ben", "cy")):
        page = pages[asker]
        page.goto(f"{base}/friends/?who={friend}")
        with page.expect_navigation():
            page.locator('form[action="/friends/requests/"] button[type="submit"]').click()
    for name in ("ben", "cy"):
        page = pages[name]
        page.goto(f"{base}/friends/")
        accept = page.locator('form[action$="/accept/"] button[type="submit"]')
        while accept.count():
            with page.expect_navigation():
                accept.first.click()
    shoot(cy, JOURNEY, "02-friends")
    ada.goto(f"{base}/friends/")
    for friend in ("ben", "cy"):
        assert ada.locator(f'a[href="/games/new/?invite={friend}"]').count() == 1

    # --- ada creates a three-seat table and invites both; they take their seats --------------
    ada.goto(f"{base}/games/new/")
    form = ada.locator('form:has(select[name="game"])')
    form.locator('select[name="game"]').select_option("cockroach-poker-royal")
    form.locator('input[name="seats"]').fill("3")
    for friend in ("ben", "cy"):
        form.locator(f'input[name="invite"][value="{friend}"]').check()
    assert form.locator('input[name="start_when_full"]').is_checked()  # the default
    shoot(ada, JOURNEY, "03-new-table")
    form.locator('button[type="submit"]').click()
    ada.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/$", ada.url).group(1))
    table = f"/games/{game_id}/"
    # "Start as soon as every seat is taken" is on by default: the last seat starts the game
    assert ada.locator(".lobby").inner_text().count("as soon as every seat is taken") == 1
    for name in ("ben", "cy"):  # the invitation on My games: accept takes the seat
        page = pages[name]
        page.goto(f"{base}/games/")
        page.locator(f'form[action="{table}join/"] button[type="submit"]').click()
        page.wait_for_url(f"**{table}")
        page.wait_for_selector("#live-root")
    assert "the game has started" in pages["cy"].locator(".messages").inner_text()
    # ada, who created the table, is not asked to start it: her open page turns to the game
    ada.wait_for_selector(".lobby", state="detached", timeout=10_000)
    assert ada.locator(f'form[action="{table}start/"]').count() == 0

    # --- the game, every move in its player's page ------------------------------------------
    game = Game.objects.get(pk=game_id)
    seats = {
        s.index: s.user.username for s in Seat.objects.filter(game=game).select_related("user")
    }
    by_seat = {index: pages[name] for index, name in seats.items()}
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    loser: int | None = None
    shots = {"peek": "04-peeked", "pass": "05-passed"}
    penalty_shot = False
    for _step in range(120):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        penalised = _happened(game, "penalty")
        if loser is None and penalised and game.state["phase"] == "offer":
            loser = game.state["active"]  # the royal's taker collects until the end
        seat, kind, fields = next_move(game, loser)
        page = by_seat[seat]
        wait_revision(page, game.revision_for(seat))
        move(page, kind, **fields)
        if kind in shots:
            shoot(page, JOURNEY, shots.pop(kind))
        if not penalty_shot and _happened(game, "penalty"):
            # the mover's page tells the penalty in place (its history part)
            assert "penalty" in page.locator('[data-live="history"]').inner_text().lower()
            shoot(page, JOURNEY, "06-royal-penalty")
            penalty_shot = True
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert Event.objects.filter(game=game, action__type="pass").exists()  # a pass chain
    assert _happened(game, "penalty")  # a royal penalty

    # --- everyone's page shows the end in place, with the way to the reveal ------------------
    for seat, page in by_seat.items():
        wait_revision(page, game.revision_for(seat))
        page.wait_for_selector(f'.reveal-link a[href="{table}replay/"]')
    shoot(ada, JOURNEY, "07-finished")
    settle(ben)
    ben.locator(f'.reveal-link a[href="{table}replay/"]').click()
    ben.wait_for_url(f"**{table}replay/")
    step = ben.goto(f"{base}{table}replay/?step=1")  # the reveal steps from the deal on
    assert step is not None and step.ok
    assert all(name in ben.locator("main").inner_text() for name in NAMES)
    shoot(ben, JOURNEY, "08-replay")
