"""Thin HTML views: read the request, call a service, say what happened, redirect."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts import notifications
from games import presenters, replays, selectors, services
from games.engines import registry
from games.errors import GameError, StaleVersion
from games.forms import NewGameForm
from games.models import Game
from games.services import notify, vacation


def _visible_game(request: HttpRequest, game_id: int) -> Game:
    game = selectors.game_with_seats(game_id)
    if game is None or not selectors.can_view(game, request.user):
        raise Http404(_("There is no such game, or you may not see it."))
    return game


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    try:
        before = int(request.GET["before"]) if request.GET.get("before") else None
    except ValueError:
        before = None
    games = selectors.my_games(request.user, before)
    return render(
        request,
        "games/my_games.html",
        {
            "mine": games.mine,
            "others": games.others,
            "lobby": games.lobby,
            "finished": games.finished,
            "older": games.older,
            "before": before,
            "invitations": selectors.invitations_for(request.user),
            "engines": registry.ENGINES,
        },
    )


@login_required
def new_game(request: HttpRequest) -> HttpResponse:
    initial = {"invite": [request.GET["invite"]]} if request.GET.get("invite") else {}
    form = NewGameForm(request.POST or None, user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = services.game_create(
                request.user,
                engine=data["game"],
                seats=data["seats"],
                pace=data["pace"],
                move_seconds=data["move_seconds"],
                window_seconds=data["window_seconds"],
                bots=data["bots"],
                invite=data["invite"],
                join_policy=data["join_policy"],
                allow_spectators=data["allow_spectators"],
                options={registry.get(data["game"]).start_option: 0}
                if data["starts"] == "me"
                else {},
            )
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request, _("Table created. Invite friends or start when you are ready.")
            )
            return redirect("games:table", game_id=game.pk)
    return render(request, "games/new.html", {"form": form})


@never_cache  # the page is one seat's view: no-store, so no cache keeps anyone's cards
@login_required
def table(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _visible_game(request, game_id)
    if (
        game.status == Game.Status.ACTIVE
        and game.deadline_at
        and game.deadline_at <= timezone.now()
    ):
        services.apply_deadline(game.pk)  # lazy check: a page view never shows an expired wait
        game = _visible_game(request, game_id)
    payload = selectors.game_payload(game, request.user)
    seat = payload["seat"]
    notifications.mark_read_for_game(request.user, game.pk)  # seen: the bell need not say it again
    if seat is not None:
        notifications.mark_present(game.pk, request.user.pk)  # the socket's heartbeat keeps it
    my_seat = selectors.seat_of(game, request.user)
    groups = presenters.action_groups(
        payload["legal_actions"], payload["view"] or {}, payload["players"]
    )
    return render(
        request,
        "games/table.html",
        {
            "game": game,
            "payload": payload,
            "groups": groups,
            "seat": seat,
            "rules": registry.get(game.engine, game.rules_version),
            "log": selectors.events_for(game, request.user, last=40),
            "may_join": game.status == Game.Status.LOBBY
            and seat is None
            and services.may_join(game, request.user),
            "is_creator": game.created_by_id == request.user.pk,
            "key": uuid.uuid4().hex,
            # only a table gathering players can have an open invitation
            "invitation": game.invitations.filter(to_user=request.user, status="pending").first()
            if game.status == Game.Status.LOBBY
            else None,
            "nudge_target": selectors.nudge_target(game, seat),
            "my_seat": my_seat,
            "not_ready": services.not_ready(game, list(game.seats.all())),
            "now": timezone.now(),
        },
    )


@login_required
@require_POST
def table_command(request: HttpRequest, game_id: int, command: str) -> HttpResponse:
    _visible_game(request, game_id)
    done = {
        "join": (lambda: services.game_join(request.user, game_id), _("You took a seat.")),
        "decline": (
            lambda: services.invitation_decline(request.user, game_id),
            _("Invitation declined."),
        ),
        "start": (lambda: services.game_start(request.user, game_id), _("The game has started.")),
        "start_anyway": (
            lambda: services.game_start(request.user, game_id, anyway=True),
            _("The game has started; the bot plays for whoever was not ready until they are back."),
        ),
        "ready": (lambda: services.seat_ready(request.user, game_id), _("You are ready.")),
        "not_ready": (
            lambda: services.seat_ready(request.user, game_id, ready=False),
            _("You are no longer marked ready."),
        ),
        "reclaim": (
            lambda: services.seat_reclaim(request.user, game_id),
            _("Your seat is yours again: you play your next move yourself."),
        ),
        "cancel": (
            lambda: services.game_cancel(request.user, game_id),
            _("The table was cancelled."),
        ),
        "invite": (
            lambda: services.game_invite(request.user, game_id, request.POST.getlist("invite")),
            _("Invitations sent."),
        ),
        "nudge": (lambda: notify.nudge(request.user, game_id), _("Nudge sent.")),
    }
    if command not in done:
        raise Http404()
    call, message = done[command]
    try:
        call()
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, message)
    if command == "decline":
        return redirect("games:my_games")
    return redirect("games:table", game_id=game_id)


@never_cache
@login_required
@require_POST
def table_act(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _visible_game(request, game_id)
    seat = selectors.viewer_seat_index(game, request.user)
    legal = selectors.game_payload(game, request.user)["legal_actions"] if seat is not None else []
    action = presenters.action_from_post(request.POST, legal)
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = -1
    try:
        if action is None and version == game.version_for(seat):
            raise GameError(_("That move is not possible now."), "not_legal")
        if action is None:
            raise StaleVersion(game.version_for(seat))
        result = services.act(request.user, game_id, version, action, request.POST.get("key", ""))
    except StaleVersion as exc:
        messages.warning(request, exc.message)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("Your move was already recorded.") if result.replayed else _("Move played.")
        )
    return redirect(reverse("games:table", args=[game_id]) + "#board")


@never_cache
@login_required
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _visible_game(request, game_id)
    if not game.is_over or game.state is None:
        raise Http404(_("The reveal opens when the game is over."))
    steps = replays.full_replay(game)
    try:
        index = max(0, min(int(request.GET.get("step", len(steps) - 1)), len(steps) - 1))
    except ValueError:
        index = len(steps) - 1
    return render(
        request,
        "games/replay.html",
        {
            "game": game,
            "steps": steps,
            "step": steps[index],
            "index": index,
            "players": selectors.seat_names(game),
            "final_view": registry.get(game.engine, game.rules_version).view(game.state, None),
        },
    )


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in registry.ENGINES:
        raise Http404()
    return render(
        request,
        "games/rules.html",
        {"engine": registry.get(slug), "body": f"games/rules/{slug}.html"},
    )


@login_required
def vacation_page(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        try:
            if request.POST.get("end"):
                vacation.vacation_end(request.user)
                messages.success(
                    request, _("Welcome back: your turns run on the normal clock again.")
                )
            else:
                try:
                    days = int(request.POST.get("days", ""))
                except ValueError:
                    days = 0
                vacation.vacation_start(request.user, days)
                messages.success(
                    request, _("Enjoy your break: your turn deadlines wait until you are back.")
                )
        except GameError as exc:
            messages.error(request, exc.message)
        return redirect("games:vacation")
    request.user.refresh_from_db()
    away = request.user.away_until
    return render(
        request,
        "games/vacation.html",
        {
            "days_left": vacation.days_left(request.user),
            "away": away if away and away > timezone.now() else None,
        },
    )
