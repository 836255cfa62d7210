"""Thin views: each reads a form, calls a service, and says what happened."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from pathlib import Path

from allauth.account.decorators import reauthentication_required
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from accounts import notifications, push, selectors, services, time_zones
from accounts.forms import (
    AccountCloseForm,
    ApiTokenForm,
    FindPlayerForm,
    ProfileForm,
    PushKindsForm,
)
from accounts.languages import reader_language
from accounts.models import (
    ApiToken,
    EmailPreference,
    FriendRequest,
    PushSubscription,
    User,
)
from accounts.signed_in import SignedInRequest

# Closing an account leaves its tables first, and closes its sockets: the one place these
# views reach into games.
from games.broadcast import account_closed
from games.services.departure import player_departed


def posted_from(page: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A form's target, which only a POST uses. Opened by GET (a sign-in that interrupted the
    form's POST sends the browser back to it, as do a reload and a typed address), it leads to
    the page the form is on: ``require_POST`` answered a blank 405 there, with no words in any
    language and no way on."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def only_posted(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
            if request.method in ("GET", "HEAD"):
                return redirect(page)
            if request.method != "POST":
                return HttpResponseNotAllowed(["POST"])
            return view(request, *args, **kwargs)

        return only_posted

    return decorate


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@posted_from("home")
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch (the cookie), and for a signed-in player also their preferred
    language: their notices and emails are written in it, not only their pages."""
    response = i18n.set_language(request)
    code = request.POST.get("language", "")
    if (
        request.user.is_authenticated
        and code in dict(settings.LANGUAGES)
        and code != request.user.language
    ):
        services.profile_update(request.user, language=code)
    return response


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links: point them at our SVG."""
    return redirect(static("favicon.svg"), permanent=True)


# --- Profile and API tokens -----------------------------------------------------------------


def _render_profile(
    request: SignedInRequest,
    profile_form: ProfileForm | None = None,
    token_form: ApiTokenForm | None = None,
) -> HttpResponse:
    user = request.user
    devices = list(PushSubscription.objects.filter(user=user))
    context = {
        "form": profile_form or ProfileForm.for_user(user),
        "token_form": token_form or ApiTokenForm(),
        "tokens": selectors.active_tokens(user),
        "push_enabled": push.enabled(),
        "push_key": settings.VAPID_PUBLIC_KEY,
        "push_form": PushKindsForm(initial={"kinds": user.push_kinds}),
        "push_devices": devices,
        # the script says "this device receives" only for a subscription the server keeps
        "push_endpoints": json.dumps([device.endpoint for device in devices]),
        # old zone names a browser may report, to the listed zone each stands for (zone.js)
        "old_zone_names": time_zones.old_names(),
    }
    return render(request, "accounts/profile.html", context)


def _set_language_cookie(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: SignedInRequest) -> HttpResponse:
    if request.method != "POST":
        return _render_profile(request)
    form = ProfileForm.for_user(request.user, data=request.POST)
    if not form.is_valid():
        return _render_profile(request, profile_form=form)
    try:
        user = services.profile_update(request.user, **form.cleaned_data)
    except ValidationError as error:  # the name taken meanwhile (two saves at once)
        form.add_error(None, error)
        return _render_profile(request, profile_form=form)
    # Say it in the language just chosen, and make the site follow it from the next page on.
    translation.activate(user.language)
    messages.success(request, _("Your profile is saved."))
    response = redirect("profile")
    _set_language_cookie(response, user.language)
    return response


@login_required
@require_http_methods(["GET", "POST"])
@reauthentication_required(allow_get=True)  # the password again (allauth's page and limits)
def account_close(request: SignedInRequest) -> HttpResponse:
    form = AccountCloseForm(request.POST if request.method == "POST" else None)
    if request.method != "POST" or not form.is_valid():
        return render(request, "accounts/close.html", {"form": form})
    user = request.user
    with transaction.atomic():  # every table left and the account closed, or nothing
        player_departed(user)
        services.account_close(user)
    account_closed(user)  # its other browsers' sockets too, not only this session's
    logout(request)
    messages.success(request, _("Your account is closed. Thank you for playing."))
    return redirect("home")


@login_required
@posted_from("profile")
def api_token_create(request: SignedInRequest) -> HttpResponse:
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _render_profile(request, token_form=form)
    try:
        token, raw = services.api_token_create(request.user, form.cleaned_data["name"])
    except services.TokenError as error:
        messages.error(request, error.message)
        return redirect("profile")
    # The raw token is rendered in this response only: it is never stored, so no redirect.
    response = render(request, "accounts/token_created.html", {"token": token, "raw": raw})
    add_never_cache_headers(response)
    return response


@login_required
@posted_from("profile")
def api_token_revoke(request: SignedInRequest, token_id: int) -> HttpResponse:
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    # revoked already (a second tab, a double click): the same answer, nothing more to do
    services.api_token_revoke(request.user, token)
    messages.success(request, _("The token “%(name)s” is revoked.") % {"name": token.name})
    return redirect("profile")


# --- Web push ---------------------------------------------------------------------------------


@login_required
@posted_from("profile")
def push_subscribe(request: SignedInRequest) -> HttpResponse:
    """The browser's PushSubscription.toJSON(), posted by static/js/push.js."""
    try:
        data = json.loads(request.body or b"{}")
        keys = data.get("keys") or {}
        endpoint, p256dh, auth = str(data["endpoint"]), str(keys["p256dh"]), str(keys["auth"])
    except (ValueError, KeyError, TypeError, AttributeError):
        return JsonResponse(
            {"error": "bad_request", "message": _("That was not a push subscription.")}, status=400
        )
    try:
        push.subscribe(request.user, endpoint, p256dh, auth, request.headers.get("User-Agent", ""))
    except push.PushError as error:
        return JsonResponse({"error": error.code, "message": error.message}, status=400)
    request.session[push.SESSION_KEY] = endpoint  # logging out here stops it (push.logged_out)
    return JsonResponse({"ok": True}, status=201)


