"""Admin actions that ask why first: an intermediate page with a reason, then the service.

Shared by the games' and the accounts' admin; the services write the moderation log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from config.admin_mixins import ModelAdminMixin

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# an action started from an object's own page (a report's "Resolve…") names it, to go back there
FROM_OBJECT = "_from_object"


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Kept in the moderation log."),
    )


class ConfirmedActions(ModelAdminMixin):
    """Admin actions that ask for a reason on an intermediate page, then call a service (a
    ModelAdmin mixin: it uses the admin's site, options and messages)."""

    # what a service raises to refuse one object (with a ``message``): said, the rest go on
    refused_errors: tuple[type[Exception], ...] = ()

    def confirm_and_run(
        self,
        request: HttpRequest,
        queryset: QuerySet,
        *,
        action: str,
        title: StrOrPromise,
        intro: StrOrPromise,
        submit: StrOrPromise,
        call: Callable[[Any, str], Any],
        done: Callable[[int], StrOrPromise],
        form_class: type[forms.Form] = ReasonForm,
    ) -> HttpResponse | None:
        """First post: a page asking for the reason. Second post (``apply``): call the service
        once per selected object; a refused one is reported and the others still go through."""
        applying = "apply" in request.POST
        form = form_class(request.POST if applying else None)
        if applying and form.is_valid():
            count = 0
            for obj in queryset:
                try:
                    call(obj, form.cleaned_data["reason"])
                except self.refused_errors as error:
                    # every refused error carries its readable message (GameError, AccountsError)
                    message = error.message  # type: ignore[attr-defined]
                    self.message_user(request, f"{obj}: {message}", messages.WARNING)
                else:
                    count += 1
            if count:
                self.message_user(request, done(count), messages.SUCCESS)
            return self.back_to_object(request, queryset)
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "intro": intro,
            "submit": submit,
            "opts": self.opts,
            "queryset": queryset,
            "form": form,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "action": action,
            "from_object": request.POST.get(FROM_OBJECT, ""),
        }
        return TemplateResponse(request, "admin/games/confirm_action.html", context)

    def back_to_object(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        """An action done: back to the object's own page it started from, or (None) the list."""
        back = request.POST.get(FROM_OBJECT, "")
        if back.isdecimal() and queryset.filter(pk=int(back)).exists():
            opts = self.opts
            return redirect(f"admin:{opts.app_label}_{opts.model_name}_change", int(back))
        return None
