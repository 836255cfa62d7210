"""Thin HTML views: read the request, call a service, say what happened, redirect."""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from accounts import notifications
from accounts.models import User
from accounts.selectors import are_friends
from accounts.signed_in import SignedInRequest
from accounts.templatetags.calendar_dates import moment_in_sentence
from config.guard import SaidNotFound
from games import (
    broadcast,
    create_once,
    live_tag,
    pending,
    presenters,
    reveal_pages,
    selectors,
    services,
)
from games.catalog import registry as catalog
from games.engines import registry
from games.errors import GameError, NotActive, NotAllowed, StaleVersion
from games.forms import NewGameForm
from games.models import Game, Invitation, PaceSwitch, Seat
from games.services import chat, notify, pace, vacation
from games.services.lobby_expiry import expires_at


def _visible_game(request: HttpRequest, game_id: int) -> Game:
    game = selectors.visible_game(game_id, request.user)
    if game is None:
        if selectors.invitation_outlived(game_id, request.user):
            # their invitation's notice or an old page led here: say what became of it
            raise SaidNotFound(_("This table started without you, or was cancelled."))
        raise Http404(_("There is no such game, or you may not see it."))
    return game


@never_cache
@login_required
def my_games(request: SignedInRequest) -> HttpResponse:
    try:
        before = int(request.GET["before"]) if request.GET.get("before") else None
    except ValueError:
        before = None
    invitations = list(selectors.invitations_for(request.user))
    games = selectors.my_games(request.user, before, also=[i.game for i in invitations])
    unread = chat.unread_counts(request.user, games.mine + games.others + games.lobby)
    for game in games.mine + games.others + games.lobby:
        game.unread_talk = unread.get(game.pk, 0)  # type: ignore[attr-defined]  # for the page
    selectors.lobby_details([*games.lobby, *(i.game for i in invitations)])
    # ?part=lists: only the lists, which the page's script swaps in place when the player's
    # own socket says they changed (templates/base.html)
    template = "games/_my_games_lists.html" if request.GET.get("part") == "lists" else None
    return render(
        request,
        template or "games/my_games.html",
        {
            "mine": games.mine,
            "others": games.others,
            "lobby": games.lobby,
            "finished": games.finished,
            "older": games.older,
            "before": before,
            "invitations": invitations,
            "engines": registry.ENGINES,
            "stamp": selectors.lists_stamp(request.user, invitations),
        },
    )


@login_required
def new_game(request: SignedInRequest) -> HttpResponse:
    initial: dict[str, Any] = {"key": secrets.token_urlsafe(12)}
    if request.GET.get("invite"):
        initial["invite"] = [request.GET["invite"]]
    form = NewGameForm(request.POST or None, user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        key, asked = data["key"], create_once.settings_of(request.POST)
        # the first press makes the table; another is sent to it, or tries in its turn
        # when the first was refused (and says why if it is refused too)
        while key and not create_once.claim(request.user.pk, key, asked):
            state, game_id = create_once.outcome(request.user.pk, key, asked)
            if state == "made":
                messages.info(request, _("This table was already created."))
                return redirect("games:table", game_id=game_id)
            if state == "making":
                messages.warning(
                    request, _("Your table is still being created: it will be in your list.")
                )
                return redirect("games:my_games")
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
                spectator_chat=data["spectator_chat"] or Game.SpectatorChat.READ,
                start_when_full=data["start_when_full"],
                options={registry.get(data["game"]).start_option: 0}
                if data["starts"] == "me"
                else {},
            )
        except GameError as exc:
            if key:
                create_once.failed(request.user.pk, key, asked)
            form.add_error(None, exc.message)
        except Exception:
            if key:
                create_once.failed(request.user.pk, key, asked)
            raise
        else:
            if key:
                create_once.made(request.user.pk, key, asked, game.pk)
            if game.status == Game.Status.ACTIVE:  # every seat was taken by bots: it began
                messages.success(request, _("The game has started."))
            else:
                messages.success(
                    request, _("Table created. Invite friends or start when you are ready.")
                )
            return redirect("games:table", game_id=game.pk)
    return render(request, "games/new.html", {"form": form})