@login_required
@posted_from("profile")
def push_unsubscribe(request: SignedInRequest) -> HttpResponse:
    """From the script (JSON with the endpoint this browser drops) or from the profile's list
    of devices (a form with the subscription's id)."""
    if request.content_type == "application/json":
        try:
            endpoint = str(json.loads(request.body or b"{}")["endpoint"])
        except (ValueError, KeyError, TypeError):
            return JsonResponse({"error": "bad_request"}, status=400)
        push.unsubscribe(request.user, endpoint=endpoint)
        return JsonResponse({"ok": True})
    subscription = request.POST.get("subscription", "")
    if subscription.isdigit() and push.unsubscribe(request.user, subscription_id=int(subscription)):
        messages.success(request, _("That device gets no more push notifications."))
    return redirect("profile")


@login_required
@posted_from("profile")
def push_kinds(request: SignedInRequest) -> HttpResponse:
    form = PushKindsForm(request.POST)
    if form.is_valid():
        push.set_kinds(request.user, form.cleaned_data["kinds"])
        messages.success(request, _("Your push notification choices are saved."))
    return redirect("profile")


SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "push-sw.js"


@require_GET
def push_service_worker(request: HttpRequest) -> HttpResponse:
    """Served from the site's root so its scope is the whole site; always revalidated, so a
    new version reaches browsers at once."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


# --- Friends ----------------------------------------------------------------------------------


def _render_friends(request: SignedInRequest, find_form: FindPlayerForm) -> HttpResponse:
    user = request.user
    found = None
    if find_form.is_bound and find_form.is_valid():
        player = find_form.cleaned_data["who"]
        if isinstance(player, str):
            found = {"email": player}  # an address: whether it has an account is not shown
        else:
            found = {"player": player, "relation": selectors.relationship(user, player)}
    context = {
        "find_form": find_form,
        "found": found,
        "friends": selectors.friends_of(user),
        "incoming": selectors.incoming_requests(user),
        "outgoing": selectors.outgoing_requests(user),
        "blocked": selectors.blocked_by(user),
    }
    return render(request, "accounts/friends.html", context)


@login_required
@require_GET
def friends(request: SignedInRequest) -> HttpResponse:
    find_form = FindPlayerForm(request.GET) if "who" in request.GET else FindPlayerForm()
    return _render_friends(request, find_form)


@login_required
@posted_from("friends")
def friend_request_send(request: SignedInRequest) -> HttpResponse:
    form = FindPlayerForm(request.POST)
    if not form.is_valid():
        return _render_friends(request, form)
    other = form.cleaned_data["who"]
    if isinstance(other, str):
        if services.friend_request_by_email(request.user, other):
            messages.success(
                request,
                _("If a player signed up with %(email)s, they now have your friend request.")
                % {"email": other},
            )
        else:
            messages.error(request, _("Too many addresses looked up. Try again in an hour."))
        return redirect("friends")
    try:
        outcome, _request = services.friend_request_send(request.user, other)
    except services.FriendError as error:
        messages.error(request, error.message)
        return redirect("friends")
    if outcome is services.RequestOutcome.BECAME_FRIENDS:
        text = _("%(name)s had already asked you, so you are now friends.")
    else:
        # Also what a player blocked by the recipient reads: the block stays secret.
        text = _("Friend request sent to %(name)s.")
    messages.success(request, text % {"name": other.name})
    return redirect("friends")


def _act(
    request: SignedInRequest,
    action: Callable[..., object],
    success: str,
    other: User,
    *args: object,
) -> HttpResponse:
    try:
        action(request.user, *args)
    except services.FriendError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, success % {"name": other.name})
    return redirect("friends")


def _incoming(request: HttpRequest, request_id: int) -> FriendRequest:
    """A request to the signed-in user (one from a player they blocked is silenced: not
    theirs to see)."""
    return get_object_or_404(
        FriendRequest.objects.select_related("from_user"),
        pk=request_id,
        to_user=request.user,
        silenced=False,
    )


@login_required
@posted_from("friends")
def friend_request_accept(request: SignedInRequest, request_id: int) -> HttpResponse:
    friend_request = _incoming(request, request_id)
    return _act(
        request,
        services.friend_request_accept,
        _("You and %(name)s are now friends."),
        friend_request.from_user,
        friend_request,
    )


@login_required
@posted_from("friends")
def friend_request_decline(request: SignedInRequest, request_id: int) -> HttpResponse:
    friend_request = _incoming(request, request_id)
    return _act(
        request,
        services.friend_request_decline,
        _("You declined the request from %(name)s."),
        friend_request.from_user,
        friend_request,
    )


@login_required
@posted_from("friends")
def friend_request_cancel(request: SignedInRequest, user_id: int) -> HttpResponse:
    # Named by the player asked, not by its number: numbers are counted across the site, and
    # the sender's page showing them told which of their requests had gone to an address (one
    # asked by name afterwards kept its older number). A request sent to an address is not
    # the sender's to see: "not found", as for a player never asked.
    friend_request = (
        FriendRequest.objects.select_related("to_user")
        .filter(from_user=request.user, to_user_id=user_id, by_email=False)
        .order_by("-created_at", "-pk")
        .first()
    )
    if friend_request is None:
        raise Http404
    return _act(
        request,
        services.friend_request_cancel,
        _("You cancelled your request to %(name)s."),
        friend_request.to_user,
        friend_request,
    )


@login_required
@posted_from("friends")
def friend_remove(request: SignedInRequest, user_id: int) -> HttpResponse:
    other = get_object_or_404(User, pk=user_id)
    return _act(
        request,
        services.friendship_remove,
        _("%(name)s is no longer on your friends list."),
        other,
        other,
    )


@login_required
@posted_from("friends")
def block(request: SignedInRequest, user_id: int) -> HttpResponse:
    other = get_object_or_404(User, pk=user_id)
    return _act(
        request,
        services.user_block,
        _("You blocked %(name)s. They can no longer send you requests or invitations."),
        other,
        other,
    )


@login_required
@posted_from("friends")
def unblock(request: SignedInRequest, user_id: int) -> HttpResponse:
    other = get_object_or_404(User, pk=user_id)
    return _act(request, services.user_unblock, _("You unblocked %(name)s."), other, other)


# --- notifications ---------------------------------------------------------------------------


@login_required
def notifications_page(request: SignedInRequest) -> HttpResponse:
    pages = Paginator(selectors.notice_rows(request.user), selectors.NOTICES_PAGE)
    page = pages.get_page(request.GET.get("page"))
    groups = selectors.notice_groups(request.user, page.object_list)
    return render(request, "accounts/notifications.html", {"page": page, "groups": groups})


@login_required
def notifications_table(request: SignedInRequest, game_id: int) -> HttpResponse:
    """All of one table's notices, a page at a time (its row folds only its newest few)."""
    notices = selectors.table_notices(request.user, game_id)
    pages = Paginator(notices, selectors.TABLE_NOTICES_PAGE)
    if not pages.count:
        raise Http404(_("There are no notices from this table."))
    page = pages.get_page(request.GET.get("page"))
    unread = notices.filter(read_at__isnull=True).exists()
    return render(
        request,
        "accounts/notifications_table.html",
        {"page": page, "game_id": game_id, "table_unread": unread},
    )


