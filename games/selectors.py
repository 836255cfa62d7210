"""Read-only queries: who may see a game, and what exactly each viewer is shown."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Collection
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypedDict

from django.db.models import Exists, F, OuterRef, Q, QuerySet, Value
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.notifications import present_users
from accounts.selectors import (
    any_block_between,
    blocks_between,
    blocks_with_any,
    friends_of,
    has_blocked,
)
from config.statements import run_together
from games.catalog.base import comma, join
from games.engines import registry
from games.engines.core import Event as EngineEvent
from games.fields import loads as json_loads
from games.models import (
    OPEN_STATUSES,
    OVER_STATUSES,
    ChatMessage,
    Event,
    Game,
    Invitation,
    Pace,
    Seat,
    bot_plays_for_good,
    seat_mark,
)
from games.table_read import read_game_with_seats


class _SeatsRead(QuerySet):
    """A game's seats as a read already gave them. Iterating, ``len``, ``count`` and
    ``exists`` answer from them; anything that makes a new queryset from it (``filter``,
    ``order_by``, ``all``) starts from the game's seats in the database, as the queryset
    ``prefetch_related`` stores would. Made without compiling a filter: building
    ``Seat.objects.filter(game=game)`` for every read cost more than the rest of this."""

    def __init__(self, game: Game, seats: list[Seat]) -> None:
        super().__init__(model=Seat)
        self._game = game
        self._result_cache = seats
        self._prefetch_done = True

    def _clone(self) -> QuerySet:
        return Seat.objects.filter(game=self._game)


def with_seats(game: Game, seats: list[Seat]) -> Game:
    """``game.seats.all()`` answers ``seats`` from now on, with no query (where Django's
    ``prefetch_related("seats")`` keeps its result)."""
    for seat in seats:
        seat.game = game
    game._prefetched_objects_cache = {"seats": _SeatsRead(game, seats)}  # type: ignore[attr-defined]
    return game


def game_with_seats(game_id: int) -> Game | None:
    """A game with its seats and their players, in one query (games/table_read.py)."""
    read = read_game_with_seats(game_id)
    return None if read is None else with_seats(*read)


def seat_of(game: Game, user: Any) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


def visible_game(game_id: int, user: Any) -> Game | None:
    """The game with its seats if ``user`` may see it (``can_view``), else None: pages, table
    talk and the API answer "no such game" alike, so a stranger cannot tell the two apart."""
    game = game_with_seats(game_id)
    return game if game is not None and can_view(game, user) else None


def can_view(game: Game, user: Any) -> bool:
    """Players, invitees, and (if spectating is on) friends of a player. Everyone else: 404.

    The one rule for pages, API, events and the socket. A watcher who is not seated must have
    no block with any seated player, either way: a blocked player may not watch the blocker
    through a mutual friend's table, nor may a blocker watch the player they blocked.
    """
    if user is None or not user.is_authenticated or not user.is_active or user.is_banned:
        return False
    if seat_of(game, user) is not None:
        return True
    players = [s.user_id for s in game.seats.all() if s.user_id]
    if game.status == Game.Status.LOBBY:
        if invited_to(game, user):
            return True
        return open_to(game, user)
    if not game.allow_spectators:
        return False
    return friends_of(user).filter(pk__in=players).exists() and not any_block_between(user, players)


def _others_at(game: Game) -> list[int]:
    return list({s.user_id for s in game.seats.all() if s.user_id} | {game.created_by_id})


def invited_to(game: Game, user: Any, *, pending: bool = False) -> bool:
    """Whether ``user`` holds an invitation to this lobby (a pending one, if asked) that no
    block has voided: a block made after the invitation, either way, with the creator or
    anyone seated, withdraws it as silently as it would have kept it from being sent."""
    invitations = game.invitations.filter(to_user=user)
    if pending:
        invitations = invitations.filter(status=Invitation.Status.PENDING)
    return invitations.exists() and not any_block_between(user, _others_at(game))


def still_invited(game: Game) -> list[Any]:
    """Who holds a pending invitation to this lobby and may hear what becomes of the table:
    an active player whose invitation no block has withdrawn (``invited_to``: a withdrawn
    one is not theirs to hear of)."""
    pending = game.invitations.filter(status=Invitation.Status.PENDING).select_related("to_user")
    return [
        i.to_user
        for i in pending
        if i.to_user.is_active and invited_to(game, i.to_user, pending=True)
    ]


def invitation_outlived(game_id: int, user: Any) -> bool:
    """Whether ``user`` was invited to a table that has left the lobby since (started
    without them, or cancelled): they knew of it, so they may be told what became of it. A
    table still in the lobby is never named (an invitation a block withdrew stays unsaid)."""
    if user is None or not user.is_authenticated:
        return False
    return (
        Invitation.objects.filter(game_id=game_id, to_user=user)
        .exclude(game__status=Game.Status.LOBBY)
        .exists()
    )


def open_to(game: Game, user: Any) -> bool:
    """Whether a table in the lobby is open to ``user`` by its join policy (invitations aside):
    the creator's friends, their friends too, or anyone signed in — and never across a block,
    either way, with anyone seated or with the creator."""
    policy = game.join_policy
    if policy == Game.JoinPolicy.INVITED:
        return False
    if any_block_between(user, _others_at(game)):
        return False
    if policy == Game.JoinPolicy.ANYONE:
        return True
    friends = friends_of(game.created_by).values("pk")
    if policy == Game.JoinPolicy.FRIENDS:
        return friends.filter(pk=user.pk).exists()
    return friends.filter(pk=user.pk).exists() or friends_of(user).filter(pk__in=friends).exists()


def open_tables(user: Any, limit: int = 50) -> list[Game]:
    """Tables in the lobby that ``user`` may join by their policy, with a free seat."""
    candidates = (
        Game.objects.filter(status=Game.Status.LOBBY)
        .exclude(join_policy=Game.JoinPolicy.INVITED)
        .exclude(seats__user=user)
        .select_related("created_by")
        .prefetch_related("seats__user")
        .order_by("-created_at")[: limit * 4]
    )
    tables = []
    for game in candidates:
        free = game.seats_count - len(game.seats.all())
        if free > 0 and open_to(game, user):
            game.free_seats = free  # type: ignore[attr-defined]  # for the page, not a column
            tables.append(game)
    return tables[:limit]


def playing_seat(game: Game, user: Any) -> Seat | None:
    """The seat ``user`` plays, or may take back from the bot. Not one the bot plays for good
    (they left the game, or a moderator handed it over): with nothing at stake they would tell
    the table the hand the bot plays from, so they watch and talk as a spectator does."""
    seat = seat_of(game, user)
    return None if seat is None or seat.bot_for_good else seat


class GameIdRow(TypedDict):
    game_id: int


def tables_played_by(user: Any) -> QuerySet[Seat, GameIdRow]:
    """The ids of the games ``user`` has a seat at that are still to be decided (a subquery):
    staff pages keep those tables' secrets from them as the table does."""
    return Seat.objects.filter(user_id=user.pk, game__status__in=OPEN_STATUSES).values("game_id")