def _pace_log(game: Game, players: list[str]) -> list[dict[str, Any]]:
    """The table's switches to the Live pace and back, as history entries (not engine events)."""
    texts: dict[str, str] = {
        PaceSwitch.Kind.PROPOSED: _("%(name)s proposes to play live now."),
        PaceSwitch.Kind.ACCEPTED: _("%(name)s wants to play live."),
        PaceSwitch.Kind.DECLINED: _("%(name)s would rather keep the table's pace."),
        PaceSwitch.Kind.LIVE: _("Everyone accepted: the table plays live now."),
        PaceSwitch.Kind.FALLBACK: _("Someone left the table: back to the table's own pace."),
    }
    entries = []
    # newest first, as the history reads: switches made in one second (a proposal, its
    # acceptances, the switch) keep that order when merged with the moves by time
    for row in reversed(list(game.pace_switches.all())):
        name = players[row.seat] if row.seat is not None and row.seat < len(players) else ""
        text = texts[row.kind] % {"name": name}
        entries.append(
            {
                "seq": None,
                "created": row.created_at.replace(microsecond=0),
                "at": row.created_at,
                "lines": [{"text": text, "secret": False, "minor": False}],
            }
        )
    return entries


HISTORY_SHOWN = 40  # the table page's newest log rows; the replay has every one once it is over


def _read_table(request: SignedInRequest, game_id: int) -> Game:
    """The table as its viewer reads it now, and what a read of it does, whether its parts
    are sent or found unchanged (a 304 of the live parts): its notices and talk are read, a
    player is at the table."""
    game = _visible_game(request, game_id)
    if services.apply_if_expired(game):  # a page never shows an expired wait
        game = _visible_game(request, game_id)
    if notifications.mark_read_for_game(request.user, game.pk):  # seen: the bell need not say it
        # again, on this page's bell either (the player's socket gives it its count)
        broadcast.notify_users_changed([request.user.pk])
    chat.mark_read(game, request.user)
    if selectors.viewer_seat_index(game, request.user) is not None:
        notifications.mark_present(game.pk, request.user.pk)  # the socket's heartbeat keeps it
    return game


def _table_context(
    request: SignedInRequest, game: Game, shown: live_tag.Shown | None = None
) -> dict[str, Any]:
    """Everything the table's parts show, for the requesting user's seat only. ``shown``: what
    a refresh read already for the parts' validator."""
    payload = selectors.game_payload(game, request.user)
    seat = payload["seat"]
    shown = shown or live_tag.shown(request, game)
    present = shown.present
    my_seat = selectors.seat_of(game, request.user)
    seats = list(game.seats.all())
    history_names = selectors.history_names(game)
    groups = presenters.action_groups(
        payload["legal_actions"],
        payload["view"] or {},
        payload["players"],
        catalog.get(game.engine),
    )
    waiting = payload["waiting_for"] or {}
    wanted = (
        waiting.get("kind", "")
        if game.status == Game.Status.ACTIVE
        and seat is not None
        and seat in (waiting.get("seats") or [])
        and payload["legal_actions"]
        else ""
    )
    now = timezone.now()
    # one more: cut? The exact times place the Live-pace switches among the moves.
    log = selectors.events_for(game, request.user, last=HISTORY_SHOWN + 1, at=True)
    return {
        "game": game,
        "game_slug": game.engine,
        "payload": payload,
        "groups": groups,
        "seat": seat,
        "rules": registry.get(game.engine, game.rules_version),
        "log": log[-HISTORY_SHOWN:],
        "log_cut": len(log) > HISTORY_SHOWN,  # older moves left out: say where they are
        "history_names": history_names,
        "pace_log": _pace_log(game, history_names),
        "may_join": game.status == Game.Status.LOBBY
        and seat is None
        and services.may_join(game, request.user),
        # every seat taken: the invitee is told so, not offered a seat the table refuses
        "table_full": game.status == Game.Status.LOBBY
        and len(game.seats.all()) >= game.seats_count,
        "is_creator": game.created_by_id == request.user.pk,
        # a table nobody starts is cancelled (games/services/lobby_expiry.py): it says when
        "lobby_expires": expires_at(game) if game.status == Game.Status.LOBBY else None,
        "key": uuid.uuid4().hex,
        # only a table gathering players can have an open invitation
        "invitation": game.invitations.filter(to_user=request.user, status="pending").first()
        if game.status == Game.Status.LOBBY
        else None,
        **_lobby_context(request, game),
        "nudge_target": shown.nudge,
        "my_seat": my_seat,
        "rules_body": f"catalog/{game.engine}/rules.html" if game.learning else None,
        "rematch": shown.rematch,
        **_chat_context(request, game),
        "not_ready": services.not_ready(game, seats),
        # from the seats read already: the creator sits at their own lobby (no query of its own)
        "creator_name": next((s.name for s in seats if s.user_id == game.created_by_id), ""),
        "now": now,
        "now_ms": int(now.timestamp() * 1000),
        "deadline_ms": int(game.deadline_at.timestamp() * 1000) if game.deadline_at else "",
        "wanted": wanted,
        "present": present,
        "live_tag": live_tag.of(request, game, shown),
        **_live_proposal(game, seats, request.user, shown.live_again),
        "live_may_answer": game.live_offer is not None
        and my_seat is not None
        and not my_seat.is_bot
        and my_seat.index not in game.live_offer,
        "live_offer_names": [payload["players"][i] for i in game.live_offer or []],
    }


