from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.selectors import friends_of
from games.catalog import registry as catalog
from games.catalog.registry import title as game_title
from games.engines.registry import ENGINES
from games.models import Game, Pace


class KeptKeyInput(forms.HiddenInput):
    """A form's key that the back button brings back. The back button fetches the form again
    and the browser puts back what the page had in its fields, but only in fields whose value
    changed on the page, never in a hidden input: the form came back with a new key beside
    the old choices, and "Create table" made a second table. So the key is a text field the
    page hides, and static/js/kept-key.js makes its value the page's own."""

    input_type = "text"
    MARK = "-kept"  # what kept-key.js adds to the value the page was drawn with

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__({"hidden": True, "data-kept-key": "", **(attrs or {})})

    def format_value(self, value: Any) -> str | None:
        # A refused form is drawn again with the key as sent, already marked: drawn as it was
        # first written, the script's mark makes it the sent key again. Drawn marked, each
        # refusal marked it once more, and the tenth was refused for its key's length.
        text = super().format_value(value)
        return text.removesuffix(self.MARK) if text else text

    @property
    def is_hidden(self) -> bool:  # drawn with the hidden fields, without a label
        return True


class NewGameForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"))
    seats = forms.IntegerField(label=_("Seats"), min_value=2, max_value=6, initial=4)
    pace = forms.ChoiceField(label=_("Pace"), choices=Pace.choices, initial=Pace.DAILY)
    move_seconds = forms.IntegerField(
        label=_("Seconds per move (custom pace)"), required=False, min_value=15
    )
    window_seconds = forms.IntegerField(
        label=_("Seconds for a reaction window"),
        required=False,
        min_value=5,
        help_text=_("Leave empty for the pace's default."),
    )
    join_policy = forms.ChoiceField(
        label=_("Who may join"), choices=Game.JoinPolicy.choices, initial=Game.JoinPolicy.INVITED
    )
    allow_spectators = forms.BooleanField(
        label=_("Friends of players may watch"), required=False, initial=True
    )
    start_when_full = forms.BooleanField(
        label=_("Start as soon as every seat is taken"),
        required=False,
        initial=True,
        help_text=_("Does not apply at Live pace: a Live table starts when everyone is ready."),
    )
    spectator_chat = forms.ChoiceField(
        label=_("Spectators' talk"),
        choices=Game.SpectatorChat.choices,
        initial=Game.SpectatorChat.READ,
        widget=forms.RadioSelect,  # a select cut its long choices on a phone
        required=False,  # a page from before this choice existed: the players' talk is read
    )
    starts = forms.ChoiceField(
        label=_("Who starts"),
        choices=[("random", _("Drawn at random")), ("me", _("I do"))],
        initial="random",
        required=False,
    )
    bots = forms.IntegerField(label=_("Bots"), min_value=0, max_value=5, initial=0)
    invite = forms.MultipleChoiceField(
        label=_("Invite friends"), required=False, widget=forms.CheckboxSelectMultiple
    )
    # the form's own key: sent twice, it still makes one table (games/create_once.py)
    key = forms.CharField(required=False, max_length=64, widget=KeptKeyInput)

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game, invite = self.fields["game"], self.fields["invite"]
        assert isinstance(game, forms.ChoiceField) and isinstance(invite, forms.ChoiceField)
        game.choices = [
            (slug, f"{game_title(slug)} ({engine.min_players}–{engine.max_players})")
            for slug, engine in sorted(ENGINES.items())
        ]
        invite.choices = [(u.username, u.name) for u in friends_of(user)]
        # a player without friends made, by default, an invite-only table nobody could join,
        # and learnt it only in its lobby (a new player's play-through): the form says so.
        # (Bots are not preset: a preset count refused any smaller number of seats.)
        self.friendless = not invite.choices

    def clean(self) -> dict[str, object]:
        data = super().clean()
        assert data is not None  # Form.clean returns the cleaned data
        game = data.get("game")
        if data.get("starts") == "me" and game in ENGINES and not ENGINES[game].creator_picks_start:
            self.add_error("starts", catalog.start_drawn_message(game))
        return data