def talk_read_by_staff(user: Any) -> QuerySet[ChatMessage]:
    """The table talk a staff member may read: all of it but the spectators' channel of the
    tables they play at (a player who left may talk there of the hand the bot plays now)."""
    return ChatMessage.objects.exclude(
        channel=ChatMessage.Channel.SPECTATORS, game_id__in=tables_played_by(user)
    )


def viewer_seat_index(game: Game, user: Any) -> int | None:
    seat = playing_seat(game, user)
    return None if seat is None else seat.index


def seat_names(game: Game) -> list[str]:
    return [s.name for s in game.seats.all()]


def history_names(game: Game) -> list[str]:
    """The names the history tells moves with: a seat's player, never "(bot)" (the moves
    before a handover were theirs; which later ones the bot made, the reveal tells)."""
    return [s.player_name for s in game.seats.all()]


def game_payload(game: Game, user: Any) -> dict[str, Any]:
    """The API body (and the page's data): the caller's view, moves and whom the game waits on."""
    seat = viewer_seat_index(game, user)
    body: dict[str, Any] = {
        "id": game.pk,
        "game": game.engine,
        "status": game.status,
        "version": game.version_for(seat),
        "revision": game.revision_for(seat),
        "seat": seat,
        "players": seat_names(game),
        "view": None,
        "legal_actions": [],
        "waiting_for": None,
        "deadline": game.deadline_at.isoformat() if game.deadline_at else None,
        "result": game.result,
    }
    if game.state is None:
        return body
    engine = registry.get(game.engine, game.rules_version)
    body["view"] = engine.view(game.state, seat)
    body["waiting_for"] = engine.waiting_for(game.state).to_public_dict()
    if seat is not None and game.status == Game.Status.ACTIVE:
        own = next(s for s in game.seats.all() if s.index == seat)
        if not own.is_bot:
            body["legal_actions"] = engine.legal_actions(game.state, seat)
    return body


