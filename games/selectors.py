"""Read-only queries: who may see a game, and what exactly each viewer is shown."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import QuerySet

from accounts.notifications import present_users
from accounts.selectors import any_block_between, friends_of
from games.engines import registry
from games.engines.core import Event as EngineEvent
from games.models import Event, Game, Invitation, Seat


def seat_of(game: Game, user: Any) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


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
        if game.invitations.filter(to_user=user).exists():
            return True
        return open_to(game, user)
    if not game.allow_spectators:
        return False
    return friends_of(user).filter(pk__in=players).exists() and not any_block_between(user, players)


def open_to(game: Game, user: Any) -> bool:
    """Whether a table in the lobby is open to ``user`` by its join policy (invitations aside):
    the creator's friends, their friends too, or anyone signed in — and never across a block,
    either way, with anyone seated or with the creator."""
    policy = game.join_policy
    if policy == Game.JoinPolicy.INVITED:
        return False
    others = {s.user_id for s in game.seats.all() if s.user_id} | {game.created_by_id}
    if any_block_between(user, list(others)):
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
            game.free_seats = free
            tables.append(game)
    return tables[:limit]


def viewer_seat_index(game: Game, user: Any) -> int | None:
    seat = seat_of(game, user)
    return None if seat is None else seat.index


def seat_names(game: Game) -> list[str]:
    return [s.name for s in game.seats.all()]


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


def events_for(
    game: Game, user: Any, after: int = 0, last: int | None = None
) -> list[dict[str, Any]]:
    """The log as the caller's seat may see it; everything once the game is over.

    While the game runs, rows are numbered per seat: ``seq`` counts the rows this seat can
    see (and ``after`` takes that number), so a secret answer by another seat leaves no gap in
    anyone else's numbers. ``last``: only the newest rows (the table page)."""
    seat = viewer_seat_index(game, user)
    reveal = game.is_over
    rows = []
    if reveal:
        query = Event.objects.filter(game=game, seq__gt=after)
        selected = reversed(query.order_by("-seq")[:last]) if last else query.order_by("seq")
        numbered = [(row.seq, row) for row in selected]
    else:
        seen = [
            row
            for row in Event.objects.filter(game=game).order_by("seq")
            if row.audience is None or seat in row.audience
        ]
        numbered = [(n, row) for n, row in enumerate(seen, 1) if n > after]
        if last:
            numbered = numbered[-last:]
    for number, row in numbered:
        visible = []
        for raw in row.events:
            event = EngineEvent.from_dict(raw)
            if reveal or event.visible_to(seat):
                visible.append({"kind": event.kind, "data": dict(event.data)})
        # Who acted is not shown: a cheat or a secret answer must stay anonymous. The engine's
        # events say publicly whatever the rules make public.
        entry: dict[str, Any] = {
            "seq": number,
            # to the second: finer times would tell apart moves made in one change
            "created": row.created_at.replace(microsecond=0).isoformat(),
            "events": visible,
        }
        if reveal:
            entry.update(
                seat=row.seat, reason=row.reason, action=row.action
            )  # every bluff, at the end
        rows.append(entry)
    return rows


def games_for_user(user: Any) -> QuerySet[Game]:
    return (
        Game.objects.filter(seats__user=user)
        .distinct()
        .select_related("created_by")
        .prefetch_related("seats__user")
        .order_by("-created_at")
    )


def invitations_for(user: Any) -> QuerySet[Invitation]:
    return Invitation.objects.filter(
        to_user=user, status=Invitation.Status.PENDING, game__status=Game.Status.LOBBY
    ).select_related("game", "from_user")


def waiting_on(game: Game, seat: int | None) -> bool:
    if game.state is None or seat is None or game.status != Game.Status.ACTIVE:
        return False
    engine = registry.get(game.engine, game.rules_version)
    return seat in engine.waiting_for(game.state).seats and bool(
        engine.legal_actions(game.state, seat)
    )


def wait_is_current(game_id: int, wait_seq: int) -> bool:
    """Whether a notice about this wait still stands (for the delayed email)."""
    return Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE, wait_seq=wait_seq).exists()


def nudge_target(game: Game, viewer_seat: int | None) -> Seat | None:
    """The human whose turn it is, if the viewer is another player (turns only: in a secret
    window, who has not answered is not to be shown)."""
    if viewer_seat is None or game.status != Game.Status.ACTIVE or game.state is None:
        return None
    if game.wait_kind != "turn" or game.wait_seat is None or game.wait_seat == viewer_seat:
        return None
    seat = next((s for s in game.seats.all() if s.index == game.wait_seat), None)
    if seat is None or seat.is_bot or seat.user is None or seat.nudged_for_wait == game.wait_seq:
        return None
    return seat


def records_of(user: Any) -> list[Any]:
    """The player's record at each game they finished a table of, best rating first."""
    from games.engines.registry import ENGINES
    from games.models import PlayerRecord

    records = list(PlayerRecord.objects.filter(user=user))
    for record in records:
        record.game_name = (
            ENGINES[record.engine].name if record.engine in ENGINES else record.engine
        )
    return sorted(records, key=lambda r: -r.ordinal)


def finished_games_of(user: Any, limit: int) -> QuerySet[Game]:
    return (
        Game.objects.filter(seats__user=user, status=Game.Status.FINISHED)
        .order_by("-finished_at")
        .prefetch_related("seats__user")[:limit]
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


def lists_stamp(user: Any) -> str:
    """A fingerprint of what the My games page shows this player: their tables with the
    revision their own seat observes, and their open invitations. It changes exactly when
    that page would; it carries no game content (a hash of the player's own observations)."""
    seats = Seat.objects.filter(user=user).select_related("game").order_by("game_id")
    parts = [
        f"g{s.game_id}:{s.game.status}:{s.game.revision_for(s.index)}:{int(s.is_bot)}"
        for s in seats
    ]
    parts += [f"i{pk}" for pk in invitations_for(user).values_list("pk", flat=True)]
    return hashlib.sha1("|".join(parts).encode()).hexdigest()[:16]


def present_seats(game: Game) -> list[int]:
    """The seats whose player is at the table now (heartbeat presence; public)."""
    people = {s.user_id: s.index for s in game.seats.all() if s.user_id and not s.is_bot}
    return sorted(people[uid] for uid in present_users(game.pk, list(people)))
