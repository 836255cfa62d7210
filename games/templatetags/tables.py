"""Small helpers for the table page and its per-game boards.

Everything here reads only what the page already holds: the viewer's ``payload["view"]``,
the seat names, the viewer's filtered event log and the action forms. Nothing reads the
game state, and nothing depends on the time or on chance, so a page drawn from a state
whose hidden parts were scrambled is byte-for-byte the same.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from django import template
from django.template.loader import get_template
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from games import history

register = template.Library()

GENERIC_BOARD = "games/boards/_generic.html"


def _word(key: str) -> str:
    try:
        from games.labels import word
    except ImportError:  # pragma: no cover - the labels module is being written alongside
        return key.replace("_", " ")
    return word(key)


# --- which board ---------------------------------------------------------------------------


@register.simple_tag
def board_template(engine: str) -> str:
    """``games/boards/<engine>.html`` if there is one, else the generic tree board."""
    name = f"games/boards/{engine}.html"
    try:
        get_template(name)
    except template.TemplateDoesNotExist:
        return GENERIC_BOARD
    return name


# --- words and names ---------------------------------------------------------------------------


@register.filter
def word(key: Any) -> str:
    """An engine word (card kind, claim, action type, view key) in the current language."""
    if key is None:
        return ""
    return _word(str(key))


@register.filter
def seat_name(seat: Any, players: Sequence[str]) -> str:
    """The name of the player in ``seat`` (never the number)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players or []):
        return str(players[seat])
    return str(_("someone"))


@register.filter
def seat_names(seats: Any, players: Sequence[str]) -> str:
    """Names joined: "Alice", "Alice and Bob", "Alice, Bob and Carol"."""
    if not isinstance(seats, list | tuple) or not seats:
        return str(_("nobody"))
    return history.join([seat_name(s, players) for s in seats])


@register.filter
def at(items: Any, index: Any) -> Any:
    """``items[index]`` or None."""
    try:
        return items[index]
    except (IndexError, KeyError, TypeError):
        return None


@register.filter
def contains(items: Any, item: Any) -> bool:
    try:
        return item in items
    except TypeError:
        return False


@register.filter
def percent(part: Any, whole: Any) -> str:
    if not isinstance(part, int) or not isinstance(whole, int) or whole <= 0:
        return "—"
    return f"{round(100 * part / whole)}%"


@register.filter
def plus_one(value: Any) -> Any:
    """A 0-based slot or index as people count."""
    return value + 1 if isinstance(value, int) else value


# --- cards ---------------------------------------------------------------------------------------

ICONS = {
    "cockroach": "🪳",
    "stink_bug": "🪲",
    "rat": "🐀",
    "fly": "🪰",
    "bat": "🦇",
    "toad": "🐸",
    "scorpion": "🦂",
    "royal": "👑",
    "joker": "🃏",
    "blank": "⬜",
    "ant": "🐜",
    "mosquito": "🦟",
    "spider": "🕷️",
    "moth": "🦋",
    "object": "🏺",
}
SPECIES = ("cockroach", "stink_bug", "rat", "fly", "bat", "toad", "scorpion")
ROYAL_ORDER = {
    **{kind: 2 * i for i, kind in enumerate(SPECIES)},
    **{f"royal_{kind}": 2 * i + 1 for i, kind in enumerate(SPECIES)},
    "joker": 100,
    "blank": 101,
}


def species_of(kind: str) -> str:
    return kind[len("royal_") :] if kind.startswith("royal_") else kind


@register.filter
def icon(kind: Any) -> str:
    if not isinstance(kind, str):
        return ""
    return ICONS.get(species_of(kind), "")


def _is_card(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("kind"), str)


def _chip_name(card: dict[str, Any]) -> str:
    kind = card["kind"]
    if kind.startswith("royal_"):
        return _word(species_of(kind))
    if kind == "object":
        values = card.get("values")
        if isinstance(values, list) and len(values) == 2:
            return f"{values[0]}–{values[1]}"
    if kind == "number":
        return ""
    return _word(kind)