EVENTS_PAGE = 100
EVENTS_PAGE_MAX = 500


def events_page(
    game: Game, user: Any, after: int = 0, limit: int = EVENTS_PAGE
) -> tuple[list[dict[str, Any]], int | None]:
    """One page of the log after ``after`` and the cursor of the next page (``after=`` that),
    or None at the end. Rows are numbered as ``events_for`` numbers them."""
    limit = max(1, min(limit, EVENTS_PAGE_MAX))
    numbered = _numbered_rows(game, user, after, limit + 1)
    more = len(numbered) > limit
    numbered = numbered[:limit]
    return _entries(game, user, numbered), (numbered[-1][0] if more else None)


def _numbered_rows(
    game: Game, user: Any, after: int, limit: int | None = None, last: int | None = None
) -> list[tuple[int, Event]]:
    """The rows after ``after`` with the number this viewer knows them by. Once the game is
    over that is the log's own seq; while it runs, rows are numbered per seat — the n-th row
    this seat can see — so a secret answer by another seat leaves no gap in its numbers."""
    if game.is_over:
        query = Event.objects.filter(game=game, seq__gt=after)
        if last:
            return [(r.seq, r) for r in reversed(query.order_by("-seq")[:last])]
        rows = query.order_by("seq")
        return [(r.seq, r) for r in (rows[:limit] if limit else rows)]
    seat = viewer_seat_index(game, user)
    seen = [
        row
        for row in Event.objects.filter(game=game).order_by("seq")
        if row.audience is None or seat in row.audience
    ]
    numbered = [(n, row) for n, row in enumerate(seen, 1) if n > after]
    if last:
        return numbered[-last:]
    return numbered[:limit] if limit else numbered


def events_for(
    game: Game, user: Any, after: int = 0, last: int | None = None, at: bool = False
) -> list[dict[str, Any]]:
    """The log as the caller's seat may see it; everything once the game is over.
    ``last``: only the newest rows (the table page). ``at``: each entry also holds its exact
    time, for the page to place the table's other entries among the moves (never sent)."""
    numbered = _numbered_rows(game, user, after, last=last)
    entries = _entries(game, user, numbered, secrets=True)
    if at:
        for entry, (_number, row) in zip(entries, numbered, strict=True):
            entry["at"] = row.created_at
    return entries