def _live_proposal(
    game: Game, seats: list[Seat], user: Any, again: datetime | None
) -> dict[str, Any]:
    """The Live pace's button, or, while a declined proposer waits to propose again, the note
    that says until when (and, for the script, when to fetch the parts that bring the button
    back)."""
    if not pace.may_propose(game, seats, user):
        return {"live_may_propose": False, "live_again": ""}
    if again is None:
        return {"live_may_propose": True, "live_again": ""}
    return {
        "live_may_propose": False,
        "live_again": pace.propose_again_words(again),
        "live_again_ms": int(again.timestamp() * 1000),
    }


def _lobby_context(request: SignedInRequest, game: Game) -> dict[str, Any]:
    """Before the start: who is invited and has answered, and the friends the creator may
    still invite (not seated, no open invitation)."""
    if game.status != Game.Status.LOBBY:
        return {}
    selectors.lobby_details([game])
    # the open invitations, as lobby_details read them: one count serves both questions below
    invitees: list[dict[str, str]] = game.invitees  # type: ignore[attr-defined]
    waited = sum(1 for i in invitees if i["status"] == Invitation.Status.PENDING)
    free = game.seats_taken + waited < game.seats_count  # type: ignore[attr-defined]
    invitable: list[User] = []
    friendless = False
    if game.created_by_id == request.user.pk and free:
        invitable = selectors.invitable_friends(game, request.user)
        # a new player's first table said "Invite friends or start" and offered nobody to
        # invite and no way to find anyone (play-through as a new player)
        friendless = not invitable and not selectors.has_friends(request.user)
    # an invite-only table with more free seats than open invitations is never full: it said
    # "The game starts as soon as every seat is taken" with nobody able to take those seats
    # (a new player's play-through)
    never_full = game.join_policy == Game.JoinPolicy.INVITED and free
    return {"invitable": invitable, "friendless": friendless, "never_full": never_full}


@require_safe  # reading the table marks its notices and talk read: never on PUT or DELETE
@never_cache  # the page is one seat's view: no-store, so no cache keeps anyone's cards
@login_required
def table(request: SignedInRequest, game_id: int) -> HttpResponse:
    context = _table_context(request, _read_table(request, game_id))
    if pending.SESSION_KEY in request.session:  # a move kept across a login
        payload = context["payload"]
        seat = context["seat"]
        context["pending"] = pending.take(
            request,
            game_id,
            seat,
            context["game"].version_for(seat) if seat is not None else None,
            payload["legal_actions"],
        )
    return render(request, "games/table.html", context)


