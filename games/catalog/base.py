"""What every game's presentation offers, with the generic answers a game inherits.

A game's package (``games/catalog/<game>/``) subclasses :class:`Presentation` and overrides
only what it draws or says differently; a game that registers nothing special gets this class
as it is (the generic tree board, words with spaces for underscores, a sentence built from an
event's data). Shared modules ask the presentation of a game (``games.catalog.registry.get``)
and never name a game's event kinds, card kinds or slug themselves.

Everything here reads only what the page already holds (a seat's view, its legal actions, the
events it may see) or, for the reveal replay of a finished game, the full state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from config.bidi import isolated
from games.labels import word as shared_word

GENERIC_BOARD = "games/boards/_generic.html"

# Fields (of actions and of events) that name a seat in any game; a game adds its own in
# ``seat_fields``. The move forms and the history's fallback both read the game's set.
SEAT_FIELDS = frozenset(
    {"to", "seat", "target", "player", "receiver", "from", "by", "whom", "giver", "taker"}
)


def comma() -> str:
    """Between the items of a list: ", " in most languages, "، " in Persian."""
    return pgettext("list separator", ", ")


def colon() -> str:
    """After a label: ":" in most languages, a narrow no-break space and ":" in French."""
    return pgettext("label separator", ":")


def percent(value: int) -> str:
    """A share in hundredths: "50%"; "50 %" with a narrow no-break space in French, a
    no-break space in Czech; "50٪" in Persian, as the open tables' "finishes 50٪ of tables"."""
    return pgettext("percent", "%(n)s%%") % {"n": value}


