"""The 65 cards of Cockroach Poker Royal, the 8 claims, and which claims are true."""

from __future__ import annotations

SPECIES: tuple[str, ...] = ("cockroach", "stink_bug", "rat", "fly", "bat", "toad", "scorpion")
ROYAL = "royal"
CLAIMS: tuple[str, ...] = (*SPECIES, ROYAL)
JOKER = "joker"
BLANK = "blank"
SPECIALS: tuple[str, ...] = (JOKER, BLANK)
NORMAL_PER_SPECIES = 8
DECK_SIZE = len(SPECIES) * (NORMAL_PER_SPECIES + 1) + len(SPECIALS)  # 65

OFFER_LIMIT = 500
# 2: a player who must offer holding only special cards loses (rules version 1 played on).
RULES_VERSION = 2


def royal_kind(species: str) -> str:
    return f"royal_{species}"


ROYAL_KINDS: tuple[str, ...] = tuple(royal_kind(s) for s in SPECIES)
KINDS: tuple[str, ...] = (*SPECIES, *ROYAL_KINDS, *SPECIALS)


def deck_kinds() -> list[str]:
    """One kind per physical card, in a fixed order (the engine shuffles it per game)."""
    kinds = [s for s in SPECIES for _ in range(NORMAL_PER_SPECIES)]
    kinds += list(ROYAL_KINDS)
    kinds += list(SPECIALS)
    assert len(kinds) == DECK_SIZE
    return kinds


def penalty_pile_size(players: int) -> int:
    return 16 if players == 2 else 7


def row_limit(players: int) -> int:
    return 5 if players == 2 else 4


def is_special(kind: str) -> bool:
    return kind in SPECIALS


def is_royal(kind: str) -> bool:
    return kind.startswith("royal_")


def species_of(kind: str) -> str | None:
    """The species a card counts as in a row; ``None`` for the special cards."""
    if kind in SPECIES:
        return kind
    if is_royal(kind):
        return kind[len("royal_") :]
    return None


def is_true(kind: str, claim: str) -> bool:
    """Whether ``claim`` truly describes a card of ``kind`` (the table in the rules)."""
    if kind == JOKER:
        return claim in SPECIES
    if kind == BLANK:
        return False
    if claim == ROYAL:
        return is_royal(kind)
    return species_of(kind) == claim


def _species_label(species: str) -> str:
    return species.replace("_", " ")


LABELS: dict[str, str] = {
    **{s: _species_label(s) for s in SPECIES},
    **{royal_kind(s): f"royal {_species_label(s)}" for s in SPECIES},
    ROYAL: "royal",
    JOKER: "joker (every creature)",
    BLANK: "blank (nothing)",
}
