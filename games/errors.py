"""Errors the game services raise; each carries a stable code, a readable message and an HTTP status."""

from __future__ import annotations

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


def engine_message(exc: IllegalAction) -> str:
    """The engine's refusal in the reader's language: its template is marked for the
    catalogues where the engine raises it, and filled here with the same values."""
    text = gettext(exc.template)
    return text % exc.params if exc.params else text


class GameNotFound(GameError):
    status = 404
    code = "not_found"

    def __init__(self) -> None:
        super().__init__(_("There is no such game, or you may not see it."))


class NotAllowed(GameError):
    status = 403
    code = "forbidden"


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