@require_safe
@never_cache
@login_required
def table_live(request: SignedInRequest, game_id: int) -> HttpResponse:
    """The table's parts for the requesting seat, which the page's script swaps in place when
    its socket says the seat's revision grew. The same rendering as the page: only what
    ``engine.view`` gives that seat. Nothing new for this viewer since the parts the script
    shows (their validator, sent back as If-None-Match: games/live_tag.py): 304, no body."""
    game = _read_table(request, game_id)
    shown = live_tag.shown(request, game)
    tag = live_tag.of(request, game, shown)
    if tag is not None and live_tag.matches(request, tag):
        unchanged = HttpResponseNotModified()
        unchanged["ETag"] = tag
        return unchanged
    context = _table_context(request, game, shown)  # the seats, nudge and rematch read once
    response = render(request, "games/_table_live.html", context)
    if context["live_tag"] is not None:
        response["ETag"] = context["live_tag"]
    return response


def _rematch(request: SignedInRequest, game_id: int) -> HttpResponse:
    """ "Play again": to the rematch, saying what became of the press."""
    try:
        rematch, made = services.game_rematch(request.user, game_id)
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect("games:table", game_id=game_id)
    if made and rematch.learning:
        messages.success(request, _("A new game against the bots has started."))
    elif made and rematch.invitations.exists():
        messages.success(request, _("A new table with the same players: they are invited."))
    elif made and rematch.status == Game.Status.ACTIVE:
        # a table of bots alone starts at once: "start when you are ready" sent the player
        # looking for a start button on a game whose clock was running (newcomer review)
        messages.success(request, _("A new game against the same bots has started."))
    elif made:
        messages.success(request, _("A new table with the same bots: start when you are ready."))
    elif selectors.seat_of(rematch, request.user) is not None:
        messages.info(request, _("Here is the rematch: you have a seat."))
    elif rematch.status == Game.Status.LOBBY and selectors.invited_to(rematch, request.user):
        messages.info(request, _("You are invited to the rematch: take a seat to play."))
    else:
        messages.info(request, _("Here is the rematch."))
    return redirect("games:table", game_id=rematch.pk)


def _confirmation(request: HttpRequest, game: Game, command: str) -> dict[str, str] | None:
    """The words of the page that asks before a command that cannot be undone, if it asks."""
    # as the button: a seat the bot plays for good (left, a moderator's) is not to be left
    leavable = selectors.playing_seat(game, request.user) is not None
    if command == "cancel" and game.status == Game.Status.LOBBY:
        asks = game.created_by_id == request.user.pk
        title, yes, no = _("Cancel the table?"), _("Yes, cancel the table"), _("Keep the table")
        text = _(
            "%(game)s #%(id)s closes for good: its open invitations are withdrawn and whoever "
            "took a seat sees it cancelled."
        )
    elif command == "quit" and game.status == Game.Status.ACTIVE:
        asks = leavable
        title, yes, no = _("Leave the game?"), _("Yes, leave the game"), _("Keep playing")
        text = _(
            "The bot plays your seat (%(game)s #%(id)s) to the end, and you cannot take it "
            "back. The game counts as abandoned in your statistics."
        )
    else:
        return None
    if not asks:
        return None  # the service says why it is refused
    words = {"game": game.get_engine_name(), "id": game.pk}
    return {"title": title, "text": text % words, "yes": yes, "no": no}