@register.simple_tag
def card(node: Any, count: int = 1, extra: str = "", short: bool = False) -> SafeString:
    """One card as a chip: icon, name, value; ``count`` > 1 adds "×n"; royal cards get a crown.

    ``short`` leaves the name out (the icon and value say it; the name stays as a tooltip).
    """
    if not _is_card(node):
        return format_html('<span class="card back" title="{}">{}</span>', _("hidden card"), "?")
    kind = node["kind"]
    value = node.get("value")
    classes = ["card", f"k-{species_of(kind)}"]
    if kind.startswith("royal_"):
        classes.append("royal")
    if isinstance(value, int) and not isinstance(value, bool):
        classes.append(f"v{value}")
        if kind == "number" and value > 0:
            classes.append(f"b{(value + 1) // 2}")
    if extra:
        classes.append(extra)
    title = history.card_name(node)
    name = _chip_name(node)
    parts = []
    if kind.startswith("royal_"):
        parts.append(format_html('<span class="crown" aria-hidden="true">{}</span>', "👑"))
    glyph = icon(kind)
    if glyph:
        parts.append(format_html('<span class="ico" aria-hidden="true">{}</span>', glyph))
    if name and not short:
        parts.append(format_html('<span class="nm"{}>{}</span>', dir_ltr(kind), name))
    elif name and short:
        parts.append(format_html('<span class="visually-hidden">{}</span>', name))
    if isinstance(value, int) and not isinstance(value, bool):
        parts.append(format_html('<b class="val">{}</b>', value))
    if count > 1:
        parts.append(format_html('<span class="n">×{}</span>', count))
    return format_html(
        '<span class="{}" title="{}">{}</span>',
        " ".join(classes),
        title,
        format_html_join("", "{}", ((p,) for p in parts)),
    )


@register.simple_tag
def claim(key: Any) -> SafeString:
    """A claim ("rat", "royal") as a speech-bubble chip."""
    if not isinstance(key, str):
        return mark_safe("")
    return format_html(
        '<span class="claim k-{}"><span class="ico" aria-hidden="true">{}</span> {}</span>',
        key,
        icon(key),
        _word(key),
    )


def dir_ltr(kind: str) -> SafeString:
    """An object's band ("3–4") reads left to right in a right-to-left page too."""
    return mark_safe(' dir="ltr"') if kind == "object" else mark_safe("")


def _order_key(node: dict[str, Any]) -> tuple[int, int]:
    value = node.get("value")
    rank = ROYAL_ORDER.get(node.get("kind", ""), 50)
    return rank, value if isinstance(value, int) else 0


@register.filter
def grouped(cards: Any, order: str = "") -> list[dict[str, Any]]:
    """Same cards together: ``[{"card", "count"}]``; ``order="kind"`` sorts species-wise
    (royals beside their species), otherwise the cards keep the view's order."""
    if not isinstance(cards, list):
        return []
    groups: dict[tuple[Any, Any], dict[str, Any]] = {}
    for node in cards:
        if not _is_card(node):
            continue
        key = (node["kind"], node.get("value"))
        if key in groups:
            groups[key]["count"] += 1
        else:
            groups[key] = {"card": node, "count": 1}
    out = list(groups.values())
    if order == "kind":
        out.sort(key=lambda g: _order_key(g["card"]))
    return out


