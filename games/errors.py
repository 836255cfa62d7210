"""Errors the game services raise; each carries a stable code, a readable message and an HTTP status."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engines.core import IllegalAction


class GameError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: object, code: str | None = None) -> None:
        super().__init__(str(message))
        self.message = str(message)
        if code:
            self.code = code


# The values an engine fills into its refusals that are its own words (an action type, a
# window, a field): said in the game's words. Any other value (what the client sent, a
# number) is shown as it was.
WORD_VALUES = frozenset({"what", "window", "step", "field"})


def engine_message(exc: IllegalAction, words: Callable[[str], str] | None = None) -> str:
    """The engine's refusal in the reader's language: its template is marked for the
    catalogues where the engine raises it, and filled here with the same values, the
    engine's words among them through ``words`` (the game's presentation)."""
    text = gettext(exc.template)
    if not exc.params:
        return text
    params = {
        name: words(value) if words and name in WORD_VALUES and isinstance(value, str) else value
        for name, value in exc.params.items()
    }
    return text % params


class GameNotFound(GameError):
    status = 404
    code = "not_found"

    def __init__(self) -> None:
        super().__init__(_("There is no such game, or you may not see it."))


class NotAllowed(GameError):
    status = 403
    code = "forbidden"


class NotSeated(NotAllowed):
    """The player has no seat (any more) at this table: they left it, on this device or
    another. Its own class, so that a departure can tell it from any other refusal."""


class AccountSuspended(NotAllowed):
    code = "account_suspended"

    def __init__(self) -> None:
        super().__init__(
            _("A moderator suspended this account: its API tokens work again once it is unbanned.")
        )


class NotActive(GameError):
    status = 409
    code = "not_active"


class StaleVersion(GameError):
    status = 409
    code = "stale_version"

    def __init__(self, version: int) -> None:
        super().__init__(_("The game moved on since you loaded it. Here is the current position."))
        self.version = version


class TooLate(StaleVersion):
    """An answer that arrived after the window closed (someone else won the race, the slap
    was over): the server's arrival order decided, and this answer changed nothing."""

    code = "too_late"

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.message = str(_("Too late: the moment passed before your answer arrived."))


class AlreadyAnswered(StaleVersion):
    """A second answer to a window the seat has answered: the first one counts."""

    code = "already_answered"

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.message = str(_("You already answered: your first answer counts."))


class KeyReused(GameError):
    """An idempotency key that already made another move: the answer says so, instead of
    the first move's result as if this one had been played."""

    status = 409
    code = "key_reused"

    def __init__(self) -> None:
        super().__init__(_("That key already made another move: this one was not played."))


class IllegalMove(GameError):
    status = 400