def _entries(
    game: Game, user: Any, numbered: list[tuple[int, Event]], secrets: bool = False
) -> list[dict[str, Any]]:
    seat = viewer_seat_index(game, user)
    reveal = game.is_over
    rows = []
    for number, row in numbered:
        visible = []
        for raw in row.events:
            event = EngineEvent.from_dict(raw)
            if reveal or event.visible_to(seat):
                shown: dict[str, object] = {"kind": event.kind, "data": dict(event.data)}
                if secrets:  # the page's lock: the engine addressed it to some seats only
                    shown["secret"] = event.to is not None
                visible.append(shown)
        # Who acted is not shown: a cheat or a secret answer must stay anonymous. The engine's
        # events say publicly whatever the rules make public.
        entry: dict[str, Any] = {
            "seq": number,
            # to the second: finer times would tell apart moves made in one change
            "created": row.created_at.replace(microsecond=0).isoformat(),
            "events": visible,
        }
        if row.reason == Event.Reason.TIMEOUT and row.seat is not None:
            # the bot's move for a turn whose time ran out: whose turn it was, and that its
            # deadline passed, everyone saw (a window's timeout is the engine's own event)
            entry["timed_out"] = row.seat
        if reveal:
            entry.update(
                seat=row.seat, reason=row.reason, action=row.action
            )  # every bluff, at the end
        rows.append(entry)
    return rows


# My games: every list is one bounded query. They all start from the player's seats
# (index seat_user_game: user, game) and reach each game by its key; "finished" walks that
# index backwards (newest game first) and stops at a page, so a player with thousands of
# games costs what a page costs.
MY_GAMES_OPEN_LIMIT = 100  # games waiting on me / on others / gathering players, each
MY_GAMES_FINISHED_PAGE = 20
LIST_FIELDS = (
    "id",
    "engine",
    "status",
    "deadline_at",
    "created_at",
    "wait_mask",
    # a table gathering players shows its pace and seats (lobby_details)
    "pace",
    "move_seconds",
    "seats_count",
    "start_when_full",
    "created_by",  # a full table's row says who is to start it
)


@dataclass
class MyGames:
    mine: list[Game]
    others: list[Game]
    lobby: list[Game]
    finished: list[Game]
    older: int | None  # the next page of finished games: ?before=<this id>


def my_games(user: Any, before: int | None = None, also: list[Game] | None = None) -> MyGames:
    """``also``: more tables (the ones the player is invited to) whose seats the same query
    reads, for lobby_details."""
    own = Game.objects.filter(seats__user=user).only(*LIST_FIELDS)
    # One query for the open games (in play or gathering players: a player has few), split
    # below; seat i of mine is waited on when bit i of wait_mask is set (Game.wait_mask), and
    # it waits on me unless the bot plays it (a window's answer it holds for its moment)
    # django-stubs take only an int: an expression works as well (Combinable._combine)
    waited = F("wait_mask").bitand(Value(1).bitleftshift(F("seats__index")))  # type: ignore[arg-type]
    open_games: list[Game] = list(
        own.filter(status__in=[Game.Status.ACTIVE, Game.Status.LOBBY])
        .annotate(waited=waited, bot_plays=F("seats__is_bot"), my_ready=F("seats__ready_at"))
        .order_by("-id")[: 3 * MY_GAMES_OPEN_LIMIT]
    )
    for game in open_games:
        game.waited = game.waited and not game.bot_plays  # type: ignore[attr-defined]
    active = [g for g in open_games if g.status == Game.Status.ACTIVE]
    mine = [g for g in active if g.waited][:MY_GAMES_OPEN_LIMIT]  # type: ignore[attr-defined]
    # the most urgent first (no deadline: last), newest first among equals
    mine.sort(key=lambda g: (g.deadline_at is None, g.deadline_at or 0, -g.pk))
    others = [g for g in active if not g.waited][:MY_GAMES_OPEN_LIMIT]  # type: ignore[attr-defined]
    lobby = [g for g in open_games if g.status == Game.Status.LOBBY][:MY_GAMES_OPEN_LIMIT]
    over = (
        # who won: public once it is over; a table never started was cancelled, not aborted
        own.only(*LIST_FIELDS, "result", "started_at")
        .filter(status__in=[Game.Status.FINISHED, Game.Status.ABORTED])
        .annotate(my_seat=F("seats__index"))
    )
    if before is not None:
        over = over.filter(id__lt=before)
    finished: list[Game] = list(over.order_by("-id")[: MY_GAMES_FINISHED_PAGE + 1])
    older = None
    if len(finished) > MY_GAMES_FINISHED_PAGE:
        finished = finished[:MY_GAMES_FINISHED_PAGE]
        older = finished[-1].pk
    games = [*mine, *others, *lobby, *finished, *(also or [])]
    rows = _seat_rows([g.pk for g in games])
    for game in games:
        game.seat_rows = rows.get(game.pk, [])  # type: ignore[attr-defined]
        game.player_names = _names(game.seat_rows)  # type: ignore[attr-defined]
    for game in finished:
        game.outcome = _outcome(game)  # type: ignore[attr-defined]
    return MyGames(mine, others, lobby, finished, older)