@register.filter
def row_species(row: Any, limit: Any = 4) -> list[dict[str, Any]]:
    """A Cockroach Poker row by species: ``[{"species", "count", "royals", "danger"}]``,
    most first; ``danger`` when one more of that species loses."""
    if not isinstance(row, list):
        return []
    counts: dict[str, dict[str, Any]] = {}
    for node in row:
        if not _is_card(node):
            continue
        species = species_of(node["kind"])
        entry = counts.setdefault(species, {"species": species, "count": 0, "royals": 0})
        entry["count"] += 1
        entry["royals"] += node["kind"].startswith("royal_")
    limit = limit if isinstance(limit, int) else 4
    out = sorted(
        counts.values(),
        key=lambda e: (-e["count"], ROYAL_ORDER.get(e["species"], 50)),
    )
    for entry in out:
        entry["danger"] = entry["count"] >= limit - 1
        entry["card"] = {"kind": entry["species"]}
        marks = ["danger"] if entry["danger"] else []
        if entry["royals"]:
            marks.append("has-royal")  # a royal among them: a crown after the count
        entry["extra"] = " ".join(marks)
    return out


@register.filter
def adjacent(value: Any) -> str:
    """Mogel Motte: the values one below and one above, 5 and 1 being neighbours."""
    if not isinstance(value, int):
        return ""
    low = (value - 2) % 5 + 1
    high = value % 5 + 1
    return str(_("%(low)s or %(high)s") % {"low": low, "high": high})


@register.filter
def playable(node: Any, view: Any) -> bool:
    """Mogel Motte: whether the viewer could play this card on the top card now."""
    if not _is_card(node) or not isinstance(view, dict):
        return False
    top = view.get("top") or {}
    value, top_value = node.get("value"), top.get("value")
    if not isinstance(value, int) or not isinstance(top_value, int):
        return False
    if node["kind"] == "moth" and not (view.get("you") or {}).get("is_guard"):
        return False
    return (value - top_value) % 5 in (1, 4)


@register.filter
def pair_values(cards: Any) -> list[int]:
    """Imperador: the values of which ``cards`` hold both copies."""
    if not isinstance(cards, list):
        return []
    seen: dict[int, int] = {}
    for node in cards:
        if _is_card(node) and node["kind"] == "number" and isinstance(node.get("value"), int):
            seen[node["value"]] = seen.get(node["value"], 0) + 1
    return sorted(v for v, n in seen.items() if n >= 2)


# --- the move forms ------------------------------------------------------------------------------


def _cards_by_id(view: Any) -> dict[int, dict[str, Any]]:
    found: dict[int, dict[str, Any]] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ident = node.get("id")
            if (
                isinstance(ident, int)
                and not isinstance(ident, bool)
                and isinstance(node.get("kind"), str)
            ):
                found.setdefault(ident, node)
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(view)
    return found


