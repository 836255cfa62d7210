"""Tables before play: create, invite, answer, join, leave, start, cancel."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from accounts.selectors import are_friends, has_blocked
from config.inputs import echo
from games import broadcast, selectors
from games.catalog.base import comma
from games.catalog.registry import title as game_title
from games.engines import registry
from games.engines.core import IllegalAction
from games.errors import GameError, NotActive, NotAllowed, NotSeated, engine_message
from games.models import PACE_SECONDS, Game, Invitation, Pace, Seat
from games.services import notify
from games.services.change import GameChange

MIN_MOVE_SECONDS = 15
MAX_MOVE_SECONDS = 14 * 86400
# A first game is played with the rules open beside it: the Live pace's minute a move ran
# out while a learner read, and their seat went to the bot before they had played.
LEARN_MOVE_SECONDS, LEARN_WINDOW_SECONDS = 5 * 60, 30


def _unknown(message: str, values: Iterable[str], code: str) -> GameError:
    """A refusal of a value outside a fixed set that names the set (an API client's typo)."""
    choose = _("Choose one of: %(values)s.") % {"values": ", ".join(sorted(values))}
    return GameError(f"{message} {choose}", code)


def resolve_pace(
    pace: str, move_seconds: int | None, window_seconds: int | None
) -> tuple[int, int]:
    if pace not in Pace.values:
        raise _unknown(_("Unknown pace."), Pace.values, "bad_pace")
    if pace == Pace.CUSTOM:
        if not move_seconds:
            raise GameError(_("A custom pace needs the seconds per move."), "bad_pace")
        window = window_seconds or max(MIN_MOVE_SECONDS, min(move_seconds // 4, 3600))
    else:
        move_seconds, window = PACE_SECONDS[pace]
        window = window_seconds or window
    if not MIN_MOVE_SECONDS <= move_seconds <= MAX_MOVE_SECONDS or not 5 <= window <= move_seconds:
        raise GameError(
            _(
                "Seconds per move must be between 15 seconds and 14 days, "
                "and a reaction window between 5 seconds and one move."
            ),
            "bad_pace",
        )
    return move_seconds, window


def _free_index(game: Game) -> int | None:
    taken = set(game.seats.values_list("index", flat=True))
    free = [i for i in range(game.seats_count) if i not in taken]
    return free[0] if free else None


# Each invitation is a notice and an email: a table made and cancelled again and again sent
# one friend a mail a second (a web attacker's review). Only tables that never started count:
# six quick games in an hour with the same friends are play, not pestering. A soft limit:
# counted, then written, without a lock (posts sent at once may pass it by their number).
INVITATIONS_PER_HOUR = 40
INVITATIONS_PER_HOUR_TO_ONE = 5
# Tables a player made that still wait for players: a script's hundreds of open tables (within
# the API's limits) were the whole Open tables list every other player read until they expired
MAX_UNSTARTED_TABLES = 10
# Tables in play against bots only (Learn tables, a table started with its seats all given to
# bots): each starts at once and its bots play on the workers, so a script started hundreds.
# Tables with another player are not counted.
MAX_BOT_TABLES_IN_PLAY = 5


def _limit_invitations(creator: User, invitee: User) -> None:
    sent = Invitation.objects.filter(
        from_user=creator,
        created_at__gte=timezone.now() - timedelta(hours=1),
        game__started_at__isnull=True,
    )
    if sent.filter(to_user=invitee).count() >= INVITATIONS_PER_HOUR_TO_ONE:
        raise GameError(
            _(
                "You have invited %(name)s to several tables in the last hour. Wait a while "
                "before inviting them again."
            )
            % {"name": invitee.name},
            "invitation_limit",
        )
    if sent.count() >= INVITATIONS_PER_HOUR:
        raise GameError(
            _(
                "You have sent many invitations in the last hour. Wait a while before "
                "inviting more players."
            ),
            "invitation_limit",
        )


def _invite(
    creator: User,
    game: Game,
    usernames: list[str],
    seated: frozenset[int] = frozenset(),
    mates: frozenset[int] = frozenset(),
) -> list[Invitation]:
    """Invite ``usernames`` (friends of the creator, or ``mates``: players who shared the
    table a rematch replays)."""
    made = []
    for username in usernames:
        invitee = User.objects.filter(username__iexact=username.strip()).first()
        if invitee is not None and not invitee.is_active and invitee.pk in mates:
            continue  # banned or gone since the table ended: a rematch goes on without them
        if invitee is None or not invitee.is_active or invitee.pk == creator.pk:
            raise GameError(
                _("%(name)s is not a player you can invite.") % {"name": echo(username)},
                "bad_invitee",
            )
        if invitee.pk in seated:
            raise GameError(
                _("%(name)s already has a seat at this table.") % {"name": invitee.name},
                "already_seated",
            )
        if invitee.pk not in mates and not are_friends(creator, invitee):
            raise GameError(
                _("You can only invite friends; %(name)s is not on your list.")
                % {"name": username},
                "not_friends",
            )
        if has_blocked(creator, invitee):
            continue  # a blocked player is not told: the invitation simply never arrives
        # A rematch invites everyone who shared the table: a name missing from its list would
        # tell the creator of a block. That invitation is made and, like one a block withdrew
        # (selectors.invited_to), never reaches its invitee.
        unheard = has_blocked(invitee, creator)
        if unheard and invitee.pk not in mates:
            continue
        _limit_invitations(creator, invitee)
        invitation, created = Invitation.objects.get_or_create(
            game=game, to_user=invitee, defaults={"from_user": creator}
        )
        if not created and invitation.status != Invitation.Status.PENDING:
            invitation.status = Invitation.Status.PENDING
            invitation.answered_at = None
            invitation.save(update_fields=["status", "answered_at"])
            created = True
        if unheard:
            continue  # no notice, and no ping of the invitee's lists
        if created:
            notify.invited(game, invitee, creator)
        made.append(invitation)
    return made


@transaction.atomic
def game_create(
    creator: User,
    *,
    engine: str,
    seats: int,
    pace: str = Pace.DAILY,
    move_seconds: int | None = None,
    window_seconds: int | None = None,
    bots: int = 0,
    invite: list[str] | None = None,
    join_policy: str = Game.JoinPolicy.INVITED,
    allow_spectators: bool = True,
    spectator_chat: str = Game.SpectatorChat.READ,
    start_when_full: bool = False,
    options: dict[str, Any] | None = None,
    mates: frozenset[int] = frozenset(),
    rematch_of: Game | None = None,
) -> Game:
    # the creator's seat, as a join's (see game_join), and the invitees' rows with it
    _lock_active_player(creator, [name for name in (invite or []) if name.strip()])
    # counted under the creator's lock: two tables sent at once cannot both be the last
    waiting = Game.objects.filter(created_by=creator, status=Game.Status.LOBBY).count()
    if waiting >= MAX_UNSTARTED_TABLES:
        raise GameError(
            ngettext(
                "You already have %(count)d table waiting for players: start or cancel it first.",
                "You already have %(count)d tables waiting for players: start or cancel one first.",
                MAX_UNSTARTED_TABLES,
            )
            % {"count": MAX_UNSTARTED_TABLES},
            "too_many_unstarted_tables",
        )
    if engine not in registry.ENGINES:
        raise _unknown(_("Unknown game."), registry.ENGINES, "bad_game")
    rules = registry.get(engine)
    if not isinstance(seats, int) or not rules.min_players <= seats <= rules.max_players:
        raise GameError(
            ngettext(
                "%(game)s is for %(low)d to %(high)d player.",
                "%(game)s is for %(low)d to %(high)d players.",
                rules.max_players,
            )
            % {"game": game_title(engine), "low": rules.min_players, "high": rules.max_players},
            "bad_seats",
        )
    if not isinstance(bots, int) or not 0 <= bots <= seats - 1:
        raise GameError(_("Bots can fill at most every seat but yours."), "bad_bots")
    if join_policy not in Game.JoinPolicy.values:
        raise _unknown(_("Unknown join policy."), Game.JoinPolicy.values, "bad_join_policy")
    if spectator_chat not in Game.SpectatorChat.values:
        raise _unknown(
            _("Unknown choice for the spectators' talk."),
            Game.SpectatorChat.values,
            "bad_spectator_chat",
        )
    invite = [name for name in (invite or []) if name.strip()]
    if len(invite) > seats - 1 - bots:
        raise GameError(_("More invitations than free seats."), "too_many_invitations")
    move, window = resolve_pace(pace, move_seconds, window_seconds)
    try:
        rules.setup(seats, options or {}, 0)  # a dry run: bad options fail now, not at the start
    except IllegalAction as exc:
        raise GameError(engine_message(exc), exc.code) from None
    game = Game.objects.create(
        engine=engine,
        rules_version=rules.rules_version,
        options=options or {},
        seats_count=seats,
        pace=pace,
        move_seconds=move,
        window_seconds=window,
        join_policy=join_policy,
        allow_spectators=allow_spectators,
        spectator_chat=spectator_chat,
        start_when_full=start_when_full and pace != Pace.LIVE,
        seed=0,
        created_by=creator,
        # set before the invitations: their notices say it is a rematch (the finished table
        # is locked already, by the rematch's GameChange)
        rematch_of=rematch_of,
    )
    Seat.objects.create(game=game, index=0, user=creator)
    for index in range(1, bots + 1):
        Seat.objects.create(game=game, index=index, is_bot=True, bot_reason="filled")
    invited = [i.to_user_id for i in _invite(creator, game, invite, mates=mates)]
    # Not a GameChange (the row is new): the invitees' lists learn of it here, after commit.
    transaction.on_commit(lambda: broadcast.notify_users_changed([creator.pk, *invited]))
    if game.start_when_full and bots == seats - 1:
        # every seat taken from the start (the creator and bots): nobody is left to join
        return game_start(creator, game.pk)
    return game


def _lobby(change: GameChange) -> Game:
    if change.game.status != Game.Status.LOBBY:
        raise NotActive(_("This table has already started or was cancelled."))
    return change.game


@transaction.atomic
def game_invite(creator: User, game_id: int, usernames: list[str]) -> list[Invitation]:
    """The creator invites more friends before the start (an invitation already open is not
    sent twice; a declined one is sent again)."""
    usernames = [name.strip() for name in usernames if name.strip()]
    if not usernames:
        raise GameError(_("Choose at least one friend to invite."), "no_invitee")
    _lock_invitees(usernames)
    with GameChange(game_id) as change:
        game = _lobby(change)
        if game.created_by_id != creator.pk:
            raise NotAllowed(_("Only the table's creator can invite."))
        free = game.seats_count - len(change.seats)
        if free <= 0:
            raise GameError(_("This table is full."), "table_full")
        pending = {
            name.lower()
            for name in game.invitations.filter(status=Invitation.Status.PENDING).values_list(
                "to_user__username", flat=True
            )
        }
        if len(pending | {name.lower() for name in usernames}) > free:
            raise GameError(_("More invitations than free seats."), "too_many_invitations")
        seated = frozenset(s.user_id for s in change.seats if s.user_id is not None)
        made = _invite(creator, game, usernames, seated)
        change.touch()
    return made


def game_leave(user: User, game_id: int) -> None:
    """A seated player leaves a table before the start: the seat is free again, and their
    invitation is marked declined. The creator does not leave: they cancel the table (which asks
    first), since nobody else could start it."""
    with GameChange(game_id) as change:
        game = _lobby(change)
        seat = change.seat_of(user)
        if seat is None or seat.is_bot:
            raise NotSeated(_("You are not playing at this table."))
        if game.created_by_id == user.pk:
            raise GameError(
                _("You created this table: cancel it instead of leaving."), "creator_leaves"
            )
        seat.delete()
        change.seats.remove(seat)
        game.invitations.filter(to_user=user).update(
            status=Invitation.Status.DECLINED, answered_at=change.now
        )
        notify.invitations_settled(game, [user.pk])
        change.touch()
        # the lobby's pings reach the seated and the invited; one who joined an open table
        # without an invitation is neither any more, and their list must drop the table too
        user_id = user.pk
        change.on_commit(lambda: broadcast.notify_users_changed([user_id]))


def _seat(game: Game, user: User) -> Seat:
    """A free seat for ``user``, who has none here (game_join checked, under the lock)."""
    index = _free_index(game)
    if index is None:
        raise GameError(_("This table is full."), "table_full")
    return Seat.objects.create(game=game, index=index, user=user)


def may_join(game: Game, user: User) -> bool:
    return selectors.invited_to(game, user, pending=True) or selectors.open_to(game, user)


def _lock_active_player(user: User, invitees: Iterable[str] = ()) -> None:
    """The player's row first, as a closing account, a ban and a vacation take it (then the
    tables): a join or a new table sent as the account closes either seats them before the
    closing lists their tables (which then leaves this one), or comes after it and is refused.
    In a transaction, before any table's lock. ``invitees``: see ``_lock_invitees``."""
    players = _lock_players(Q(pk=user.pk) | _named(invitees))
    if not any(player.pk == user.pk and player.is_active for player in players):
        raise NotAllowed(_("Your account is closed or suspended: it cannot take a seat."))


def _lock_invitees(usernames: Iterable[str]) -> None:
    """The invitees' rows, before the table's lock, as a join takes the player's: an
    invitation sent as the invitee closes the account waits for the closing and finds it
    closed. Stored after the closing listed the tables to leave, its notice was one more the
    closing deleted at its end: a closing or ban of the table's creator, cancelling it, marked
    it read and then waited for a table the invitee's closing held (a deadlock)."""
    _lock_players(_named(usernames))


def _named(usernames: Iterable[str]) -> Q:
    """The players named (none when more than any table has seats: refused under the lock)."""
    names = {name.strip().lower() for name in usernames}
    named = Q(pk__in=[])
    if len(names) < max(engine.max_players for engine in registry.ENGINES.values()):
        for name in names:
            named |= Q(username__iexact=name)
    return named


def _lock_players(players: Q) -> list[User]:
    # in id order: two players creating tables that invite each other take them alike
    return list(User.objects.select_for_update(no_key=True).filter(players).order_by("pk"))


@transaction.atomic
def game_join(user: User, game_id: int) -> Seat:
    """A seat for ``user``; the last one starts a table that starts when full."""
    _lock_active_player(user)
    with GameChange(game_id) as change:
        # seated first: a double click is told so, not that it needs an invitation, nor (its
        # first click took the last seat and started the game) that the table has started
        if change.seat_of(user) is not None:
            raise GameError(_("You already have a seat at this table."), "already_seated")
        game = _lobby(change)
        if not may_join(game, user):
            raise NotAllowed(_("You need an invitation to join this table."))
        seat = _seat(game, user)
        game.invitations.filter(to_user=user).update(
            status=Invitation.Status.ACCEPTED, answered_at=timezone.now()
        )
        notify.invitations_settled(game, [user.pk])
        full = _free_index(game) is None
        if full and game.start_when_full:  # never set at Live pace (game_create)
            change.seats = sorted([*change.seats, seat], key=lambda s: s.index)
            _begin_play(change)
            waited = change.waiting.seats if change.waiting else ()
            # a creator whose turn opens the game hears it from that turn's notice alone
            if not any(s.user_id == game.created_by_id and s.index in waited for s in change.seats):
                notify.table_answered(game, user, joined=True, started=True)
        else:
            notify.table_answered(game, user, joined=True, full=full)
        change.touch()
    return seat


def invitation_decline(user: User, game_id: int) -> None:
    with GameChange(game_id) as change:
        game = _lobby(change)
        updated = game.invitations.filter(to_user=user, status=Invitation.Status.PENDING).update(
            status=Invitation.Status.DECLINED, answered_at=timezone.now()
        )
        if not updated:
            raise GameError(_("You have no open invitation to this table."), "no_invitation")
        notify.invitations_settled(game, [user.pk])
        notify.table_answered(game, user, joined=False)
        change.touch()


def seat_ready(user: User, game_id: int, ready: bool = True) -> Seat:
    """A seated player says they are at the table (Live tables start when all are)."""
    with GameChange(game_id) as change:
        game = _lobby(change)
        seat = change.seat_of(user)
        if seat is None:
            raise NotAllowed(_("You are not playing at this table."))
        if game.pace != Pace.LIVE:  # a forged form: only Live tables wait for "ready"
            raise GameError(_("Only Live tables wait for everyone to be ready."), "not_live")
        seat.ready_at = change.now if ready else None
        seat.save(update_fields=["ready_at"])
        change.touch()
    return seat


def not_ready(game: Game, seats: list[Seat]) -> list[Seat]:
    """At a Live table: the seated humans, creator aside, who have not pressed "ready"."""
    if game.pace != Pace.LIVE:
        return []
    return [
        s
        for s in seats
        if s.user_id and not s.is_bot and s.user_id != game.created_by_id and s.ready_at is None
    ]


def _limit_bot_tables(player: User) -> None:
    """Refuses a table against bots only beyond MAX_BOT_TABLES_IN_PLAY of the player's in play
    (one they quit counts until its bots have played it out: they still play it)."""
    others = Seat.objects.filter(game=OuterRef("pk"), user__isnull=False).exclude(user=player)
    in_play = (
        Game.objects.filter(status=Game.Status.ACTIVE, seats__user=player)
        .exclude(Exists(others))
        .count()
    )
    if in_play >= MAX_BOT_TABLES_IN_PLAY:
        raise GameError(
            ngettext(
                "You already have %(count)d table in play against bots only: finish it first.",
                "You already have %(count)d tables in play against bots only: finish one first.",
                MAX_BOT_TABLES_IN_PLAY,
            )
            % {"count": MAX_BOT_TABLES_IN_PLAY},
            "too_many_bot_tables",
        )


@transaction.atomic
def game_start(user: User, game_id: int, fill_with_bots: bool = True, anyway: bool = False) -> Game:
    """Starts the table. At Live pace everyone seated must be ready; ``anyway`` starts without
    the others, whose seats the bot plays until they take them back (bot_reason "absent").
    A table of the creator and bots alone is one of their few (``_limit_bot_tables``)."""
    # the player's row first (as every change of a player, then the table): two starts sent
    # at once cannot both be the last table against bots
    _lock_active_player(user)
    with GameChange(game_id) as change:
        game = _lobby(change)
        if game.created_by_id != user.pk:
            raise NotAllowed(_("Only the table's creator can start the game."))
        missing = game.seats_count - len(change.seats)
        if missing and not fill_with_bots:
            raise GameError(_("The table is not full yet."), "not_full")
        absent = not_ready(game, change.seats)
        if absent and not anyway:
            raise GameError(
                _("Not everyone is ready: %(names)s. Wait for them, or start anyway.")
                % {"names": comma().join(s.name for s in absent)},
                "not_ready",
            )
        if all(s.user_id in (None, user.pk) for s in change.seats):
            _limit_bot_tables(user)  # nobody else seated: bots fill every other seat
        for seat in absent:
            seat.is_bot, seat.bot_reason = True, "absent"
            seat.save(update_fields=["is_bot", "bot_reason"])
        _begin_play(change)
    return game


def _begin_play(change: GameChange) -> None:
    """The table starts (its creator's Start, or its last seat taken): empty seats go to
    bots, the invitations still open end, the deck is dealt."""
    game = change.game
    while (index := _free_index(game)) is not None:
        change.seats.append(
            Seat.objects.create(game=game, index=index, is_bot=True, bot_reason="filled")
        )
    pending = game.invitations.filter(status=Invitation.Status.PENDING)
    notify.invitations_settled(
        game, list(pending.values_list("to_user_id", flat=True)), started=True
    )
    pending.update(status=Invitation.Status.CANCELLED, answered_at=timezone.now())
    game.seed = secrets.randbits(62)
    game.status = Game.Status.ACTIVE
    game.started_at = change.now
    change.begin(change.engine.setup(game.seats_count, game.options, game.seed))
    change.settle_bots()


def game_cancel(user: User, game_id: int) -> None:
    with GameChange(game_id) as change:
        game = _lobby(change)
        if game.created_by_id != user.pk:
            raise NotAllowed(_("Only the table's creator can cancel it."))
        seated, invited = _close_lobby(change)
        notify.table_cancelled(game, user, [u for u in seated if u.pk != user.pk], invited)


def _close_lobby(change: GameChange) -> tuple[list[User], list[User]]:
    """The table ends before its start; returns who sat down and who was still invited (to
    be told)."""
    game = change.game
    seated = [s.user for s in change.seats if s.user is not None]
    invited = selectors.still_invited(game)
    game.invitations.filter(status=Invitation.Status.PENDING).update(
        status=Invitation.Status.CANCELLED
    )
    game.status = Game.Status.ABORTED
    game.finished_at = change.now
    change.touch()
    return seated, invited


def table_expire(game_id: int, created_before: Any, days: int) -> bool:
    """Cancels a table nobody started, if it is still in the lobby and was made before
    ``created_before`` (``days`` ago); everyone at it or invited to it hears why. False:
    nothing to do (it started, or was cancelled, meanwhile)."""
    with GameChange(game_id) as change:
        game = change.game
        if game.status != Game.Status.LOBBY or game.created_at >= created_before:
            return False
        seated, invited = _close_lobby(change)
        notify.table_expired(game, [*seated, *invited], days)
    return True


@transaction.atomic
def game_learn(user: User, engine: str) -> Game:
    """A first game: a Live table against bots, started at once, the rules beside the board
    (one start refused leaves no table behind)."""
    if engine not in registry.ENGINES:
        raise GameError(_("Unknown game."), "bad_game")
    rules = registry.get(engine)
    seats = max(3, rules.min_players)
    game = game_create(user, engine=engine, seats=seats, pace=Pace.LIVE, bots=seats - 1)
    # the Live pace (the table runs live), with a learner's time (before the first deadline)
    Game.objects.filter(pk=game.pk).update(
        learning=True, move_seconds=LEARN_MOVE_SECONDS, window_seconds=LEARN_WINDOW_SECONDS
    )
    game_start(user, game.pk)
    game.refresh_from_db()
    return game


@transaction.atomic
def game_rematch(user: User, game_id: int) -> tuple[Game, bool]:
    """ "Play again": a new table with the same game and settings, the same bots, and
    invitations to the other players (who accept as for any table; friends or not, they
    shared this table). One per finished table: a second click (by anyone) leads to the
    same new table (the first not cancelled that the presser may open: a block may have kept
    them out of one they must not learn of). A Learn table's rematch is another Learn table,
    started at once. Answers the table and whether this call made it."""
    _lock_active_player(user)  # before the old table's lock, as every change of a player
    with GameChange(game_id) as change:
        old = change.game
        if old.status != Game.Status.FINISHED:
            raise NotActive(_("Play again once the game is over."))
        if change.seat_of(user) is None:
            raise NotAllowed(_("You are not playing at this table."))
        existing = selectors.rematch_for(old, user)
        if existing is not None:
            return existing, False
        if old.learning:
            game = game_learn(user, old.engine)
        else:
            mates = [
                s.user
                for s in change.seats
                if s.user is not None and s.user_id != user.pk and s.user.is_active
            ]
            game = game_create(
                user,
                engine=old.engine,
                seats=old.seats_count,
                pace=old.pace,
                move_seconds=old.move_seconds,
                window_seconds=old.window_seconds,
                bots=sum(1 for s in change.seats if s.user is None),
                invite=[m.username for m in mates],
                join_policy=old.join_policy,
                allow_spectators=old.allow_spectators,
                spectator_chat=old.spectator_chat,
                start_when_full=old.start_when_full,
                options={
                    k: v
                    for k, v in old.options.items()
                    if k not in registry.get(old.engine).start_options
                },
                mates=frozenset(m.pk for m in mates),
                rematch_of=old,
            )
        Game.objects.filter(pk=game.pk).update(rematch_of=old)
        change.touch()  # the finished table now links to its rematch
    return game, True
