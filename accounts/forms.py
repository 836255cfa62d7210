"""Forms validate input only; views pass the cleaned data to accounts.services."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts import selectors, time_zones
from accounts.languages import own_names
from accounts.models import AVATAR_COLOUR_CHOICES, EmailPreference, Notification, User
from accounts.names import checked_display_name


def known_time_zone(name: str) -> str | None:
    """The zone to store for ``name`` (a browser may report an old name of it), or None."""
    return time_zones.offered_zone(name)


def profile_zone(stored: str) -> str:
    """The list's entry for a stored zone: an old name ("US/Eastern", kept from before the
    list was narrowed) is shown as the zone it stands for."""
    return time_zones.offered_zone(stored) or stored


def profile_zone_choices(stored: str) -> list[tuple[str, str]]:
    """The offered zones in the page's language, and the player's own if the list has no
    entry for it ("Etc/GMT+3"), so that saving keeps it."""
    choices = list(time_zones.zone_choices(translation.get_language() or settings.LANGUAGE_CODE))
    shown = profile_zone(stored)
    if shown and shown not in time_zones.offered_zones():
        choices.insert(1, (shown, shown.replace("_", " ")))
    return choices


class SignupExtras(forms.Form):
    """What allauth's sign-up form adds (ACCOUNT_SIGNUP_FORM_CLASS): the device's time zone,
    filled in by static/js/zone.js, so that a new player's deadlines read in their own hours
    without a visit to the profile. Without JavaScript it stays UTC."""

    time_zone = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def signup(self, request: Any, user: Any) -> None:
        changed = []
        zone = known_time_zone(self.cleaned_data.get("time_zone") or "")
        if zone is not None and zone != user.time_zone:
            user.time_zone = zone
            changed.append("time_zone")
        # the language the page spoke (the menu, or the browser's): a visitor who signed up in
        # Persian got English notices and emails, and English pages on any other device
        language = getattr(request, "LANGUAGE_CODE", "") or translation.get_language() or ""
        if not user.language and language in dict(settings.LANGUAGES):
            user.language = language
            changed.append("language")
        if changed:
            user.save(update_fields=changed)


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        required=False,
        help_text=_("Shown to other players instead of your username. Leave empty to use it."),
    )
    avatar_colour = forms.ChoiceField(
        label=_("Avatar colour"), choices=AVATAR_COLOUR_CHOICES, widget=forms.RadioSelect
    )
    language = forms.ChoiceField(label=_("Preferred language"), choices=own_names)
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        help_text=_("Deadlines and times are shown in this time zone."),
    )
    email_preference = forms.ChoiceField(
        label=_("Game emails"), choices=EmailPreference.choices, widget=forms.RadioSelect
    )
    email_reminders = forms.BooleanField(
        label=_("Remind me by email before a turn deadline"), required=False
    )

    def __init__(self, *args: Any, user: User | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        time_zone = self.fields["time_zone"]
        assert isinstance(time_zone, forms.ChoiceField)
        time_zone.choices = profile_zone_choices(user.time_zone if user else "")

    def clean_display_name(self) -> str:
        return checked_display_name(self.cleaned_data["display_name"], self.user)

    @classmethod
    def for_user(cls, user: User, data: Mapping[str, Any] | None = None) -> ProfileForm:
        current = translation.get_language()
        if current not in dict(settings.LANGUAGES):
            current = settings.LANGUAGE_CODE
        initial = {
            "display_name": user.display_name,
            "avatar_colour": user.avatar_colour,
            "language": user.language or current,
            "time_zone": profile_zone(user.time_zone),
            "email_preference": user.email_preference,
            "email_reminders": user.email_reminders,
        }
        return cls(data=data, initial=initial, user=user)


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        label=_("Token name"),
        max_length=60,
        help_text=_("Something to recognise it by, such as “my bot” or “laptop script”."),
    )

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Give the token a name."), code="required")
        return name


class FindPlayerForm(forms.Form):
    """Finds one player by exact username or exact email address."""

    who = forms.CharField(
        label=_("Username or email"),
        max_length=254,
        help_text=_("Type their exact username or the exact email address they signed up with."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )

    def clean_who(self) -> User | str:
        """A player found by username, or an email address as typed: whether an address
        belongs to anyone is never said (see services.friend_request_by_email)."""
        who = self.cleaned_data["who"].strip()
        if "@" in who:
            return who.lower()
        player = selectors.find_player(who)
        if player is None:
            raise forms.ValidationError(
                _("There is no player with that username or email."), code="unknown_user"
            )
        return player


class PushKindsForm(forms.Form):
    kinds = forms.MultipleChoiceField(
        label=_("Push notifications for"),
        choices=Notification.Kind.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )


class AccountCloseForm(forms.Form):
    confirm = forms.BooleanField(
        label=_("I understand, close my account."),
        error_messages={"required": _("Tick the box to close your account.")},
    )
