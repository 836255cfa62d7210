"""allauth's sign-up form (ACCOUNT_FORMS["signup"]), made whole under races.

The form checks the username (in any case, and against look-alikes) and the address against
the accounts that exist; two visitors sending the same name or address at the same moment were
both checked before either account was written, and both were made. The account is now
written holding a lock per name and per address, and both are checked again under it.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.account.internal.templatekit import get_entrance_context_data
from allauth.account.views import SignupView
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.http import HttpRequest
from django.template.response import TemplateResponse

from accounts.name_keys import name_key

# pg_advisory_xact_lock's first key: the locks of sign-ups, apart from any other use
SIGNUP_LOCKS = 0x5167


def _lock(email: str, username: str) -> None:
    """Until the transaction ends: one sign-up at a time per address, then per name (in that
    order for every sign-up: no cycle)."""
    if connection.vendor != "postgresql":
        return  # SQLite writes one transaction at a time anyway
    with connection.cursor() as cursor:
        for key in (f"email:{email.lower()}", f"name:{name_key(username)}"):
            cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [SIGNUP_LOCKS, key])


class SignupForm(AllauthSignupForm):
    def try_save(self, request: HttpRequest) -> tuple[Any, Any]:
        email = self.cleaned_data.get("email") or ""
        username = self.cleaned_data.get("username") or ""
        with transaction.atomic():
            _lock(email, username)
            # Checked again: a sign-up that held the lock may have taken either meanwhile. An
            # address taken gets allauth's own answer to one: with mandatory verification an
            # email to it, nothing shown; without, "already registered" on the form.
            try:
                if email:
                    self.validate_unique_email(email)
            except ValidationError as error:
                self.add_error("email", error)
            try:
                get_adapter().clean_username(username)
            except ValidationError as error:
                self.add_error("username", error)
            if self.errors:
                context = {"form": self, **get_entrance_context_data(request)}
                return None, TemplateResponse(request, SignupView.template_name, context)
            return super().try_save(request)