def winner_seats(game: Game) -> list[int]:
    """Who won a finished game (public once it is over); none for any other."""
    if game.status != Game.Status.FINISHED:
        return []
    return (game.result or {}).get("winners") or []


def winner_names(game: Game) -> list[str]:
    """The winners' names, from the seat rows ``my_games`` read (no query)."""
    winners = winner_seats(game)
    return [Seat.label(*row) for row in game.seat_rows if row[0] in winners]  # type: ignore[attr-defined]


def _outcome(game: Game) -> str:
    """A finished game's line for one of its players, as its result notice says it ("You
    won", "Bob won"); empty for an aborted game or one without winners."""
    winners = winner_seats(game)
    if not winners:
        return ""
    if game.my_seat in winners:  # type: ignore[attr-defined]
        return _("You won")
    return _("%(winners)s won") % {"winners": join(winner_names(game))}


def _names(rows: list[tuple[int, bool, str | None]]) -> str:
    """A table's players in a list line ("alice, Bot 2, dave") from its ``_seat_rows``."""
    return comma().join(Seat.label(*row) for row in rows)


def _seat_rows(game_ids: list[int]) -> dict[int, list[tuple[int, bool, str | None]]]:
    """Per game, its seats as (index, is_bot, player name or None), in one query."""
    rows: dict[int, list[tuple[int, bool, str | None]]] = {}
    for game_id, index, is_bot, display_name, username in (
        Seat.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "index")
        .values_list("game_id", "index", "is_bot", "user__display_name", "user__username")
    ):
        player = (display_name or username) if username is not None else None
        rows.setdefault(game_id, []).append((index, is_bot, player))
    return rows


def invitations_for(user: Any) -> QuerySet[Invitation]:
    """Pending invitations to tables in the lobby, but none across a block (see invited_to),
    either way, with the inviter or anyone seated: the list shows what the table page would
    open."""
    seated = Seat.objects.filter(game=OuterRef(OuterRef("game")), user__isnull=False).values("user")
    return (
        Invitation.objects.filter(
            to_user=user, status=Invitation.Status.PENDING, game__status=Game.Status.LOBBY
        )
        .exclude(Exists(blocks_between(user, OuterRef("from_user"))))
        .exclude(Exists(blocks_with_any(user, seated)))
        .select_related("game", "from_user")
        .defer("game__state", "game__result", "game__options")
    )


def pace_text(game: Game) -> str:
    """A table's pace as a player reads it: the preset's name, or a custom time per move."""
    if game.pace != Pace.CUSTOM:
        return str(game.get_pace_display())
    if game.move_seconds < 60:  # timeuntil counts whole minutes: "0 minutes a move"
        every = ngettext("%(n)d second", "%(n)d seconds", game.move_seconds) % {
            "n": game.move_seconds
        }
    else:
        now = timezone.now()
        every = timeuntil(now + timedelta(seconds=game.move_seconds), now)
    return _("Custom: %(time)s a move") % {"time": every}


