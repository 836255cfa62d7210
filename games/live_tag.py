"""The validator of a viewer's live parts of a table (``/games/<id>/live/``, an ETag).

The table's script fetches those parts again on a ping, on reconnecting, on waking up, when
a clock ran out: most of those refreshes find nothing new for this viewer, and each cost the
whole 12–24 KB. The script sends back the validator of what it shows (If-None-Match); an
unchanged one is answered 304, with no body.

Built only from what the viewer already knows, so that it can tell them nothing the page does
not: the viewer's own revision of the game (``Game.revision_for``: it counts the changes this
seat could see, so another seat's secret answer moves another seat's number, never this one),
and the public things the parts show that change without a revision (whether every player is
at the table, the clock's words beyond a day, the nudge button, a vacation's note, the
rematch's link),
with the viewer's own language, time zone, and CSRF cookie (the parts' forms carry its
token). Never the state, a view or a hand: two seats whose hidden cards differ but who see
the same have the same inputs here but for who they are. When the viewer may propose the Live
pace again after a declined proposal (``pace.propose_again_at``) is one: the note that says it
gives way to the button once that time has passed.

Who is at the table is no input: the socket's heartbeat says it, and the script marks the
players' list in place (static/js/table.js, showPresent). As an input, anyone opening or
leaving the table made every other viewer's page fetch the whole parts again. Only whether
everyone is here is: the parts offer the Live pace then (``pace.may_propose``).

Before the start there is none (every refresh is answered in full): a lobby's parts show
invitations, friends to invite and expiry dates that change without a revision, and a lobby
lives minutes, not days.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils import timezone, translation
from django.utils.http import parse_etags

from games import selectors
from games.models import Game, Seat
from games.services import pace

# The script rewrites a clock under a day left itself (static/js/table.js, tick); beyond, the
# words are the server's ("2 days, 3 hours left").
CLOCK_WORDS_AFTER_SECONDS = 86400


def _clock_words(game: Game) -> str:
    from games.templatetags.tables import time_left  # the words the status line shows

    if game.deadline_at is None:
        return ""
    if (game.deadline_at - timezone.now()).total_seconds() < CLOCK_WORDS_AFTER_SECONDS:
        return ""
    return time_left(game.deadline_at)


def _public_seats(game: Game) -> list[list[Any]]:
    """What the players' list and the board's names show of each seat."""
    now = timezone.now()
    rows = []
    for s in game.seats.all():
        away = s.user.away_until if s.user is not None else None
        rows.append(
            [
                s.index,
                s.name,
                s.player_name,
                s.user_id,
                s.is_bot,
                s.bot_reason,
                away.isoformat() if away is not None and away > now else "",
            ]
        )
    return rows


def _everyone_here(game: Game, present: list[int]) -> bool:
    """Every player's seat (a person's, not a bot's) is at the table: as ``pace.all_present``
    decides from the seats ``selectors.present_seats`` names."""
    people = [s.index for s in game.seats.all() if s.user_id is not None and not s.is_bot]
    return bool(people) and sorted(people) == present


def _csrf_secret(request: HttpRequest) -> str:
    """The secret the parts' CSRF tokens are made from; made now if the browser has none (the
    parts' forms would make it while rendering, after the validator was taken)."""
    if "CSRF_COOKIE" not in request.META:
        get_token(request)
    return str(request.META["CSRF_COOKIE"])


@dataclass(frozen=True)
class Shown:
    """What the parts show beside the viewer's view that changes without a revision: read
    once for a refresh, for its validator and, when that is new, for the parts themselves."""

    present: list[int]  # the seats whose player is at the table now
    nudge: Seat | None  # whom the viewer may nudge
    rematch: Game | None  # the over game's rematch the viewer may open
    live_again: datetime | None  # a declined proposer may propose the Live pace again then


def shown(request: HttpRequest, game: Game) -> Shown:
    seat = selectors.viewer_seat_index(game, request.user)
    present = selectors.present_seats(game)
    return Shown(
        present=present,
        nudge=selectors.nudge_target(game, seat),
        rematch=selectors.rematch_for(game, request.user) if game.is_over else None,
        # only when the Live pace could be proposed now (everyone here): else no query
        live_again=pace.propose_again_at(game, seat) if _everyone_here(game, present) else None,
    )


def of(request: HttpRequest, game: Game, parts: Shown) -> str | None:
    """The validator of ``request.user``'s live parts of ``game`` now; None in the lobby."""
    if game.status == Game.Status.LOBBY:
        return None
    user = request.user
    seat = selectors.viewer_seat_index(game, user)
    revision = game.revision_for(seat)
    nudge, rematch = parts.nudge, parts.rematch
    inputs = [
        user.pk,
        seat,
        revision,
        game.status,
        translation.get_language(),
        timezone.get_current_timezone_name(),
        _csrf_secret(request),
        _everyone_here(game, parts.present),
        int(game.deadline_at.timestamp() * 1000) if game.deadline_at else None,
        _clock_words(game),
        nudge.pk if nudge is not None else None,
        rematch.pk if rematch is not None else None,
        parts.live_again.isoformat() if parts.live_again else None,
        game.live_offer,
        game.live_since.isoformat() if game.live_since else None,
        _public_seats(game),
    ]
    digest = hashlib.sha256(json.dumps(inputs, default=str).encode()).hexdigest()[:24]
    # the revision in plain words: the page shows it already (data-revision)
    return f'W/"r{revision}-{digest}"'


def matches(request: HttpRequest, tag: str) -> bool:
    """The request's If-None-Match names ``tag`` (weakly: the parts' tokens differ)."""
    sent = parse_etags(request.headers.get("If-None-Match", ""))
    bare = tag.removeprefix("W/")
    return any(t.removeprefix("W/") == bare for t in sent)
