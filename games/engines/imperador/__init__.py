"""Imperador (emperor, sheep and fox): the rules engine.

The contract is /work/shared/rules/imperador.md ([T] text rules, [D] our decisions).

Readings (where the rules page leaves a choice open):

- Case (a) when the emperor holds both pairs of the announced band: he shows both.
- The card a down player gives for a named value is public (everyone knows its value);
  random takes and gifts are seen only by the two players involved, except that a card
  leaving a fox holder's visible hand is seen by all. A gift to a fox holder is always
  hidden (only the holder and the giving emperor see it), even when the giving emperor
  holds foxes himself.
- A fox holder's hand is visible except the cards received *from the emperor* while holding
  foxes; an emperor holding foxes therefore shows the cards he takes in his own turn.
  Taking foxes makes the whole hand visible at once (earlier secrets included); shedding the
  last fox makes it private again.
- When a liar holds both copies of the named value and the emperor has not yet received
  it, the liar gives one copy; a later liar then gives a card of the emperor's choice.
- With 3 players, at the end of an emperor's second turn in a row the emperor card goes to
  the next seat without a sheep (else the next seat) whatever the hands were; this replaces
  the normal choice of successor for that turn.
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

__all__ = ["ENGINE"]