def lobby_details(games: list[Game]) -> None:
    """For tables gathering players (in My games, in invitations): the pace, the seats taken
    of all, the bots, the players and everyone invited with their answer. One query for any
    number of tables (two for tables whose seats my_games did not read). Only names and
    answers: nothing about any game in play."""
    if not games:
        return
    ids = [g.pk for g in games]
    unread = [g.pk for g in games if not hasattr(g, "seat_rows")]
    seats = _seat_rows(unread) if unread else {}
    invitees: dict[int, list[dict[str, str]]] = {}
    for game_id, display_name, username, status in (
        Invitation.objects.filter(game_id__in=ids)
        .exclude(status=Invitation.Status.CANCELLED)
        .order_by("game_id", "created_at", "pk")
        .values_list("game_id", "to_user__display_name", "to_user__username", "status")
    ):
        invitees.setdefault(game_id, []).append(
            {
                "name": display_name or username,
                "status": status,
                "label": str(Invitation.Status(status).label),
            }
        )
    for game in games:
        rows = getattr(game, "seat_rows", None)
        if rows is None:
            rows = seats.get(game.pk, [])
        game.seats_taken = len(rows)  # type: ignore[attr-defined]
        game.bot_seats = sum(1 for _index, is_bot, _name in rows if is_bot)  # type: ignore[attr-defined]
        game.player_names = _names(rows)  # type: ignore[attr-defined]
        game.invitees = invitees.get(game.pk, [])  # type: ignore[attr-defined]
        game.pace_text = pace_text(game)  # type: ignore[attr-defined]


def has_friends(user: Any) -> bool:
    return friends_of(user).exists()


def invitable_friends(game: Game, user: Any) -> list[Any]:
    """The creator's friends who could still be invited: not seated, no open invitation."""
    return list(
        friends_of(user)
        .exclude(pk__in=Seat.objects.filter(game=game, user__isnull=False).values("user_id"))
        .exclude(
            pk__in=Invitation.objects.filter(game=game, status=Invitation.Status.PENDING).values(
                "to_user_id"
            )
        )
        .order_by("username")
    )


def waits_current(waits: Collection[tuple[int, int, int]]) -> set[tuple[int, int, int]]:
    """Of these (game id, wait number, player id), the notices' waits that still stand (for a
    delayed email, a digest): the wait is the game's current one and still waits on the
    player's seat (they have not answered), which the bot does not play (it took the seat, or
    they left, since the notice). Two queries however many: a digest asked two per notice."""
    if not waits:
        return set()
    games = {
        pk: (wait_seq, mask)
        for pk, wait_seq, mask in Game.objects.filter(
            pk__in={game_id for game_id, _seq, _user in waits}, status=Game.Status.ACTIVE
        )
        # a wait past its deadline is over, even before the sweep has closed it (an email
        # of a one-minute turn left as the bot was about to play it)
        .filter(Q(deadline_at__isnull=True) | Q(deadline_at__gt=timezone.now()))
        .values_list("pk", "wait_seq", "wait_mask")
    }
    if not games:
        return set()
    seats = {
        (game_id, user_id): index
        for game_id, user_id, index in Seat.objects.filter(
            game_id__in=games, user_id__in={user for _game, _seq, user in waits}, is_bot=False
        ).values_list("game_id", "user_id", "index")
    }
    standing = set()
    for game_id, wait_seq, user_id in waits:
        current, mask = games.get(game_id, (None, 0))
        index = seats.get((game_id, user_id))
        if current == wait_seq and index is not None and mask >> index & 1:
            standing.add((game_id, wait_seq, user_id))
    return standing


def wait_deadlines(game_ids: Collection[int]) -> dict[int, Any]:
    """When each game's current wait is due (absent: no wait, the game is over): how long a
    push about it may live, what a digest says. One query for them all."""
    if not game_ids:
        return {}
    return dict(
        Game.objects.filter(pk__in=set(game_ids), status=Game.Status.ACTIVE).values_list(
            "pk", "deadline_at"
        )
    )


NUDGE_UNTIMED_TURN = timedelta(hours=3)  # a turn with no deadline: a third of this first
NUDGE_SOONEST = timedelta(seconds=20)


def nudge_too_early(game: Game) -> bool:
    """Whether the player on turn is not to be nudged yet: before a third of their time (a
    nudge at a daily turn's first minute, which emails them, is a nag, not a reminder)."""
    opened = game.wait_opened_at
    if opened is None:
        return False
    span = game.deadline_at - opened if game.deadline_at else NUDGE_UNTIMED_TURN
    return timezone.now() < opened + max(span / 3, NUDGE_SOONEST)