@login_required
@posted_from("notifications")
def notifications_read(request: SignedInRequest) -> HttpResponse:
    game = request.POST.get("game", "")
    if game.isdigit():
        # a row stands for a table: all its notices, on this page or older ones
        marked = notifications.mark_read_for_game(request.user, int(game))
    else:
        # notice_key: a notice's name, never its row number. A page drawn before notices had
        # names posts row numbers: not taken (taken, they would tell a player which numbers
        # are theirs, what the names hide); they name nothing, and the answer says so.
        keys = request.POST.getlist("id")
        marked = notifications.mark_read(
            request.user, notifications.notices_named(request.user, keys) if keys else None
        )
    if marked:
        messages.success(request, _("Marked as read."))
    else:
        # read meanwhile (another tab), or a page from before the last release: nothing was
        # marked, and the list the redirect shows is the current one
        messages.info(
            request,
            _(
                "Nothing was marked read: this page was out of date. Here are your notices "
                "as they are now."
            ),
        )
    page = request.POST.get("page", "")
    if request.POST.get("back") == "table" and game.isdigit():  # from the table's own page
        back = reverse("notifications_table", args=[int(game)])
    else:
        back = reverse("notifications")
    return redirect(f"{back}?page={page}" if page.isdigit() and page != "1" else back)


@csrf_exempt  # the signed token is the authorisation; mail clients post RFC 8058 one-clicks
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """One click from an email: GET asks to confirm, POST (also RFC 8058 one-click) applies."""
    user = notifications.user_for_unsubscribe(token)
    if user is None:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=400)
    # in the language of the email the link came from: opened in another browser, the page
    # spoke that browser's language (a Persian player's link answered in English); a language
    # chosen on this device (the menu's cookie) wins, or the page's menu would do nothing
    language = reader_language(request.COOKIES, None) or notifications.written_in(user)
    with translation.override(language):
        if request.method == "POST":
            services.profile_update(user, email_preference=EmailPreference.NONE)
            return render(request, "accounts/unsubscribe.html", {"done": True, "target": user})
        return render(request, "accounts/unsubscribe.html", {"target": user})
