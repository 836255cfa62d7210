"""A move posted after the session expired is kept, not lost.

The POST arrives without a session: the move's fields go into the (anonymous) session, which
Django keeps across the login, and the login returns to the table. There the page shows the
form as it was, chosen again, and says the move was not sent: it is never sent by itself. If the
game moved on meanwhile, the page says so and the move is dropped.

The form says whose seat chose the move (its ``seat`` field): the session outlives the
player's, so whoever logs in next on the same browser must not see another seat's unsent
choice (a secret answer, a card picked from a hand).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext as _

from games import presenters

SESSION_KEY = "pending_move"
MAX_FIELDS = 12  # a move has a few fields; a bigger body is not a move form


def keep(request: HttpRequest, game_id: int) -> None:
    fields = {
        key: value[:500]
        for key, value in request.POST.items()
        if key in ("type", "version", "seat") or key.startswith("f_")
    }
    if "type" in fields and len(fields) <= MAX_FIELDS:
        request.session[SESSION_KEY] = {"game": game_id, "fields": fields}
        messages.info(request, _("Log in again to send your move: it waits for you at the table."))


def take(
    request: HttpRequest,
    game_id: int,
    seat: int | None,
    version: int | None,
    legal: list[dict[str, Any]],
) -> dict[str, str] | None:
    """The move kept for this table (removed from the session), if it was chosen by this
    seat and can still be played from the position the player sees now; ``seat`` and
    ``version`` are the player's seat and its version (None: no seat)."""
    kept = request.session.get(SESSION_KEY)
    if not isinstance(kept, dict) or kept.get("game") != game_id:
        return None
    del request.session[SESSION_KEY]
    fields = kept.get("fields") or {}
    if seat is None or fields.get("seat") != str(seat):
        return None  # another seat's move (another player logged in here): never shown
    still = (
        version is not None
        and str(version) == fields.get("version")
        and presenters.action_from_post(fields, legal) is not None
    )
    if not still:
        messages.warning(
            request,
            _("The game moved on while you were logged out: the move you had chosen was not sent."),
        )
        return None
    messages.info(
        request,
        _("Your move was not sent yet: it is chosen again below. Check it and send it."),
    )
    return fields