def nudge_target(game: Game, viewer_seat: int | None) -> Seat | None:
    """The human whose turn it is, if the viewer is another player (turns only: in a secret
    window, who has not answered is not to be shown) and their turn is old enough. A player
    they blocked is offered no nudge, as before a third of a turn: never told of the block."""
    if viewer_seat is None or game.status != Game.Status.ACTIVE or game.state is None:
        return None
    if game.wait_kind != "turn" or game.wait_seat is None or game.wait_seat == viewer_seat:
        return None
    if nudge_too_early(game):
        return None
    seat = next((s for s in game.seats.all() if s.index == game.wait_seat), None)
    if seat is None or seat.is_bot or seat.user is None or seat.nudged_for_wait == game.wait_seq:
        return None
    viewer = next((s for s in game.seats.all() if s.index == viewer_seat), None)
    if viewer is not None and viewer.user is not None and has_blocked(seat.user, viewer.user):
        return None
    return seat


def rematch_for(game: Game, user: Any) -> Game | None:
    """The finished table's rematch that ``user`` may open (the first one not cancelled), or
    None: then "Play again" makes one. A rematch a block kept them out of is not theirs to
    know of, and a cancelled one is no rematch."""
    candidates = (
        Game.objects.filter(rematch_of=game)
        .exclude(status=Game.Status.ABORTED)
        .order_by("id")
        .values_list("pk", flat=True)
    )
    for rematch_id in candidates:
        rematch = game_with_seats(rematch_id)
        if rematch is not None and can_view(rematch, user):
            return rematch
    return None


def records_of(user: Any) -> list[Any]:
    """The player's record at each game they finished a table of, best rating first."""
    from games.catalog.registry import title
    from games.models import PlayerRecord

    records = list(PlayerRecord.objects.filter(user=user))
    for record in records:
        record.game_name = str(title(record.engine))  # type: ignore[attr-defined]  # for the page
    return sorted(records, key=lambda r: -r.ordinal)


def finished_games_of(user: Any, limit: int, viewer: Any) -> QuerySet[Game]:
    """``user``'s last finished tables that ``viewer`` (``user`` or a friend) may open."""
    games = Game.objects.filter(seats__user=user, status=Game.Status.FINISHED)
    return _openable(games, user, viewer).defer("state", "result").order_by("-finished_at")[:limit]


def playing_now(user: Any, viewer: Any, limit: int = 10) -> list[Game]:
    """``user``'s tables under way that ``viewer`` may watch (or plays at), with their
    players' names: a friend's page leads to them, as "friends of players may watch" allows."""
    games = Game.objects.filter(seats__user=user, status=Game.Status.ACTIVE)
    shown = list(
        _openable(games, user, viewer).defer("state", "result").order_by("-started_at")[:limit]
    )
    rows = _seat_rows([g.pk for g in shown])
    for game in shown:
        game.player_names = _names(rows.get(game.pk, []))  # type: ignore[attr-defined]
    return shown


def _openable(games: QuerySet[Game], user: Any, viewer: Any) -> QuerySet[Game]:
    """Of ``user``'s started tables, those ``viewer`` (``user`` or a friend: ``can_view``'s
    friendship holds) may open: seated there, or watching allowed and no block with anyone
    seated. Another would be a dead link, and would tell of a table kept from the viewer."""
    if viewer.pk == user.pk:
        return games
    # two levels out: the seats of the game the block's subquery is tested for
    seated = Seat.objects.filter(game=OuterRef(OuterRef("pk")), user__isnull=False).values(
        "user_id"
    )
    return games.filter(
        Exists(Seat.objects.filter(game=OuterRef("pk"), user=viewer))
        | (Q(allow_spectators=True) & ~Exists(blocks_with_any(viewer, seated)))
    )


