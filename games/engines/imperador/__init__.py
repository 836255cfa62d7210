"""Imperador (emperor, sheep and fox): the rules engine.

The contract is /work/shared/rules/imperador.md ([T] text rules, [D] our decisions).

Readings (where the rules page leaves a choice open):

- Case (a) when the emperor holds both pairs of the announced band: he shows both.
- The card a down player gives for a named value is public (everyone knows its value);
  random takes and gifts are seen only by the two players involved, except that a card
  leaving a fox holder's visible hand is seen by all. A fox-free emperor's gift to a fox
  holder is hidden (only the holder and the emperor see it).
- A fox holder's hand is visible except the cards received *from the emperor* while holding
  foxes; an emperor holding foxes therefore shows the cards he takes in his own turn.
  Taking foxes makes the whole hand visible at once (earlier secrets included); shedding the
  last fox makes it private again.
- When a liar holds both copies of the named value and the emperor has not yet received
  it, the liar gives one copy; a later liar then gives a card of the emperor's choice.
- With 3 players, when nobody raised a hand at the end of an emperor's second turn in a row
  (he would otherwise stay), the emperor card goes to the next seat without a sheep (else
  the next seat). When somebody raised, the normal choice applies (a caught liar without a
  sheep keeps priority). Rules version 1 games applied the limit whatever the hands were.
- Foxes (decided; rules version 2): an emperor who holds foxes shows his own hand, so a
  card leaving or entering it is public, his gifts to fox holders included; the hiding
  between emperor and fox holder applies only to a fox-free emperor. Rules version 1 games
  hid a fox emperor's gift in the receiving fox holder's hand too.
- The longest game (``max_moves``): 60 turns of at most ``3 * players + 2`` actions.
- When every player holds a sheep, all sheep go back, the new emperor's included.
- The 60-turn limit counts emperor turns; the game ends when the 60th turn ends. If
  nobody has laid a pair by then, everybody shares the win.
- Steps with exactly one possible choice (the only down player, the only successor
  candidate, the only fitting pair, the named value owed by a liar) are played
  automatically; all other emperor choices are separate actions.

Actions: {"type": "announce", "band"}, {"type": "hand", "choice": "raise"|"down"},
{"type": "pick", "seat"}, {"type": "give", "card"}, {"type": "name", "value"},
{"type": "take", "card"}, {"type": "reveal", "slot"}, {"type": "lay", "value"},
{"type": "successor", "seat"}; the system sends {"type": "timeout"} to close the hands window.

Error codes: malformed, unknown_action, bad_choice, game_over, system_only_timeout,
no_window, bad_seat, not_system, not_asked, not_your_turn, wrong_step, not_allowed,
bad_players, bad_option.
"""

from games.engines.imperador.engine import ImperadorEngine

ENGINE = ImperadorEngine()


def for_version(rules_version: int) -> ImperadorEngine:
    """The engine that starts (and replays) games under an older rules version."""
    return ImperadorEngine(rules_version)


__all__ = ["ENGINE", "for_version"]
