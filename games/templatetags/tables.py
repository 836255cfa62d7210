"""Small helpers for the table page, its per-game boards and the reveal replay.

Everything here reads only what the page already holds: the viewer's ``payload["view"]``,
its legal actions, the seat names, the viewer's filtered event log and the action forms.
Nothing reads the game state, and nothing depends on the time or on chance, so a page
drawn from a state whose hidden parts were scrambled is byte-for-byte the same.

Nothing here knows a particular game: what a game says and draws comes from its presentation
(``games.catalog.registry.get(slug)``), and every card is drawn by ``games/_card.html``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django import template
from django.template.defaultfilters import date as django_date
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.functional import Promise
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timeuntil
from django.utils.translation import gettext_lazy as _

from accounts.templatetags.calendar_dates import calendar_date
from games import history
from games.catalog import registry
from games.catalog.base import GENERIC_BOARD, colon, comma, percent
from games.catalog.pictures import picture_path

register = template.Library()

# A weekday names one day within this: an older history entry says its date.
WEEKDAY_NAMES_A_DAY = timedelta(days=6)


@register.filter(expects_localtime=True)
def log_moment(value: datetime) -> str:
    """When a history entry happened: the weekday and time within the last six days, the date
    and time (in the reader's calendar) before. A daily game runs for weeks: "Tue 14:05" named
    two Tuesdays."""
    if timezone.now() - value < WEEKDAY_NAMES_A_DAY:
        return django_date(value, "D H:i")
    return calendar_date(value, "DATETIME_FORMAT")  # "Dec. 8, 2026": 12/08 reads two ways


CARD_TEMPLATE = "games/_card.html"


# --- which board ---------------------------------------------------------------------------


@register.simple_tag
def board_template(slug: str) -> str:
    """The game's own board if it has one, else the generic tree board."""
    name = registry.get(slug).board_template
    try:
        get_template(name)
    except template.TemplateDoesNotExist:
        return GENERIC_BOARD
    return name


@register.simple_tag
def board_extras(
    slug: str, view: Any, legal: Any, seat: Any = None, players: Sequence[str] = ()
) -> dict[str, Any]:
    """What the game's board highlights, from the seat's view and legal actions only."""
    if not isinstance(view, dict):
        return {}
    return registry.get(slug).board_extras(view, list(legal or []), seat, list(players or []))


# --- words and names ---------------------------------------------------------------------------


@register.filter
def time_left(deadline: Any) -> str:
    """How long until ``deadline``, in the reader's language; under a minute Django said
    "0 minutes"."""
    if deadline is None:
        return ""
    now = timezone.now()  # the deadlines' clock (timeuntil reads datetime.now() of itself)
    if (deadline - now).total_seconds() < 60:
        return str(_("less than a minute"))
    return timeuntil(deadline, now)


@register.filter
def word(key: Any, slug: Any = "") -> str:
    """An engine word (card kind, claim, action type, view key) of the game ``slug`` in the
    current language."""
    if key is None:
        return ""
    return registry.get(str(slug or "")).word(str(key))


@register.filter
def seat_name(seat: Any, players: Sequence[str]) -> str:
    """The name of the player in ``seat`` (never the number)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players or []):
        return str(players[seat])
    return str(_("someone"))


@register.simple_tag
def label_colon() -> str:
    """After a label written in a template ("Seen by: …"): the language's own colon."""
    return colon()


@register.simple_tag
def list_comma() -> str:
    """Between the items of a list written in a template: the language's own comma."""
    return comma()


@register.filter
def seat_names(seats: Any, players: Sequence[str]) -> str:
    """Names joined: "Alice", "Alice and Bob", "Alice, Bob and Carol"."""
    if not isinstance(seats, list | tuple) or not seats:
        return str(_("nobody"))
    return history.join([seat_name(s, players) for s in seats])


@register.filter
def bdi_names(seats: Any, players: Sequence[str]) -> SafeString:
    """Names joined, each isolated in ``<bdi>`` (a Latin name in a Persian line, a Persian
    name beside numbers, each keeps its own direction)."""
    if not isinstance(seats, list | tuple) or not seats:
        return format_html("{}", _("nobody"))
    names = [str(format_html("<bdi>{}</bdi>", seat_name(s, players))) for s in seats]
    return mark_safe(history.join(names))  # each name escaped by format_html


@register.filter
def without(seats: Any, seat: Any) -> list[Any]:
    """The seats but ``seat`` (the viewer's own, said otherwise)."""
    return [s for s in seats or [] if s != seat]


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


@register.filter(name="percent")
def percent_of(part: Any, whole: Any) -> str:
    if not isinstance(part, int) or not isinstance(whole, int) or whole <= 0:
        return "—"
    return percent(round(100 * part / whole))  # the language's own way


@register.filter
def as_percent(value: Any) -> str:
    """A share already in hundredths (``80``), written the language's way ("80 %" in French)."""
    return percent(value) if isinstance(value, int) else "—"


@register.filter
def plus_one(value: Any) -> Any:
    """A 0-based slot or index as people count."""
    return value + 1 if isinstance(value, int) else value


@register.filter
def reason(key: Any, slug: Any = "") -> str:
    """How a game ended, in words."""
    return history.reason_text(str(slug or ""), key)


@register.filter
def record_figures(record: Any) -> list[tuple[str, int]]:
    """A player's record's bluffing figures, as its game tells them."""
    return registry.get(str(getattr(record, "engine", ""))).record_figures(record)


@register.filter
def unjson(raw: Any) -> Any:
    """A form option's JSON value decoded (``'"true"'`` -> ``true``)."""
    try:
        return json.loads(raw)
    except (TypeError, ValueError):
        return raw


# --- cards ---------------------------------------------------------------------------------------


def _is_card(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("kind"), str)


def render_card(
    slug: str, node: Any, count: int = 1, extra: str = "", short: bool = False
) -> SafeString:
    """Every card of every board and of the replay is drawn here, by ``games/_card.html``."""
    context = {"game_slug": slug, "card": node, "count": count, "extra": extra, "short": short}
    return mark_safe(get_template(CARD_TEMPLATE).render(context).strip())


@register.simple_tag(takes_context=True)
def chip(context: Any, node: Any, count: int = 1, extra: str = "", short: bool = False) -> str:
    """``{% chip card %}`` in a board: the card, drawn for the game in ``game_slug``."""
    return render_card(str(context.get("game_slug") or ""), node, count, extra, short)


@register.simple_tag
def card_chip(
    slug: str, node: Any, count: int = 1, extra: str = "", short: bool = False
) -> SafeString:
    """One card as a chip: icon, name, value; ``count`` > 1 adds "×n"; royal cards get a crown.

    ``short`` leaves the name out (the icon and value say it; the name stays as a tooltip).
    """
    if not _is_card(node):
        back = _picture(slug, None, _("hidden card"))
        return format_html(
            '<span class="card back" title="{}">{}</span>', _("hidden card"), back or "?"
        )
    face = registry.get(slug).card_face(node)
    classes = list(face.classes) + ([extra] if extra else [])
    parts = []
    # The game's own picture when it has one; its name is said by the chip's text (or, in a
    # short chip, by the hidden name), so the picture itself is decorative to screen readers.
    picture = _picture(slug, node, "")
    if picture:
        parts.append(picture)
        classes.append("pictured")
    else:
        if face.crown:
            parts.append(format_html('<span class="crown" aria-hidden="true">{}</span>', "👑"))
        if face.icon:
            parts.append(format_html('<span class="ico" aria-hidden="true">{}</span>', face.icon))
    # a crowned card is said with its crown (its title): the crown is a picture, and the
    # shown name only the species, the same as the plain card's
    spoken = face.title if face.crown and face.title else face.name
    if face.name and not short:
        ltr = mark_safe(' dir="ltr"') if face.ltr else ""
        if spoken == face.name:
            parts.append(format_html('<span class="nm"{}>{}</span>', ltr, face.name))
        else:
            parts.append(
                format_html(
                    '<span class="nm" aria-hidden="true"{}>{}</span>'
                    '<span class="visually-hidden">{}</span>',
                    ltr,
                    face.name,
                    spoken,
                )
            )
    elif face.name:
        parts.append(format_html('<span class="visually-hidden">{}</span>', spoken))
    if face.value is not None:
        parts.append(format_html('<b class="val">{}</b>', face.value))
    if count > 1:
        parts.append(format_html('<span class="n">×{}</span>', count))
    return format_html(
        '<span class="{}" data-kind="{}" title="{}">{}</span>',
        " ".join(classes),
        node["kind"],
        face.title,
        format_html_join("", "{}", ((p,) for p in parts)),
    )


def _picture(slug: str, node: Any, alt: str | Promise) -> SafeString | None:
    """The card's picture from the game's art module (a back for ``None``), or None for a game
    without pictures."""
    try:
        module = registry.art(slug)
    except KeyError:
        return None
    art = module.face(node) if node is not None else module.back()
    return format_html(
        '<img class="pic" src="{}" alt="{}" width="30" height="42">',
        static(picture_path(slug, art)),
        alt,
    )


@register.simple_tag(takes_context=True)
def claim(context: Any, key: Any) -> SafeString:
    """A claim as the game draws it (a speech-bubble chip), or the claim's word."""
    presentation = registry.get(str(context.get("game_slug") or ""))
    face = presentation.claim_face(key)
    if face is not None:
        return mark_safe(face)
    return format_html("{}", presentation.word(key) if isinstance(key, str) else "")


@register.filter
def grouped(cards: Any, slug: Any = "") -> list[dict[str, Any]]:
    """Same cards together: ``[{"card", "count"}]``; with a game's ``slug`` sorted in its card
    order, otherwise the cards keep the view's order."""
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
    if slug:
        out.sort(key=lambda g: registry.get(str(slug)).card_order(g["card"]))
    return out


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


@register.filter
def ordered_groups(groups: Any) -> list[Any]:
    """The move forms in the game's order (``presenters.action_groups`` sorted them)."""
    return list(groups) if isinstance(groups, list) else []


@register.filter
def is_secondary(group: Any) -> bool:
    """A move out of turn (the game says which), drawn folded away."""
    return bool(getattr(group, "secondary", False))


@register.filter
def has_primary(groups: Any) -> bool:
    """Whether the viewer has a move the game is waiting for (not only a move out of turn)."""
    return isinstance(groups, list) and any(not is_secondary(g) for g in groups)


def _other_words(posted: dict[str, str], skip: list[str], players: Sequence[str], slug: str) -> str:
    """The button's fields other than its card, in words (a seat as its player's name)."""
    presentation = registry.get(slug)
    parts = []
    for key, raw in posted.items():
        if key in skip:
            continue
        value = unjson(raw)
        if key[2:] in presentation.seat_fields and isinstance(value, int):
            parts.append(seat_name(value, players))
        elif value is None:
            parts.append(str(_("no card")))
        else:
            parts.append(presentation.word(str(value)))
    return comma().join(parts)


@register.simple_tag
def button_choices(
    group: Any, view: Any, players: Sequence[str] = (), slug: str = ""
) -> list[dict[str, Any]]:
    """A move's buttons as ``[{"posted", "label", "cards", "count", "extra", "lead"}]``: a button whose
    only varying field is a card shows the card; buttons with the same label are merged
    (two cards of the same kind are the same move), with a count."""
    presentation = registry.get(slug)
    cards = _cards_by_id(view)
    out: list[dict[str, Any]] = []
    by_label: dict[str, dict[str, Any]] = {}
    for posted, label in getattr(group, "buttons", []):
        if label in by_label:
            by_label[label]["count"] += 1
            continue
        shown: list[dict[str, Any]] = []
        extra = ""
        card_keys = [k for k in posted if k[2:] in presentation.card_fields]
        if card_keys:
            shown = _cards_of(posted[card_keys[0]], cards)
            others = [k for k in posted if k not in card_keys]
            if shown and others:
                extra = _other_words(posted, card_keys, players, slug) or label
        if len(posted) == 1 and not shown:
            ((key, raw),) = posted.items()
            label = presentation.choice_label(key[2:], raw, label)
        lead = ""
        first = presentation.player_first.get(getattr(group, "type", ""))
        if first and extra:
            lead, extra = str(first) % {"name": extra}, ""
        item = {
            "posted": posted,
            "label": label,
            "cards": shown,
            "count": 1,
            "extra": extra,
            "lead": lead,
        }
        by_label[label] = item
        out.append(item)
    return out


@register.simple_tag
def field_choices(field: Any, view: Any, slug: str = "") -> list[dict[str, Any]]:
    """One form field's options as ``[{"value", "label", "cards", "count", "claim"}]``, merged
    by label (cards of one kind are interchangeable) and with cards looked up in the view."""
    presentation = registry.get(slug)
    cards = _cards_by_id(view)
    out: list[dict[str, Any]] = []
    by_label: dict[str, dict[str, Any]] = {}
    name = getattr(field, "name", "")
    is_card_field = name in presentation.card_fields
    for value, label in getattr(field, "options", []):
        if label in by_label:
            by_label[label]["count"] += 1
            continue
        shown = _cards_of(value, cards) if is_card_field else []
        face = presentation.claim_face(unjson(value)) if name in presentation.claim_fields else None
        item = {
            "value": value,
            "label": presentation.choice_label(name, value, label),
            "cards": shown,
            "count": 1,
            "claim": mark_safe(face) if face is not None else None,
        }
        by_label[label] = item
        out.append(item)
    if is_card_field and all(item["cards"] for item in out):
        out.sort(
            key=lambda item: (
                len(item["cards"]),
                [presentation.card_order(c) for c in item["cards"]],
            )
        )
    elif name in presentation.claim_fields:  # claims in the game's card order
        out.sort(key=lambda item: presentation.card_order({"kind": unjson(item["value"])}))
    return out


@register.simple_tag
def field_picks(field: Any, choices: Any, view: Any, slug: str = "") -> list[dict[str, Any]]:
    """The cards to pick place by place (a first, then a second or none), when a field's
    answers are lists of at most two cards, too many to show as choices: naming two cards
    of a hand makes up to ~60 ordered pairs, a select on a phone. Every kind of card that
    occurs in an answer, in the game's card order, as ``{"card", "count", "first",
    "second", "ids"}`` (the ids each place posts, and all of the kind's); empty for any other
    field."""
    if radio_ok(choices):
        return []
    cards = _cards_by_id(view)
    ids: set[int] = set()
    for value, _label in getattr(field, "options", []):
        try:
            answer = json.loads(value)
        except ValueError:
            return []
        if not isinstance(answer, list) or not 1 <= len(answer) <= 2:
            return []
        if not _cards_of(answer, cards):
            return []
        ids.update(answer)
    # Cards of one kind are the same answer (as field_choices merges them): one chip a kind,
    # with its count; the first place posts one of them, the second place another, so a
    # pair of the kind is two cards.
    kinds: dict[tuple[Any, Any], list[int]] = {}
    for ident in sorted(ids):
        kinds.setdefault((cards[ident].get("kind"), cards[ident].get("value")), []).append(ident)
    order = registry.get(slug).card_order
    picks = [
        {
            "card": cards[same[0]],
            "count": len(same),
            "first": same[0],
            "second": same[-1],
            "ids": same,
        }
        for same in kinds.values()
    ]
    return sorted(picks, key=lambda pick: (order(pick["card"]), pick["first"]))


@register.filter
def radio_ok(choices: Any) -> bool:
    """Few enough options to show them all as tap targets."""
    return isinstance(choices, list) and len(choices) <= 40


@register.simple_tag
def move_hint(kind: Any, view: Any, players: Any, slug: Any = "") -> str:
    """One line under a move's heading saying what it does (and to whom, where the game's
    presentation can say it from the seat's own view)."""
    if not isinstance(kind, str):
        return ""
    view = view if isinstance(view, Mapping) else None
    players = players if isinstance(players, list | tuple) else ()
    return registry.get(str(slug or "")).hint(kind, view, players)


# --- the history ---------------------------------------------------------------------------------


@register.simple_tag
def history_entries(
    log: Any,
    players: Sequence[str],
    extra: Any = None,
    limit: int = 40,
    slug: str = "",
    minor: bool = True,
) -> list[dict[str, Any]]:
    """The viewer's log, newest first: ``[{"seq", "created", "lines": [{"text", "secret"}]}]``;
    entries with nothing the viewer may see are left out. ``extra``: entries that are not
    engine events (the table's switches to the Live pace and back), merged in by time.
    ``minor=False``: without the passing lines (a draw, a turn's start), and without the
    entries that had nothing else."""
    entries: list[dict[str, Any]] = []
    for entry in reversed(list(log or [])):
        events: Iterable[dict[str, Any]] = entry.get("events") or []
        lines = []
        for e in events:
            passing = history.is_minor(slug, e)
            if passing and not minor:
                continue
            lines.append(
                {
                    "text": history.sentence(slug, e, players),
                    "secret": history.is_secret(e),
                    "minor": passing,
                }
            )
        if not lines:
            continue
        timed_out = entry.get("timed_out")
        if isinstance(timed_out, int) and 0 <= timed_out < len(players):
            said = _("Time ran out: the bot played for %(name)s.") % {"name": players[timed_out]}
            lines.insert(0, {"text": said, "secret": False, "minor": False})
        created = entry.get("created")
        entries.append(
            {
                "seq": entry.get("seq"),
                "created": parse_datetime(created) if isinstance(created, str) else None,
                "at": entry.get("at"),
                "lines": lines,
            }
        )
        if len(entries) >= limit:
            break
    if extra:
        # by the exact time where the page has it (shown to the second only, where a move and
        # a switch in one second tied and the moves always read above)
        entries = sorted(
            [*entries, *extra], key=lambda e: e.get("at") or e["created"], reverse=True
        )[:limit]
    return entries


@register.simple_tag
def game_guides() -> list[dict[str, str]]:
    """Each game's name and rules page, in the reader's language: where a newcomer learns
    (the rules were linked only from a table's page, which a newcomer does not have yet)."""
    from games.engines.registry import ENGINES

    return [
        {
            "slug": slug,
            "title": str(registry.title(slug)),
            "url": reverse("games:rules", args=[slug]),
        }
        for slug in ENGINES
    ]
