"""The admin's step before a table's hidden cards: a confirmed POST, logged once.

The seed, the state, the event log and the full log show every hidden card. They open only
after "Reveal" on a page of its own, sent as a form (CSRF-checked): that writes the
moderation-log row and lets this browser session read that table's secrets for a while. A
link (``?reveal=1``) alone neither shows nor logs anything: any page could make a moderator
follow one, and be logged as having looked (a web attacker's review). Staff who play at a
table still to be decided are refused, with the reason.
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts.models import ModerationLog
from accounts.signed_in import SignedInRequest
from config.admin_mixins import ModelAdminMixin
from games.models import OPEN_STATUSES, Game

EVENT_PERMISSION = "games.view_event"
REVEAL = "reveal"
TO_FULL_LOG = "full"
GRANT_SECONDS = 30 * 60
SESSION_KEY = "revealed_games"
NOT_WHILE_PLAYING = _(
    "You play at this table: its hidden cards stay hidden from you until the game is over."
)


def plays_at(user: Any, game: Game) -> bool:
    """A seat of ``user`` at a table still to be decided: its hidden cards are not for them."""
    return game.status in OPEN_STATUSES and any(
        seat.user_id == user.pk for seat in game.seats.all()
    )


def may_reveal(request: HttpRequest, game: Game) -> bool:
    return request.user.has_perm(EVENT_PERMISSION) and not plays_at(request.user, game)


def revealed(request: HttpRequest, game: Game) -> bool:
    """This session pressed "Reveal" for ``game`` lately, and may still."""
    at = request.session.get(SESSION_KEY, {}).get(str(game.pk))
    return at is not None and time.time() - at < GRANT_SECONDS and may_reveal(request, game)


def reveal_step_url(game_id: int, to: str = "") -> str:
    url = reverse("admin:games_game_reveal", args=[game_id])
    return f"{url}?to={to}" if to else url


def after_reveal_url(game_id: int, to: str = "") -> str:
    if to == TO_FULL_LOG:
        return reverse("admin:games_game_full_log", args=[game_id])
    return reverse("admin:games_game_change", args=[game_id]) + f"?{REVEAL}=1"


class RevealStep(ModelAdminMixin):
    """A GameAdmin mixin: the reveal page, and the way back to it from a bare link."""

    def reveal_view(self, request: SignedInRequest, game_id: int) -> HttpResponse:
        game = Game.objects.filter(pk=game_id).prefetch_related("seats__user").first()
        if game is None:
            raise Http404()
        self.check_may_reveal(request, game)
        to = TO_FULL_LOG if request.GET.get("to") == TO_FULL_LOG else ""
        if request.method == "POST":
            ModerationLog.objects.create(
                actor=request.user, action=ModerationLog.Action.REVEAL_HIDDEN, game_id=game.pk
            )
            grants = {
                key: at
                for key, at in request.session.get(SESSION_KEY, {}).items()
                if time.time() - at < GRANT_SECONDS
            }
            request.session[SESSION_KEY] = {**grants, str(game.pk): time.time()}
            return redirect(after_reveal_url(game.pk, to))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Reveal the hidden cards of game #%(id)s") % {"id": game.pk},
            "opts": self.opts,
            "original": game,
            "game": game,
            "minutes": GRANT_SECONDS // 60,
        }
        return TemplateResponse(request, "admin/games/game/reveal.html", context)

    def check_may_reveal(self, request: HttpRequest, game: Game) -> None:
        if not (
            self.has_view_permission(request, game) and request.user.has_perm(EVENT_PERMISSION)
        ):
            raise PermissionDenied
        if plays_at(request.user, game):
            raise PermissionDenied(NOT_WHILE_PLAYING)

    def asked_to_reveal(self, request: HttpRequest, game: Game | None) -> HttpResponse | None:
        """The game's page with ``?reveal=1``: shown revealed only after the step; a bare
        link leads to the step, a seated moderator reads why not."""
        if game is None or request.GET.get(REVEAL) != "1" or revealed(request, game):
            return None
        if not request.user.has_perm(EVENT_PERMISSION):
            return None
        if plays_at(request.user, game):
            self.message_user(request, NOT_WHILE_PLAYING, messages.ERROR)
            return None
        return redirect(reveal_step_url(game.pk))