@login_required
def table_command(request: SignedInRequest, game_id: int, command: str) -> HttpResponse:
    game = _visible_game(request, game_id)
    if request.method != "POST":
        # a command's URL visited by GET (a login that interrupted a POST): back to the table
        return redirect("games:table", game_id=game_id)
    asked = _confirmation(request, game, command)
    if asked is not None and request.POST.get("confirmed") != "1":
        # the second step, which works without JavaScript (with it, the page asks confirm())
        return render(request, "games/confirm.html", {"game": game, "command": command, **asked})
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
        "leave": (
            lambda: services.game_leave(request.user, game_id),
            _("You left the table; your seat is free again."),
        ),
        "quit": (
            lambda: services.game_quit(request.user, game_id),
            _("You left the game; the bot plays your seat to the end."),
        ),
        "nudge": (lambda: notify.nudge(request.user, game_id), _("Nudge sent.")),
        "live_propose": (
            lambda: services.live_propose(request.user, game_id),
            _("You proposed to play live now."),
        ),
        "live_accept": (
            lambda: services.live_answer(request.user, game_id, accept=True),
            _("You accepted to play live."),
        ),
        "live_decline": (
            lambda: services.live_answer(request.user, game_id, accept=False),
            _("You kept the table's pace."),
        ),
    }
    if command == "rematch":
        return _rematch(request, game_id)
    if command not in done:
        raise Http404()
    call, message = done[command]
    try:
        result = call()
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        if (
            command == "join"
            and isinstance(result, Seat)
            and result.game.status == Game.Status.ACTIVE
        ):
            message = _("You took the last seat: the game has started.")
        messages.success(request, message)
        # a cancelled table is over before it began: its creator was left on the dead table
        # (a new player's play-through), as a player who leaves is not
        if command in ("leave", "cancel"):
            return redirect("games:my_games")
    if command == "decline":
        return redirect("games:my_games")
    return redirect("games:table", game_id=game_id)


@login_required
def open_tables(request: SignedInRequest) -> HttpResponse:
    """Tables waiting for players that the viewer may join, with each host's reliability."""
    tables = selectors.open_tables(request.user)
    hosts = {r.user_id: r for r in selectors.records_for([t.created_by_id for t in tables])}
    for table in tables:
        table.host_reliability = hosts.get(table.created_by_id)  # type: ignore[attr-defined]  # for the page
    return render(request, "games/open_tables.html", {"tables": tables})


@login_required
def learn(request: SignedInRequest, slug: str) -> HttpResponse:
    """Learn to play: a Live table against bots, the rules beside the board."""
    if request.method != "POST":
        # opened by GET (a login that interrupted the POST): back to the rules, not a 405
        return redirect("games:rules", slug=slug) if slug in registry.ENGINES else redirect("home")
    try:
        game = services.game_learn(request.user, slug)
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect("games:rules", slug=slug)
    return redirect("games:table", game_id=game.pk)


@login_required
def player(request: SignedInRequest, username: str) -> HttpResponse:
    """A player's records per game and last finished tables: for themselves and their friends."""
    person = get_object_or_404(User, username=username, is_active=True)
    if person.pk != request.user.pk and not are_friends(request.user, person):
        raise Http404()
    return render(
        request,
        "games/player.html",
        {
            "person": person,
            "records": selectors.records_of(person),
            "last_games": selectors.finished_games_of(person, 10, request.user),
            "playing_now": selectors.playing_now(person, request.user),
        },
    )