def _cards_of(raw: Any, cards: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        return []
    ids = value if isinstance(value, list) else [value]
    out = []
    for ident in ids:
        if isinstance(ident, bool) or not isinstance(ident, int) or ident not in cards:
            return []
        out.append(cards[ident])
    return out


CARD_FIELDS = {"card", "cards"}
MOVE_ORDER = {
    # the common move first; Mogel Motte's cheat and accuse come after the turn's move
    "offer": 0,
    "call": 0,
    "peek": 1,
    "pass": 0,
    "name": 0,
    "play": 0,
    "draw": 1,
    "give": 0,
    "race": 0,
    "decline": 1,
    "slap": 0,
    "gift": 0,
    "hand": 0,
    "announce": 0,
    "pick": 0,
    "take": 0,
    "reveal": 0,
    "lay": 0,
    "successor": 0,
    "cheat": 5,
    "accuse": 6,
}
SECONDARY_MOVES = {"cheat", "accuse"}


@register.filter
def ordered_groups(groups: Any) -> list[Any]:
    """The move forms, the most common first (a stable sort: equal ranks keep their order)."""
    if not isinstance(groups, list):
        return []
    return sorted(groups, key=lambda g: MOVE_ORDER.get(getattr(g, "type", ""), 3))


@register.filter
def is_secondary(group: Any) -> bool:
    return getattr(group, "type", "") in SECONDARY_MOVES


@register.filter
def has_primary(groups: Any) -> bool:
    """Whether the viewer has a move the game is waiting for (not only a cheat or accusation)."""
    return isinstance(groups, list) and any(not is_secondary(g) for g in groups)


PLAYER_FIELDS = {"to", "target", "seat", "player", "receiver", "successor", "victim", "whom"}


def _other_words(posted: dict[str, str], skip: list[str], players: Sequence[str]) -> str:
    """The button's fields other than its card, in words (a seat as its player's name)."""
    parts = []
    for key, raw in posted.items():
        if key in skip:
            continue
        value = unjson(raw)
        if key[2:] in PLAYER_FIELDS and isinstance(value, int):
            parts.append(seat_name(value, players))
        elif value is None:
            parts.append(str(_("no card")))
        else:
            parts.append(word(value))
    return ", ".join(parts)


@register.simple_tag
def button_choices(group: Any, view: Any, players: Sequence[str] = ()) -> list[dict[str, Any]]:
    """A move's buttons as ``[{"posted", "label", "cards", "count", "extra"}]``: a button whose
    only varying field is a card shows the card; buttons with the same label are merged
    (two cards of the same kind are the same move), with a count."""
    cards = _cards_by_id(view)
    out: list[dict[str, Any]] = []
    by_label: dict[str, dict[str, Any]] = {}
    for posted, label in getattr(group, "buttons", []):
        if label in by_label:
            by_label[label]["count"] += 1
            continue
        shown: list[dict[str, Any]] = []
        extra = ""
        card_keys = [k for k in posted if k[2:] in CARD_FIELDS]
        if card_keys:
            shown = _cards_of(posted[card_keys[0]], cards)
            others = [k for k in posted if k not in card_keys]
            if shown and others:
                extra = _other_words(posted, card_keys, players) or label
        if len(posted) == 1 and not shown:
            ((key, raw),) = posted.items()
            label = choice_label(key[2:], raw, label)
        item = {"posted": posted, "label": label, "cards": shown, "count": 1, "extra": extra}
        by_label[label] = item
        out.append(item)
    return out


@register.simple_tag
def field_choices(field: Any, view: Any) -> list[dict[str, Any]]:
    """One form field's options as ``[{"value", "label", "cards", "count"}]``, merged by label
    (cards of one kind are interchangeable) and with cards looked up in the view."""
    cards = _cards_by_id(view)
    out: list[dict[str, Any]] = []
    by_label: dict[str, dict[str, Any]] = {}
    name = getattr(field, "name", "")
    for value, label in getattr(field, "options", []):
        if label in by_label:
            by_label[label]["count"] += 1
            continue
        shown = _cards_of(value, cards) if name in CARD_FIELDS else []
        item = {
            "value": value,
            "label": choice_label(name, value, label),
            "cards": shown,
            "count": 1,
        }
        by_label[label] = item
        out.append(item)
    if name in CARD_FIELDS and all(item["cards"] for item in out):
        out.sort(key=lambda item: (len(item["cards"]), [_order_key(c) for c in item["cards"]]))
    elif name == "claim":  # species in the game's order, "royal" last
        out.sort(key=lambda item: _order_key({"kind": unjson(item["value"])}))
    return out


@register.filter
def radio_ok(choices: Any) -> bool:
    """Few enough options to show them all as tap targets."""
    return isinstance(choices, list) and len(choices) <= 40


HINTS = {
    "offer": _("Pick a card, a claim and a player. The claim may be a lie."),
    "call": _("Is the claim true? Guess right and the one who claimed takes the card."),
    "peek": _("Or look at the card, then pass it on to someone who has not seen it."),
    "pass": _("Pass the card on with a claim, true or not."),
    "name": _("Choose which cards go from your hand into your row."),
    "play": _("Play a card one above or one below the top card."),
    "draw": _("You cannot play: draw a card."),
    "give": _("Give a card of your choice."),
    "race": _("Lay a plain number card of that value — first one wins."),
    "decline": _("Stay out of the race."),
    "slap": _("Slap! The slowest gets a card from everyone."),
    "gift": _("Choose the card to give (not a moth)."),
    "cheat": _("Slip a card up your sleeve. It falls to the floor after the next turn."),
    "accuse": _("Accuse someone of cheating, and choose the card you would hand over."),
    "hand": _("Raise a hand: “I hold no card in that band” — or keep it down. Lying is allowed."),
    "announce": _("Announce a band of two values."),
    "pick": _("Pick a player whose hand is down."),
    "take": _("Take a card from the caught liar."),
    "reveal": _("Turn over an object."),
    "lay": _("Choose the pair to lay on the object."),
    "successor": _("Choose the next emperor."),
}
ENGINE_HINTS = {
    ("imperador", "name"): _("Name a value in the band: whoever holds it hands it over."),
    ("imperador", "give"): _("Give a card of your choice (not the one you just received)."),
}


@register.filter
def move_hint(kind: Any, engine: Any = "") -> str:
    """One line under a move's heading saying what it does."""
    if not isinstance(kind, str):
        return ""
    hint = ENGINE_HINTS.get((engine, kind)) or HINTS.get(kind)
    return str(hint) if hint else ""


def choice_label(field_name: str, value: str, label: str) -> str:
    """Words for a non-card choice: a slot as "object 3", a band as "3–4", no card."""
    if value == "null":
        return str(_("no card"))
    if field_name == "slot" and label.isdigit():
        return str(_("object %(n)s") % {"n": int(label) + 1})
    if field_name == "band" and label.isdigit():
        band = int(label)
        return f"{2 * band - 1}–{2 * band}"
    if field_name == "choice" and value in ('"raise"', '"down"'):
        return ("✋ " if value == '"raise"' else "✊ ") + label
    if field_name == "says" and value in ('"true"', '"false"'):
        return str(_("It is true") if value == '"true"' else _("It is a lie"))
    return label


# --- the history ---------------------------------------------------------------------------------


@register.simple_tag
def history_entries(
    log: Any, players: Sequence[str], extra: Any = None, limit: int = 40
) -> list[dict[str, Any]]:
    """The viewer's log, newest first: ``[{"seq", "created", "lines": [{"text", "secret"}]}]``;
    entries with nothing the viewer may see are left out. ``extra``: entries that are not
    engine events (the table's switches to the Live pace and back), merged in by time."""
    entries: list[dict[str, Any]] = []
    for entry in reversed(list(log or [])):
        events: Iterable[dict[str, Any]] = entry.get("events") or []
        lines = [
            {
                "text": history.sentence(e, players),
                "secret": history.is_secret(e),
                "minor": history.is_minor(e),
            }
            for e in events
        ]
        if not lines:
            continue
        created = entry.get("created")
        entries.append(
            {
                "seq": entry.get("seq"),
                "created": parse_datetime(created) if isinstance(created, str) else None,
                "lines": lines,
            }
        )
        if len(entries) >= limit:
            break
    if extra:
        entries = sorted([*entries, *extra], key=lambda e: e["created"], reverse=True)[:limit]
    return entries


@register.filter
def event_sentence(event: Any, players: Sequence[str]) -> str:
    return history.sentence(event if isinstance(event, dict) else {}, players)


@register.filter
def reason(key: Any) -> str:
    """How a game ended, in words."""
    return history.reason_text(key)


@register.filter
def unjson(raw: Any) -> Any:
    """A form option's JSON value decoded (``'"rat"'`` -> ``rat``)."""
    try:
        return json.loads(raw)
    except (TypeError, ValueError):
        return raw


@register.filter
def round_sentence(past: Any, players: Sequence[str]) -> str:
    """Cockroach Poker Royal: a finished round (``view["recent"]``) told in one sentence."""
    if not isinstance(past, dict):
        return ""
    chain = past.get("chain") or [{}]
    event = {
        "kind": "called",
        "data": {
            "seat": past.get("caller"),
            "says": past.get("says"),
            "claim": chain[-1].get("claim"),
            "card": past.get("card"),
            "right": past.get("right"),
            "taker": past.get("taker"),
        },
    }
    return history.sentence(event, players)
