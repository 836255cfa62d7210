"""Each game's presentation, one package per game beside its pure engine.

``games/engines/<game>/`` holds the rules (no Django); ``games/catalog/<game>/`` holds what the
site says and draws for that game: event sentences, card and claim names, the board, the card
art, move-panel hints, the rules page. Templates live in ``<game>/templates/catalog/<slug>/``
and pictures in ``<game>/static/catalog/<slug>/`` (both found by the settings without edits).
Shared modules keep only what every game shares.

A package holds ``presentation.py`` (a ``base.Presentation`` subclass, ``PRESENTATION``),
``words.py`` (its translated words), ``sentences.py`` (one history sentence per event kind of
its engine) and its board template; ``registry.py`` lists one presentation per game, and a game
it does not list gets the generic ``base.Presentation``.
"""