@never_cache
def table_act(request: HttpRequest, game_id: int) -> HttpResponse:
    table_url = reverse("games:table", args=[game_id])
    if request.method != "POST":
        return redirect(table_url)  # a move's URL opened by GET (say, after a login)
    if not request.user.is_authenticated:
        # the session expired while the player chose: keep the move, log in, back to the table
        pending.keep(request, game_id)
        return redirect_to_login(table_url)
    game = _visible_game(request, game_id)
    seat = selectors.viewer_seat_index(game, request.user)
    legal = selectors.game_payload(game, request.user)["legal_actions"] if seat is not None else []
    action = presenters.action_from_post(request.POST, legal)
    try:
        version: int | None = int(request.POST.get("version", ""))
    except ValueError:
        version = None  # a broken or forged form, not a page the game moved on from
    try:
        # who and when first: a watcher's or a finished table's form said "the game moved on"
        if seat is None:
            raise NotAllowed(_("You are not playing at this table."))
        if game.status == Game.Status.FINISHED:
            raise NotActive(_("This game is over."))
        if game.status != Game.Status.ACTIVE:
            raise NotActive(_("This game is not in play."))
        if version is None or (action is None and version == game.version_for(seat)):
            raise GameError(_("That move is not possible now."), "not_legal")
        if action is None:
            # a page that fell behind: an answer to a window that has closed since (a race
            # another won, a gift after the deadline) is the service's "too late", not "moved on"
            posted = presenters.posted_action(request.POST)
            if posted is None or not isinstance(posted[0]["type"], str):
                raise StaleVersion(game.version_for(seat))
            action = posted[0]
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
def replay(request: SignedInRequest, game_id: int) -> HttpResponse:
    """The reveal: the game's own board at each step, every card face up; it opens at the deal."""
    game = _visible_game(request, game_id)
    if not game.is_over or game.state is None:
        raise Http404(_("The reveal opens when the game is over."))
    players = selectors.history_names(game)
    try:
        wanted = int(request.GET.get("step", 0))
    except ValueError:
        wanted = 0
    page = reveal_pages.reveal_page(game, players, wanted)
    presentation = catalog.get(game.engine)
    engine = registry.get(game.engine, game.rules_version)
    view = presentation.reveal_view(engine, page.state)
    return render(
        request,
        "games/replay.html",
        {
            "game": game,
            "game_slug": game.engine,
            "players": players,
            "step": page.step,
            "index": page.index,
            "last": page.last,
            "rounds": page.rounds,
            "marked": page.marked,
            "view": view,
            "extras": presentation.board_extras(view, [], None, players),
        },
    )


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in registry.ENGINES:
        raise Http404()
    return render(
        request,
        "games/rules.html",
        {
            "engine": registry.get(slug),
            "title": catalog.title(slug),
            "body": f"catalog/{slug}/rules.html",
        },
    )


@login_required
def vacation_page(request: SignedInRequest) -> HttpResponse:
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
            "away": moment_in_sentence(away) if away and away > timezone.now() else None,
        },
    )


# --- Table talk ------------------------------------------------------------------------------


def _chat_context(request: SignedInRequest, game: Game) -> dict:
    return {
        "game": game,
        "chat": chat.messages_for(game, request.user),
        "chat_channel": chat.channel_for(game, request.user),
        "chat_reads": chat.readable_channel(game, request.user),
        "talk_suspended": (
            chat.suspended_talk(request.user)
            if getattr(request.user, "talk_suspended", False)
            else ""
        ),
    }


@login_required
def chat_panel(request: SignedInRequest, game_id: int) -> HttpResponse:
    """The talk alone (the table's script swaps it in when the socket says it changed)."""
    game = _visible_game(request, game_id)
    chat.mark_read(game, request.user)
    return render(request, "games/_chat.html", _chat_context(request, game))


@login_required
def chat_post(request: SignedInRequest, game_id: int) -> HttpResponse:
    _visible_game(request, game_id)
    if request.method != "POST":
        # opened by GET (a login that interrupted the POST): back to the talk, not a 405
        return redirect(reverse("games:table", args=[game_id]) + "#chat")
    try:
        chat.post(request.user, game_id, request.POST.get("text", ""))
    except GameError as exc:
        messages.error(request, exc.message)
    return redirect(reverse("games:table", args=[game_id]) + "#chat")


@login_required
def chat_report(request: SignedInRequest, game_id: int, line: int) -> HttpResponse:
    if request.method != "POST":  # opened by GET (a login interrupted the POST): no 405
        messages.info(
            request, _("Nothing was reported: press “Report this message” again at the table.")
        )
        return redirect("games:my_games")
    try:
        report = chat.report(request.user, game_id, line)
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect("games:my_games")
    messages.success(request, _("Thank you. The moderators will read the message."))
    return redirect(reverse("games:table", args=[report.game_id]) + "#chat")


@login_required
def chat_mute(request: SignedInRequest, username: str) -> HttpResponse:
    if request.method != "POST":  # opened by GET (a login interrupted the POST): no 405
        return redirect("games:my_games")
    other = get_object_or_404(User, username=username)
    muted = request.POST.get("mute", "1") == "1"
    try:
        chat.mute(request.user, other, muted)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        text = (
            _("You no longer see %(name)s's table talk.")
            if muted
            else _("You see %(name)s's table talk again.")
        )
        messages.success(request, text % {"name": other.name})
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = "games:my_games"  # only our own pages: a forged "next" goes nowhere else
    return redirect(back)
