"""Moderation: users (ban/unban through services), friendships, requests, blocks, tokens, log.

The admin never writes these tables itself: bans, unbans and token revocations go through
accounts.services, and the friendship tables are read-only here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import UserChangeForm as DjangoUserChangeForm
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts import push, services
from accounts.models import (
    ApiToken,
    Block,
    FriendRequest,
    Friendship,
    ModerationLog,
    Notification,
    PushSubscription,
    User,
)
from accounts.names import checked_display_name, checked_username
from accounts.signed_in import SignedInRequest
from config.admin_actions import FROM_OBJECT, ConfirmedActions, ReasonForm
from config.admin_lookups import DeclaredLookupsOnly

# The one place accounts reaches into games: a ban hands the player's seats to the bot.
# (accounts.services stays free of games; the games service writes its own log rows.)
from games import broadcast
from games.admin import game_admin_link
from games.errors import GameError
from games.services import seats_to_bot_for_banned

if TYPE_CHECKING:
    from django_stubs_ext import FieldsetSpec, StrOrPromise

admin.site.site_header = _("Fibbers administration")
admin.site.site_title = _("Fibbers administration")


class BanReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Kept in the moderation log and on the user."),
    )


class TalkSuspensionForm(ReasonForm):
    field_order = ["days", "reason"]
    days = forms.TypedChoiceField(
        label=_("For"),
        coerce=int,
        choices=[
            (1, _("1 day")),
            (3, _("3 days")),
            (7, _("7 days")),
            (30, _("30 days")),
        ],
        initial=3,
    )


class BannedFilter(admin.SimpleListFilter):
    title = _("banned")
    parameter_name = "banned"

    def lookups(self, request: Any, model_admin: Any) -> list[tuple[str, StrOrPromise]]:
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request: Any, queryset: QuerySet[User]) -> QuerySet[User]:
        if self.value() == "yes":
            return queryset.filter(banned_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(banned_at__isnull=True)
        return queryset


class ReadOnlyAdmin(DeclaredLookupsOnly, admin.ModelAdmin):
    """Viewable by staff; changed only through services (or deleted by a superuser)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# What a moderator's change permission (which banning needs) must not reach: who is staff
# and with which rights (a moderator would make themselves superuser and read every hidden
# card), and the email a password reset goes to (they would take over a player's account).
ACCESS_FIELDS = ("is_staff", "is_superuser", "groups", "user_permissions", "email")


def _changed(form: forms.Form, name: str) -> str:
    """A field a moderator changed, for the log: its label and, but for a switch or a list of
    rights, what it was and became (a replaced offensive name is the evidence of why)."""
    label = str(form.fields[name].label)
    if isinstance(form.fields[name], (forms.BooleanField, forms.ModelMultipleChoiceField)):
        return label
    was, now = (form.initial.get(name), form.cleaned_data.get(name))
    return f"{label} ({was or '—'} → {now or '—'})"


class UserChangeForm(DjangoUserChangeForm):
    def clean_display_name(self) -> str:
        # the players' own rules: a model constraint the form cannot check (it reads
        # is_active, read-only here) would otherwise end the save in a database error
        return checked_display_name(self.cleaned_data["display_name"], self.instance)

    def clean_username(self) -> str:
        # a moderator's rename keeps sign-up's rules: "ALICE" beside "alice", or "Аӏісе" in
        # Cyrillic letters, would pass for her at the tables
        name = self.cleaned_data["username"]
        return name if name == self.instance.username else checked_username(name, self.instance)