def records_for(user_ids: list[int]) -> list[Any]:
    """One line per player: their finished and abandoned tables over all games (reliability)."""
    from django.db.models import Sum

    from games.models import PlayerRecord

    rows = (
        PlayerRecord.objects.filter(user_id__in=user_ids)
        .values("user_id")
        .annotate(played=Sum("played"), abandoned=Sum("abandoned"))
    )
    return [_Reliability(**row) for row in rows]


class _Reliability:
    def __init__(self, user_id: int, played: int, abandoned: int) -> None:
        self.user_id, self.played, self.abandoned = user_id, played, abandoned

    @property
    def percent(self) -> int | None:
        total = self.played + self.abandoned
        return None if total == 0 else round(100 * self.played / total)


@functools.cache  # the same string for the process's life: built once
def _listed_seats_sql() -> str:
    seat, game = Seat._meta.db_table, Game._meta.db_table
    is_open = "g.status IN (%s, %s)"
    return (
        "SELECT game_id, seat_index, is_bot, bot_reason, user_id, status, revision, marks FROM ("
        f' SELECT s.game_id, s."index" AS seat_index, s.is_bot, s.bot_reason, s.user_id,'
        " g.status, g.revision, g.seat_revisions AS marks,"
        f" ROW_NUMBER() OVER (PARTITION BY {is_open} ORDER BY s.game_id DESC) AS newest,"
        f" CASE WHEN {is_open} THEN CAST(%s AS INTEGER) ELSE CAST(%s AS INTEGER) END AS shown"
        f" FROM {seat} s JOIN {game} g ON g.id = s.game_id WHERE s.user_id = %s"
        ") listed WHERE newest <= shown ORDER BY game_id"
    )


def lists_stamp(user: Any, invitations: list[Invitation] | None = None) -> str:
    """A fingerprint of what the My games page shows this player: the tables its lists hold
    (the newest open ones, the first page of finished ones) with the revision their own seat
    observes, and their open invitations (``invitations``: as the page read them already).
    It changes when that page would; it carries no game content (a hash of the player's own
    observations). A seat the bot plays for good is watched, not played: its player observes
    what a spectator does, or the stamp would count the secret answers the bot gives from
    their old hand."""
    # The page's tables only, and their columns only: every seat of a player's 500 tables,
    # with each game's state, took ~78 ms of the page (and of each new stamp on their socket).
    # Each list's newest rows, numbered in one statement (index seat_user_game), prepared once
    # a connection: the ORM spent longer building it than the database running it.
    open_statuses = [str(status) for status in OPEN_STATUSES]
    limits = [3 * MY_GAMES_OPEN_LIMIT, MY_GAMES_FINISHED_PAGE + 1]
    params = [*open_statuses, *open_statuses, *limits, user.pk]
    ((rows, _count),) = run_together([(_listed_seats_sql(), params)])
    parts = []
    for game_id, index, is_bot, reason, user_id, status, revision, marks in rows or []:
        observed = None if bot_plays_for_good(is_bot, user_id, reason) else index
        marks = json_loads(marks) if isinstance(marks, str) else marks
        seen = seat_mark(marks, observed, revision, status in OVER_STATUSES)
        parts.append(f"g{game_id}:{status}:{seen}:{int(bool(is_bot))}")
    # an invitation's row shows who else joined or answered: the table's revision says when
    invited = (
        [(inv.pk, inv.game.revision) for inv in invitations]
        if invitations is not None
        else invitations_for(user).values_list("pk", "game__revision")
    )
    # sorted: the page's list and the socket's query need not come in the same order
    parts += sorted(f"i{pk}:{revision}" for pk, revision in invited)
    return hashlib.sha1("|".join(parts).encode()).hexdigest()[:16]


def present_seats(game: Game) -> list[int]:
    """The seats whose player is at the table now (heartbeat presence; public)."""
    people = {s.user_id: s.index for s in game.seats.all() if s.user_id and not s.is_bot}
    return sorted(people[uid] for uid in present_users(game.pk, list(people)))
