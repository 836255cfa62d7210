"""The Django admin signs in through allauth: one login form, one set of rate limits, and the
second factor (TOTP) for staff who have one.

The admin's own login form checks passwords with no limit at all (measured: 40 wrong passwords
in 26 s, then the right one logged in). ``admin_login`` replaces it: anyone not yet signed in
gets allauth's login view in its place (the same POST goes through allauth's ``login_failed``
limit and its MFA stage), then comes back to the admin through ``next``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme


def has_second_factor(user: Any) -> bool:
    from allauth.mfa.models import Authenticator

    return Authenticator.objects.filter(user=user, type=Authenticator.Type.TOTP).exists()


def admin_allowed(request: HttpRequest) -> bool:
    """AdminSite.has_permission, plus: superusers need TOTP where ADMIN_REQUIRE_MFA is on."""
    user = request.user
    if not (user.is_active and user.is_staff):
        return False
    return not (
        getattr(settings, "ADMIN_REQUIRE_MFA", False)
        and user.is_superuser
        and not has_second_factor(user)
    )


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or reverse("admin:index")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("admin:index")
    return target


def admin_login(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
    from allauth.account.views import LoginView

    user = request.user
    if not user.is_authenticated:
        # Serve allauth's login right here (a POST to /admin/login/ is allauth's POST).
        if "next" not in request.GET and "next" not in request.POST:
            return redirect(reverse("admin:login") + "?next=" + reverse("admin:index"))
        return LoginView.as_view()(request)
    if admin_allowed(request):
        return redirect(_next_url(request))
    if user.is_active and user.is_superuser and not has_second_factor(user):
        # Production requires a second factor for superusers: set it up, then come back.
        return redirect(reverse("mfa_activate_totp") + "?next=" + reverse("admin:index"))
    # a player who followed an admin link: the site's own page, in their language
    return TemplateResponse(request, "admin_not_allowed.html", status=403)


def install() -> None:
    admin.site.login = admin_login  # type: ignore[method-assign]
    admin.site.has_permission = admin_allowed  # type: ignore[method-assign]