def join(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if not items:
        return _("nobody")
    if len(items) == 1:
        return items[0]
    return _("%(list)s and %(last)s") % {"list": comma().join(items[:-1]), "last": items[-1]}


def sentence_case(text: str, names: Iterable[str]) -> str:
    """The sentence with a capital first letter, unless it opens with a player's name: a name
    stays as its player wrote it ("caiophone played…" read "Caiophone played…" beside the
    seats' "caiophone"). ``names``: those the sentence itself named; a name opens it only as
    a whole word (beside a player called "b", "bat goes into…" kept its small letter)."""
    for name in names:
        if name and text.startswith(name) and not text[len(name) : len(name) + 1].isalnum():
            return text
    return text[:1].upper() + text[1:]


def is_seat(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


class Words:
    """Names, cards and lists for one sentence; every lookup tolerates odd data."""

    def __init__(self, players: Sequence[str], presentation: Presentation) -> None:
        self.players = list(players)
        self.presentation = presentation
        self.named: list[str] = []  # the names this sentence used (sentence_case)

    def name(self, seat: Any) -> str:
        if is_seat(seat) and 0 <= seat < len(self.players):
            # set apart in Persian: next to another name or a number it ran together with it
            name = isolated(str(self.players[seat]))
            self.named.append(name)
            return name
        return _("someone")

    def names(self, seats: Any) -> str:
        if not isinstance(seats, list | tuple) or not seats:
            return _("nobody")
        return join([self.name(s) for s in seats])

    def word(self, key: Any) -> str:
        return self.presentation.word(key) if isinstance(key, str) else "?"

    def card(self, card: Any) -> str:
        return self.presentation.card_name(card)

    def cards(self, cards: Any) -> str:
        if not isinstance(cards, list | tuple) or not cards:
            return _("no card")
        return join([self.card(c) for c in cards])

    def scores(self, scores: Any) -> str:
        if not isinstance(scores, list | tuple):
            return ""
        return comma().join(
            # in brackets: "Bot 2 (3)", not "Bot 2 3"
            _("%(name)s (%(points)s)") % {"name": self.name(seat), "points": points}
            for seat, points in enumerate(scores)
        )


Sentence = Callable[[dict[str, Any], Words], str]


@dataclass
class CardFace:
    """What a card chip shows: ``name`` (may be empty), an ``icon``, the CSS ``classes``, a
    ``title`` (the card in words), a ``crown`` for a royal card and ``ltr`` for a name that
    must read left to right in a right-to-left page."""

    name: str
    title: str
    icon: str = ""
    classes: list[str] = field(default_factory=list)
    value: int | None = None
    crown: bool = False
    ltr: bool = False


@dataclass
class Mark:
    """A moment the replay points at: a bluff (``kind="bluff"``) or a cheat (``"cheat"``)."""

    kind: str
    text: str


class Presentation:
    """The generic presentation: what a game without a package of its own gets."""

    slug = ""
    title: Promise | str = ""  # the game's name in the reader's language ("": the engine's)
    board_template = GENERIC_BOARD
    art: Any = None  # the game's art module (``face(card)``, ``back()``); None: no pictures
    seat_fields: frozenset[str] = SEAT_FIELDS
    card_fields = frozenset({"card", "cards"})
    claim_fields: frozenset[str] = frozenset()  # move fields whose choices are claims
    words: Mapping[str, Promise] = {}
    sentences: Mapping[str, Sentence] = {}
    minor_kinds: frozenset[str] = frozenset()  # routine events the log shows in small print
    round_kinds: frozenset[str] = frozenset()  # events that start a round (the replay's jumps)
    # the deal starts the first round (no event says so: round_kinds mark the second on)
    deal_starts_round: bool = False
    move_order: Mapping[str, int] = {}  # the common move first (lower first; unknown: 3)
    secondary_moves: frozenset[str] = frozenset()  # moves out of turn, folded away
    # moves whose button says its player first ("Accuse Bob, hand over [3]"), not the usual
    # card then player ("[3] → Bob", a gift): %(name)s is the player
    player_first: Mapping[str, Promise] = {}
    hints: Mapping[str, Promise] = {}
    reasons: Mapping[str, Callable[[], str]] = {}

    # --- words -----------------------------------------------------------------------------

    def word(self, key: str, default: str | None = None) -> str:
        """An engine word of this game in the current language; else the shared words."""
        if key in self.words:
            return str(self.words[key])
        return shared_word(key, default)

    def card_name(self, card: Any) -> str:
        """A card in words: its kind's word and its value."""
        if not isinstance(card, dict):
            return _("a card")
        kind, value = card.get("kind"), card.get("value")
        text = self.word(kind) if isinstance(kind, str) else _("a card")
        if is_seat(value):
            return f"{text} {value}"
        return text

    def card_face(self, card: dict[str, Any]) -> CardFace:
        kind = str(card.get("kind", ""))
        value = card.get("value")
        classes = ["card", f"k-{kind}"]
        if is_seat(value):
            classes.append(f"v{value}")
        return CardFace(
            name=self.word(kind),
            title=self.card_name(card),
            classes=classes,
            value=value if is_seat(value) else None,
        )

    def card_order(self, card: dict[str, Any]) -> tuple[int, int]:
        """Where a card goes when a hand or a choice is sorted."""
        value = card.get("value")
        return 50, value if is_seat(value) else 0

    def claim_face(self, value: Any) -> str | None:
        """A claim drawn as a chip (HTML-safe markup), or None for a plain word."""
        return None

    def reason_text(self, reason: Any) -> str:
        """How a game ended, in words."""
        if isinstance(reason, str) and reason in self.reasons:
            return self.reasons[reason]()
        return self.word(reason) if isinstance(reason, str) else ""

    # --- the history ----------------------------------------------------------------------

    def sentence(self, event: Mapping[str, Any], players: Sequence[str]) -> str:
        """One sentence for ``event`` (``{"kind", "data"}``) with seats named from ``players``."""
        kind = str(event.get("kind", ""))
        raw = event.get("data")
        data = raw if isinstance(raw, dict) else {}
        words = Words(players, self)
        build = self.sentences.get(kind)
        if build is not None:
            try:
                text = build(dict(data), words)
            except (KeyError, TypeError, ValueError, AttributeError):  # odd data: say what we can
                text = ""
            if text:
                return sentence_case(text, words.named)
        return self.fallback_sentence(kind, dict(data), words)

    def fallback_sentence(self, kind: str, data: dict[str, Any], w: Words) -> str:
        """Any other event: its kind in words, then its data with seats as names."""
        parts = []
        for key, value in data.items():
            if key in self.seat_fields and is_seat(value):
                shown = w.name(value)
            elif isinstance(value, dict) and "kind" in value:
                shown = w.card(value)
            elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                shown = w.cards(value)
            elif isinstance(value, str):
                shown = self.word(value)
            else:
                shown = str(value)
            parts.append(f"{self.word(key)}: {shown}")
        text = self.word(kind)
        text = text[:1].upper() + text[1:]
        return f"{text} ({comma().join(parts)})" if parts else f"{text}."

    def is_minor(self, event: Mapping[str, Any]) -> bool:
        return event.get("kind") in self.minor_kinds

    # --- the move panel -------------------------------------------------------------------

    def move_rank(self, kind: str) -> int:
        return self.move_order.get(kind, 3)

    def is_secondary(self, kind: str) -> bool:
        return kind in self.secondary_moves

    def opens(self, kind: str, view: Mapping[str, Any]) -> bool:
        """Whether a folded move out of turn is drawn open now."""
        return False

    def hint(
        self, kind: str, view: Mapping[str, Any] | None = None, players: Sequence[str] = ()
    ) -> str:
        """One line under a move's heading; ``view`` and ``players`` (the seat's own view
        and the table's names) let a game name who the move concerns."""
        hint = self.hints.get(kind)
        return str(hint) if hint else ""

    def choice_label(self, field_name: str, value: str, label: str) -> str:
        """Words for a non-card choice of a move form (``value`` is its JSON)."""
        if value == "null":
            return str(_("no card"))
        return label

    # --- the board ------------------------------------------------------------------------

    def board_extras(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Mapping[str, Any]],
        seat: int | None,
        players: Sequence[str],
    ) -> dict[str, Any]:
        """What the board highlights, from the seat's view and its legal actions only."""
        return {}

    # --- a player's records ---------------------------------------------------------------

    def figures(self, rows: Sequence[Any], seat: int) -> dict[str, int]:
        """The bluffing figures a finished game adds to ``seat``'s record (``PlayerRecord``
        fields), read from its stored rows, now public."""
        return {}

    def record_figures(self, record: Any) -> list[tuple[str, int]]:
        """A player's record's figures for this game, in words."""
        return []

    # --- the reveal replay ----------------------------------------------------------------

    def reveal_view(self, engine: Any, state: Any) -> dict[str, Any]:
        """The board's view of a replay step with every card face up: the spectator's view,
        and each seat's own cards under ``all_hands``."""
        view = engine.view(state, None)
        if not view.get("over"):  # at the end the view itself shows every hand
            seats = range(_players(state))
            view["all_hands"] = [self.own_cards(engine.view(state, s)) for s in seats]
        return view

    def own_cards(self, seat_view: Mapping[str, Any]) -> list[Any]:
        """The cards a seat's view shows as its own."""
        hand = seat_view.get("hand")
        return list(hand) if isinstance(hand, list) else []

    def marks(
        self,
        before: Any,
        seat: int | None,
        action: Mapping[str, Any] | None,
        events: Sequence[Mapping[str, Any]],
        players: Sequence[str],
    ) -> list[Mark]:
        """Every bluff and cheat this step made, told with names (the game knows which).
        Whether there are any must not depend on ``players``: the kept reveal finds the marked
        steps once with stand-in names (games.reveal_pages)."""
        return []


def public_events(rows: Iterable[Any], kind: str) -> list[dict[str, Any]]:
    """The events of ``kind`` every seat saw, from a game's stored rows (``games.models.Event``)."""
    return [e for row in rows for e in row.events if e["kind"] == kind and e["to"] is None]


def _players(state: Any) -> int:
    if isinstance(state, dict) and is_seat(state.get("players")):
        return int(state["players"])
    return 0
