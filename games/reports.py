"""Reporting a player from a table: a form and a thin view over ``services.report_create``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.signed_in import SignedInRequest
from games import services
from games.errors import GameError
from games.models import Game, Report, Seat
from games.services.moderation import REPORT_TEXT_MAX


class ReportForm(forms.Form):
    reported = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    reason = forms.ChoiceField(label=gettext_lazy("Reason"), choices=Report.Reason.choices)
    text = forms.CharField(
        label=gettext_lazy("What happened"),
        required=False,
        max_length=REPORT_TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=gettext_lazy("Only the moderators read this."),
    )

    def __init__(self, *args: Any, seats: list[Seat], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        reported = self.fields["reported"]
        assert isinstance(reported, forms.ChoiceField)
        # no player chosen until one is: a report sent by one stray tap named the first
        reported.choices = [("", _("Choose a player"))] + [
            (seat.index, seat.name) for seat in seats
        ]


@login_required
def report_player(request: SignedInRequest, game_id: int) -> HttpResponse:
    game = Game.objects.filter(pk=game_id).prefetch_related("seats__user").first()
    seats = list(game.seats.all()) if game else []
    if game is None or not any(seat.user_id == request.user.pk for seat in seats):
        raise Http404(_("There is no such game, or you may not see it."))
    others = [seat for seat in seats if seat.user_id and seat.user_id != request.user.pk]
    initial = {"reported": request.GET.get("seat")}  # ?seat=N preselects a player
    form = ReportForm(request.POST or None, seats=others, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.report_create(
                request.user, game.pk, data["reported"], data["reason"], data["text"]
            )
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Thank you. The moderators will look at your report."))
            return redirect("games:table", game_id=game.pk)
    return render(request, "games/report.html", {"game": game, "form": form, "others": others})