@admin.register(User)
class UserAdmin(ConfirmedActions, DeclaredLookupsOnly, DjangoUserAdmin):
    form = UserChangeForm
    refused_errors = (services.ModerationError,)
    list_display = (
        "username",
        "email",
        "display_name",
        "is_active",
        "is_staff",
        "banned_at",
        "last_seen_at",
        "date_joined",
    )
    list_filter = ("is_active", "is_staff", BannedFilter, "is_superuser")
    search_fields = ("username", "email", "display_name")
    ordering = ("username",)
    readonly_fields = (
        "banned_at",
        "ban_reason",
        "closed_at",
        "last_seen_at",
        "last_login",
        "date_joined",
    )
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        (
            _("Profile"),
            {
                "fields": (
                    "display_name",
                    "avatar_colour",
                    "language",
                    "time_zone",
                    "email_preference",
                    "email_reminders",
                    "last_seen_at",
                )
            },
        ),
        (
            _("Sanctions"),
            {"fields": ("banned_at", "ban_reason", "talk_suspended_until", "closed_at")},
        ),
    )
    actions = ["ban_users", "unban_users", "suspend_talk", "restore_talk"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # a moderator changes players, not other staff (a superuser's name, a colleague's
        # emails): those pages are theirs to read only
        if (
            obj is not None
            and (obj.is_staff or obj.is_superuser)
            and obj.pk != request.user.pk
            and not request.user.is_superuser
        ):
            return False
        return super().has_change_permission(request, obj)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        # the page's own buttons (templates/admin/accounts/user/change_form.html): a player
        # this moderator may sanction, not themselves
        player = self.get_object(request, object_id)
        may_sanction = (
            player is not None
            and player.pk != request.user.pk
            and player.closed_at is None
            and self.has_change_permission(request, player)
        )
        extra = {**(extra_context or {}), "may_sanction": may_sanction}
        return super().change_view(request, object_id, form_url, extra)

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and form.changed_data:  # a rename is a moderation act like a ban: logged
            assert isinstance(request.user, User)  # the admin lets in signed-in staff only
            ModerationLog.objects.create(
                actor=request.user,
                action=ModerationLog.Action.USER_EDITED,
                target_user=obj,
                reason=_("Changed: %(fields)s")
                % {"fields": ", ".join(_changed(form, name) for name in form.changed_data)},
            )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        # is_active follows bans; flipping it by hand would leave no moderation log row.
        # ... and the talk's suspension follows its actions, logged the same way
        fields = (*super().get_readonly_fields(request, obj), "is_active", "talk_suspended_until")
        if obj is not None and not request.user.is_superuser:
            fields = (*fields, *ACCESS_FIELDS)
        return fields

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> FieldsetSpec:
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None or request.user.is_superuser:
            return fieldsets
        # no "Reset password" link where it could only lead to a refusal
        return tuple(
            (name, {**opts, "fields": tuple(f for f in opts["fields"] if f != "password")})
            for name, opts in fieldsets
        )

    def user_change_password(
        self, request: HttpRequest, id: str, form_url: str = ""
    ) -> HttpResponse:
        # Setting someone's password is taking their account: superusers only, whatever a
        # moderator's change permission (which banning needs) would otherwise allow.
        if not request.user.is_superuser:
            raise PermissionDenied
        response = super().user_change_password(request, id, form_url)
        if request.method == "POST" and response.status_code == 302:  # the password is set
            # the player's sessions are signed out by it; their open sockets close too
            broadcast.password_changed(
                type(self), request=request, user=self.get_object(request, id)
            )
        return response

    @admin.action(description=_("Ban selected users…"), permissions=["change"])
    def ban_users(self, request: SignedInRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        form = BanReasonForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            done, seats, refused = 0, 0, []
            for user in queryset:
                try:
                    with transaction.atomic():  # the ban and the seat handover, or neither
                        services.user_ban(request.user, user, form.cleaned_data["reason"])
                        seats += len(seats_to_bot_for_banned(request.user, user))
                    done += 1
                except (services.ModerationError, GameError) as error:
                    refused.append(error.message)
            if done:
                self.message_user(
                    request,
                    ngettext("Banned %(count)d user.", "Banned %(count)d users.", done)
                    % {"count": done},
                    messages.SUCCESS,
                )
            if seats:
                self.message_user(
                    request,
                    ngettext(
                        "Handed %(count)d seat to the bot.",
                        "Handed %(count)d seats to the bot.",
                        seats,
                    )
                    % {"count": seats},
                    messages.SUCCESS,
                )
            for message in refused:
                self.message_user(request, message, messages.WARNING)
            return self.back_to_object(request, queryset)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Ban users"),
            "opts": self.model._meta,
            "queryset": queryset,
            "form": form,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "action": "ban_users",
            "from_object": request.POST.get(FROM_OBJECT, ""),
        }
        return TemplateResponse(request, "accounts/admin/ban_users.html", context)

    @admin.action(description=_("Unban selected users…"), permissions=["change"])
    def unban_users(
        self, request: SignedInRequest, queryset: QuerySet[User]
    ) -> HttpResponse | None:
        return self.confirm_and_run(
            request,
            queryset,
            action="unban_users",
            title=_("Unban users"),
            intro=_(
                "These players may sign in and use their API tokens again. Their seats at "
                "tables in play stay with the bot (a ban's hand-over is for good); they watch "
                "those tables and may join new ones."
            ),
            submit=_("Unban"),
            call=lambda user, reason: services.user_unban(request.user, user, reason),
            done=lambda n: (
                ngettext(
                    "Unbanned %(count)d user; their seats in play stay with the bot.",
                    "Unbanned %(count)d users; their seats in play stay with the bot.",
                    n,
                )
                % {"count": n}
            ),
        )

    @admin.action(description=_("Suspend their table talk…"), permissions=["change"])
    def suspend_talk(
        self, request: SignedInRequest, queryset: QuerySet[User]
    ) -> HttpResponse | None:
        # the days chosen, read once: confirm_and_run calls the service only on a valid form
        chosen = TalkSuspensionForm(request.POST)
        days = chosen.cleaned_data["days"] if chosen.is_valid() else 0
        return self.confirm_and_run(
            request,
            queryset,
            form_class=TalkSuspensionForm,
            action="suspend_talk",
            title=_("Suspend table talk"),
            intro=_(
                "These players go on playing but cannot write at any table until the time is "
                "up; what they wrote stays (hide lines from the chat list)."
            ),
            submit=_("Suspend"),
            call=lambda user, reason: services.talk_suspend(request.user, user, days, reason),
            done=lambda n: (
                ngettext(
                    "Suspended the table talk of %(count)d player.",
                    "Suspended the table talk of %(count)d players.",
                    n,
                )
                % {"count": n}
            ),
        )

    @admin.action(description=_("Restore their table talk…"), permissions=["change"])
    def restore_talk(
        self, request: SignedInRequest, queryset: QuerySet[User]
    ) -> HttpResponse | None:
        return self.confirm_and_run(
            request,
            queryset,
            action="restore_talk",
            title=_("Restore table talk"),
            intro=_("These players may write at the tables again."),
            submit=_("Restore"),
            call=lambda user, reason: services.talk_restore(request.user, user, reason),
            done=lambda n: (
                ngettext(
                    "Restored the table talk of %(count)d player.",
                    "Restored the table talk of %(count)d players.",
                    n,
                )
                % {"count": n}
            ),
        )


@admin.register(FriendRequest)
class FriendRequestAdmin(ReadOnlyAdmin):
    list_display = ("from_user", "to_user", "status", "silenced", "created_at", "answered_at")
    list_filter = ("status", "silenced")
    search_fields = ("from_user__username", "to_user__username")
    list_select_related = ("from_user", "to_user")
    date_hierarchy = "created_at"


@admin.register(Friendship)
class FriendshipAdmin(ReadOnlyAdmin):
    list_display = ("user_low", "user_high", "created_at")
    search_fields = ("user_low__username", "user_high__username")
    list_select_related = ("user_low", "user_high")


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyAdmin):
    list_display = ("name", "user", "prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = (("revoked_at", admin.EmptyFieldListFilter),)
    search_fields = ("name", "prefix", "user__username")
    list_select_related = ("user",)
    readonly_fields = (
        "user",
        "name",
        "prefix",
        "digest",
        "created_at",
        "last_used_at",
        "revoked_at",
    )
    actions = ["revoke_tokens"]

    @admin.action(description=_("Revoke selected tokens"), permissions=["delete"])
    def revoke_tokens(self, request: SignedInRequest, queryset: QuerySet[ApiToken]) -> None:
        count = 0
        for token in queryset.select_related("user").filter(revoked_at__isnull=True):
            services.api_token_revoke(token.user, token)
            count += 1
        self.message_user(
            request,
            ngettext("Revoked %(count)d token.", "Revoked %(count)d tokens.", count)
            % {"count": count},
        )


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnlyAdmin):
    """Which devices a player gets pushes on; the keys and the endpoint are not shown (the
    endpoint is a capability: with our VAPID key, it reaches the player's device)."""

    list_display = ("user", "label", "created_at", "last_success_at", "failures")
    search_fields = ("user__username", "label")
    list_select_related = ("user",)
    fields = ("user", "label", "created_at", "last_success_at", "failures")
    readonly_fields = fields

    def delete_model(self, request: HttpRequest, obj: PushSubscription) -> None:
        push.unsubscribe(obj.user, subscription_id=obj.pk)  # keeps the player's device count

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[PushSubscription]) -> None:
        for subscription in queryset.select_related("user"):
            push.unsubscribe(subscription.user, subscription_id=subscription.pk)


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    """The bell's notices and their emails' progress: filter by email state to see what is
    queued, being sent, or could not be sent (accounts.email_queue) and why it was tried."""

    list_display = (
        "created_at",
        "user",
        "kind",
        "game_id",
        "read_at",
        "email",
        "email_attempts",
        "email_retry_at",
        "emailed_at",
    )
    list_filter = ("email", "kind")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    show_full_result_count = False  # a large table: no second COUNT(*) per page
    # A window's notice is not emailed (nor read) once its seat has answered: its email state
    # tells who answered a secret window. Only staff who may read the event log, hidden cards
    # and all (games.admin_reveal.EVENT_PERMISSION; accounts does not import games), see it.
    SECRET_FIELDS = ("read_at", "email", "email_attempts", "email_retry_at", "emailed_at", "push")

    def _sees_secrets(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.view_event")

    # Who gets a window's later notices says who had not answered it: its reminder goes to the
    # seats it still waits on, and so do its notices when it starts afresh (a seat taken back).
    SECRET_KINDS = (Notification.Kind.WINDOW, Notification.Kind.REMINDER)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Notification]:
        from games.selectors import tables_played_by

        rows = super().get_queryset(request)
        if not self._sees_secrets(request):
            return rows.exclude(kind__in=self.SECRET_KINDS)
        # even with the event log's permission: not the windows of a table they play at
        return rows.exclude(kind__in=self.SECRET_KINDS, game_id__in=tables_played_by(request.user))

    def get_list_display(self, request: HttpRequest) -> Any:
        shown = super().get_list_display(request)
        if self._sees_secrets(request):
            return shown
        return tuple(f for f in shown if f not in self.SECRET_FIELDS)

    def get_list_filter(self, request: HttpRequest) -> Any:
        shown = super().get_list_filter(request)
        return shown if self._sees_secrets(request) else tuple(f for f in shown if f != "email")

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> Any:
        if self._sees_secrets(request):
            return super().get_exclude(request, obj)
        return (*(super().get_exclude(request, obj) or ()), *self.SECRET_FIELDS)


@admin.register(ModerationLog)
class ModerationLogAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "action", "actor", "target_user", "game_link", "reason")
    list_filter = ("action", ("actor", admin.RelatedOnlyFieldListFilter))
    search_fields = ("actor__username", "target_user__username", "reason")
    list_select_related = ("actor", "target_user")
    date_hierarchy = "created_at"

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("game"), ordering="game_id")
    def game_link(self, entry: ModerationLog) -> str:
        return game_admin_link(entry.game_id)
