"""Moderation in the admin: games, seats, the event log, invitations and player reports.

Everything here is read-only. The actions (abort, force the deadline, hand a seat to the
bot, resolve or dismiss a report) ask for a reason on an intermediate page and call
``games.services``, which lock the game, keep the event log replayable and write the
moderation log row. The event log with every hidden card needs ``games.view_event``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.signed_in import SignedInRequest
from config.admin_actions import ConfirmedActions
from config.admin_lookups import DeclaredLookupsOnly
from config.admin_mixins import ModelAdminMixin
from games import replays, selectors, services
from games.admin_reveal import (
    EVENT_PERMISSION,
    REVEAL,
    TO_FULL_LOG,
    RevealStep,
    may_reveal,
    plays_at,
    reveal_step_url,
    revealed,
)
from games.catalog import registry as catalog
from games.catalog.registry import title as game_title
from games.engines import registry
from games.errors import GameError, NotAllowed
from games.models import ChatMessage, Event, Game, Invitation, Report, Seat
from games.services import chat
from games.services.sweep import FLAG_AFTER_FAILURES

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def off_own_tables(
    moderator: Any, game_of: Callable[[Any], Game], act: Callable[[Any, str], Any]
) -> Callable[[Any, str], Any]:
    """``act`` on an action's object, refused where the moderator plays at its table
    (``plays_at``, as for its hidden cards): a table its moderator plays at is for another
    moderator to stop, time out or hand over (forcing the deadline of his own game made the bot
    move for his opponent; the same rule as a report about himself,
    games/services/moderation.report_resolve)."""

    def call(obj: Any, reason: str) -> Any:
        if plays_at(moderator, game_of(obj)):
            raise NotAllowed(str(_("A table you play at is for another moderator to act on.")))
        return act(obj, reason)

    return call


class TalkCount(ModelAdminMixin):
    """A ModelAdmin mixin for the pages of one object with a "table talk" link: the object
    carries ``talk_lines``, its table's lines the viewer may read there (the spectators'
    channel of a table they play at left out). Counted for the object's own page only, where
    the link is: not a subquery for every row of the lists, which do not show it."""

    talk_game_field = "game_id"

    def get_object(self, request: HttpRequest, object_id: str, from_field: Any = None) -> Any:
        obj = super().get_object(request, object_id, from_field)
        if obj is not None:
            game_id = getattr(obj, self.talk_game_field)
            talk = selectors.talk_read_by_staff(request.user).filter(game_id=game_id)
            obj.talk_lines = talk.count() if game_id is not None else 0
        return obj


class TableNumberSearch(ModelAdminMixin):
    """A ModelAdmin mixin: players and reports name a table "#12"; a number searched finds
    that table's rows too."""

    table_number_field = "game_id"

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        number = search_term.strip().removeprefix("#")
        if number.isdecimal() and len(number) < 19:
            found |= queryset.filter(**{self.table_number_field: int(number)})
        return found, may_have_duplicates


class ResolutionForm(forms.Form):
    reason = forms.CharField(
        label=_("Resolution note"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("What was decided and done; kept on the report and in the moderation log."),
    )


def _pretty(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)


def _user_link(user: Any) -> str:
    if user is None:
        return "—"
    url = reverse("admin:accounts_user_change", args=[user.pk])
    return format_html('<a href="{}">{}</a>', url, user.username)


def game_admin_link(game_id: int | None) -> str:
    """``#12`` linking to the game's admin page (the moderation log's lists use it too)."""
    if game_id is None:
        return "—"
    url = reverse("admin:games_game_change", args=[game_id])
    return format_html('<a href="{}">#{}</a>', url, game_id)


def _talk_link(game_id: int | None, count: int) -> str:
    """The table's talk in the chat list: what was said around a reported line. ``count``:
    the lines the viewer may read there (TalkCount)."""
    if game_id is None:
        return "—"
    url = reverse("admin:games_chatmessage_changelist") + f"?game__id__exact={game_id}"
    label = ngettext("%(count)d message", "%(count)d messages", count) % {"count": count}
    return format_html('<a href="{}">{}</a>', url, label)


def _events_html(events: list[dict[str, Any]]) -> str:
    """Every engine event of one log entry, hidden ones included, each with its audience."""
    rows = []
    for event in events:
        to = event.get("to")
        audience = (
            _("everyone")
            if to is None
            else _("only seats %(seats)s") % {"seats": ", ".join(str(s) for s in to)}
        )
        rows.append((event.get("kind", "?"), audience, json.dumps(event.get("data") or {})))
    return format_html(
        '<ul class="moderation-events">{}</ul>',
        format_html_join("", "<li><strong>{}</strong> ({}) <code>{}</code></li>", rows),
    )


class ReadOnlyModelAdmin(ConfirmedActions, DeclaredLookupsOnly, admin.ModelAdmin):
    """Staff may look; only the actions (through the services) change anything."""

    refused_errors = (GameError,)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        """Moderation actions need the model's change permission (which the forms never use)."""
        opts = self.opts
        return request.user.has_perm(f"{opts.app_label}.change_{opts.model_name}")


class EventInline(admin.TabularInline):
    """The full event log, hidden cards included: only for staff with ``games.view_event``."""

    model = Event
    fields = ("seq", "seat", "reason", "action_json", "all_events", "actor", "created_at")
    readonly_fields = fields
    ordering = ("seq",)
    extra = 0
    can_delete = False
    verbose_name_plural = _("event log (every hidden card)")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Event]:
        # each row names who made it: one query for them all, not one per move
        return super().get_queryset(request).select_related("actor")

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        user = request.user
        return user.is_active and user.is_staff and user.has_perm(EVENT_PERMISSION)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("action"))
    def action_json(self, event: Event) -> str:
        return format_html("<code>{}</code>", json.dumps(event.action, sort_keys=True))

    @admin.display(description=_("events"))
    def all_events(self, event: Event) -> str:
        return _events_html(event.events)


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("index", "user", "is_bot", "bot_reason", "consecutive_timeouts", "moderate")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("moderate"))
    def moderate(self, seat: Seat) -> str:
        if seat.is_bot:
            return "—"
        url = reverse("admin:games_seat_changelist") + f"?game__id__exact={seat.game_id}"
        return format_html('<a href="{}">{}</a>', url, _("Replace by the bot…"))


class EngineFilter(admin.SimpleListFilter):
    """By game, named in the reader's language (the column's own filter listed slugs)."""

    title = _("game")
    parameter_name = "engine"

    def lookups(self, request: Any, model_admin: Any) -> list[tuple[str, str]]:
        return [(slug, str(game_title(slug))) for slug in registry.ENGINES]

    def queryset(self, request: Any, queryset: Any) -> Any:
        return queryset.filter(engine=self.value()) if self.value() else queryset


class StuckFilter(admin.SimpleListFilter):
    """Games whose deadline keeps failing: the sweeper retries them with backoff; staff look."""

    title = _("deadline")
    parameter_name = "stuck"

    def lookups(self, request: Any, model_admin: Any) -> list[tuple[str, StrOrPromise]]:
        return [("yes", _("failing (retried with backoff)"))]

    def queryset(self, request: Any, queryset: Any) -> Any:
        if self.value() == "yes":
            return queryset.filter(sweep_failures__gte=FLAG_AFTER_FAILURES)
        return queryset


@admin.register(Game)
class GameAdmin(TalkCount, TableNumberSearch, RevealStep, ReadOnlyModelAdmin):
    talk_game_field = "pk"
    table_number_field = "pk"
    list_display = (
        "id",
        "game_name",
        "status",
        "players",
        "version",
        "deadline_at",
        "sweep_failures",
        "created_at",
    )
    list_filter = ("status", EngineFilter, StuckFilter)
    search_fields = ("seats__user__username",)
    search_help_text = _("Search by a player's username, or by a table's number (#12).")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    inlines = (SeatInline, EventInline)
    actions = ("abort_games", "force_deadlines")
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "game_name",
                    "rules_version",
                    "status",
                    "players",
                    "table_talk",
                    "version",
                    "deadline_at",
                    "waiting_for",
                    "created_by",
                    "created_at",
                    "started_at",
                    "finished_at",
                    "result_json",
                )
            },
        ),
        (
            _("Table settings"),
            {
                "fields": (
                    "seats_count",
                    "pace",
                    "move_seconds",
                    "window_seconds",
                    "join_policy",
                    "allow_spectators",
                    "start_when_full",
                    "spectator_chat",
                    "options",
                )
            },
        ),
        (_("Hidden information"), {"fields": ("seed", "state_json", "full_log")}),
    )
    readonly_fields = (
        "game_name",
        "players",
        "table_talk",
        "public_version",
        "reveal",
        "waiting_for",
        "result_json",
        "state_json",
        "full_log",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).prefetch_related("seats__user")

    def revealing(self, request: HttpRequest, game: Game | None) -> bool:
        """Every hidden card shows only when asked for (``?reveal=1``) after the reveal step
        (games/admin_reveal.py), to staff who may read the event log and do not play at the
        table while it is still to be decided."""
        return game is not None and request.GET.get(REVEAL) == "1" and revealed(request, game)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)
        if self.revealing(request, obj):
            return fieldsets
        # the seed, the state and the full log show every hidden card; the version counts the
        # secret answers too (who has answered a window): the table's public one instead
        (name, options), *rest = fieldsets[:-1]
        fields = tuple("public_version" if f == "version" else f for f in options["fields"])
        shown = ((name, {**options, "fields": fields}), *rest)
        if (
            obj is not None
            and may_reveal(request, obj)  # a step that could only be refused: not offered
        ):
            shown = (*shown, (_("Hidden information"), {"fields": ("reveal",)}))
        return shown

    def get_inlines(self, request: HttpRequest, obj: Any = None) -> Any:
        inlines = super().get_inlines(request, obj)
        return inlines if self.revealing(request, obj) else [SeatInline]

    def get_list_display(self, request: HttpRequest) -> Any:
        # the list never reveals: its version would count the secret answers of every table
        return tuple(
            "public_version" if f == "version" else f for f in super().get_list_display(request)
        )

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        step = self.asked_to_reveal(request, self.get_object(request, object_id))
        if step is not None:
            return step
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.display(description=_("every hidden card"))
    def reveal(self, game: Game) -> str:
        url = reveal_step_url(game.pk)
        return format_html(
            '<a href="{}">{}</a><div class="help">{}</div>',
            url,
            _("Reveal the seed, the full state and the event log"),
            _("Every hidden card of this table; the moderation log notes that you looked."),
        )

    @admin.display(description=_("version"))
    def public_version(self, game: Game) -> int:
        """What a spectator's page counts: the public rows only."""
        return game.version_for(None)

    def get_urls(self) -> list:
        view = self.admin_site.admin_view(self.full_log_view)
        return [
            path("<int:game_id>/full-log/", view, name="games_game_full_log"),
            path(
                "<int:game_id>/reveal/",
                self.admin_site.admin_view(self.reveal_view),
                name="games_game_reveal",
            ),
            *super().get_urls(),
        ]

    @admin.display(description=_("players"))
    def players(self, game: Game) -> str:
        return ", ".join(seat.name for seat in game.seats.all())

    @admin.display(description=_("game"), ordering="engine")
    def game_name(self, game: Game) -> str:
        return str(game.get_engine_name())  # the game's name in the reader's language

    @admin.display(description=_("table talk"))
    def table_talk(self, game: Game) -> str:
        return _talk_link(game.pk, game.talk_lines)  # type: ignore[attr-defined]  # TalkCount

    @admin.display(description=_("waiting for"))
    def waiting_for(self, game: Game) -> str:
        if game.state is None or game.status != Game.Status.ACTIVE:
            return "—"
        waiting = registry.get(game.engine, game.rules_version).waiting_for(game.state)
        word = catalog.get(game.engine).word  # the engine's words in the moderator's language
        kind = word(waiting.kind) + (f" {word(waiting.window)}" if waiting.window else "")
        # the seats asked, as the table is told: who of them still owes a secret answer is
        # hidden information (the state, for staff who may read it)
        seats = ", ".join(str(s) for s in waiting.shown)
        return f"{kind} ({_('seats')} {seats})"

    @admin.display(description=_("result"))
    def result_json(self, game: Game) -> str:
        return format_html("<pre>{}</pre>", _pretty(game.result)) if game.result else "—"

    @admin.display(description=_("state (read-only)"))
    def state_json(self, game: Game) -> str:
        if game.state is None:
            return "—"
        return format_html(
            "<details><summary>{}</summary><pre>{}</pre></details>",
            _("Show the full state"),
            _pretty(game.state),
        )

    @admin.display(description=_("full log"))
    def full_log(self, game: Game) -> str:
        if game.state is None:
            return "—"
        url = reverse("admin:games_game_full_log", args=[game.pk])
        return format_html('<a href="{}">{}</a>', url, _("Replay the whole game, step by step"))

    def full_log_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        game = Game.objects.filter(pk=game_id).prefetch_related("seats__user").first()
        if game is None or game.state is None:
            raise Http404()
        self.check_may_reveal(request, game)
        if not revealed(request, game):
            return redirect(reveal_step_url(game.pk, TO_FULL_LOG))
        engine = registry.get(game.engine, game.rules_version)
        steps = replays.full_replay(game)
        final = steps[-1]["state"]
        context = {
            **self.admin_site.each_context(request),
            "title": _("Full log of game #%(id)s") % {"id": game.pk},
            "opts": self.opts,
            "original": game,
            "game": game,
            "players": [seat.name for seat in game.seats.all()],
            "steps": [
                {
                    **step,
                    "action_json": json.dumps(step["action"], sort_keys=True),
                    "events_html": _events_html(step["events"]),
                    "state_json": _pretty(step["state"]),
                }
                for step in steps
            ],
            "replays_to_stored_state": json.dumps(final, sort_keys=True)
            == json.dumps(game.state, sort_keys=True),
            "card_zones": _pretty(engine.card_zones(game.state)),
        }
        return TemplateResponse(request, "admin/games/game/full_log.html", context)

    @admin.action(description=_("Abort selected games…"), permissions=["moderate"])
    def abort_games(
        self, request: SignedInRequest, queryset: QuerySet[Game]
    ) -> HttpResponse | None:
        return self.confirm_and_run(
            request,
            queryset,
            action="abort_games",
            title=_("Abort games"),
            intro=_(
                "These games stop for good: nobody can move any more, the deadline is cleared "
                "and open invitations are cancelled. The state and the event log stay as they are."
            ),
            submit=_("Abort"),
            call=off_own_tables(
                request.user,
                lambda game: game,
                lambda game, reason: services.game_abort(request.user, game.pk, reason),
            ),
            done=lambda n: (
                ngettext("Aborted %(count)d game.", "Aborted %(count)d games.", n) % {"count": n}
            ),
        )

    @admin.action(description=_("Force the current deadline now…"), permissions=["moderate"])
    def force_deadlines(
        self, request: SignedInRequest, queryset: QuerySet[Game]
    ) -> HttpResponse | None:
        return self.confirm_and_run(
            request,
            queryset,
            action="force_deadlines",
            title=_("Force the current deadline now"),
            intro=_(
                "What each game waits on times out now, exactly as if its deadline had passed: "
                "the bot moves for a seat whose turn it is, and a reaction window closes."
            ),
            submit=_("Time out now"),
            call=off_own_tables(
                request.user,
                lambda game: game,
                lambda game, reason: services.force_deadline(request.user, game.pk, reason),
            ),
            done=lambda n: (
                ngettext(
                    "Forced the deadline of %(count)d game.",
                    "Forced the deadlines of %(count)d games.",
                    n,
                )
                % {"count": n}
            ),
        )


@admin.register(Seat)
class SeatAdmin(ReadOnlyModelAdmin):
    list_display = (
        "game_link",
        "index",
        "user",
        "is_bot",
        "bot_reason",
        "consecutive_timeouts",
        "game_status",
    )
    list_filter = ("is_bot", "bot_reason", "game__status")
    linked_lookups = ("game",)  # from a game's seats
    search_fields = ("user__username",)
    search_help_text = _("Search by a player's username.")
    list_select_related = ("game", "user")
    ordering = ("-game_id", "index")
    actions = ("replace_by_bot",)
    # which asked seat was reminded or nudged says who had not answered a secret window
    exclude = ("reminded_for_wait", "nudged_for_wait")

    @admin.display(description=_("game"), ordering="game_id")
    def game_link(self, seat: Seat) -> str:
        return game_admin_link(seat.game_id)

    @admin.display(description=_("game status"), ordering="game__status")
    def game_status(self, seat: Seat) -> str:
        return seat.game.get_status_display()

    @admin.action(description=_("Replace selected seats by the bot…"), permissions=["moderate"])
    def replace_by_bot(
        self, request: SignedInRequest, queryset: QuerySet[Seat]
    ) -> HttpResponse | None:
        return self.confirm_and_run(
            request,
            queryset.select_related("game", "user"),
            action="replace_by_bot",
            title=_("Replace seats by the bot"),
            intro=_(
                "The bot plays these seats for the rest of their games; if a game waits on one "
                "of them, the bot moves at once."
            ),
            submit=_("Hand to the bot"),
            call=off_own_tables(
                request.user,
                lambda seat: seat.game,
                lambda seat, reason: services.seat_to_bot(
                    request.user, seat.game_id, seat.index, reason
                ),
            ),
            done=lambda n: (
                ngettext(
                    "Handed %(count)d seat to the bot.", "Handed %(count)d seats to the bot.", n
                )
                % {"count": n}
            ),
        )


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyModelAdmin):
    list_display = ("game_link", "from_user", "to_user", "status", "created_at", "answered_at")
    list_filter = ("status",)
    search_fields = ("from_user__username", "to_user__username")
    list_select_related = ("from_user", "to_user")
    date_hierarchy = "created_at"

    @admin.display(description=_("game"), ordering="game_id")
    def game_link(self, invitation: Invitation) -> str:
        return game_admin_link(invitation.game_id)


@admin.register(Report)
class ReportAdmin(TalkCount, TableNumberSearch, ReadOnlyModelAdmin):
    list_display = (
        "id",
        "created_at",
        "reporter_link",
        "reported_link",
        "game_link",
        "reason",
        "short_text",
        "status",
        "resolved_by",
    )
    list_filter = ("status", "reason")
    linked_lookups = ("reported",)  # from a report: the same player's other reports
    search_fields = ("reporter__username", "reported__username", "text")
    search_help_text = _("Search by a player's username, or by a table's number (#12).")
    list_select_related = ("reporter", "reported", "resolved_by")
    date_hierarchy = "created_at"
    fields = (
        "reporter_link",
        "reported_link",
        "reports_about_player",
        "game_link",
        "table_talk",
        "reason",
        "text",
        "status",
        "created_at",
        "resolved_by",
        "resolved_at",
        "resolution",
    )
    readonly_fields = (
        "reporter_link",
        "reported_link",
        "reports_about_player",
        "game_link",
        "table_talk",
    )

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        # the page's own buttons (templates/admin/games/report/change_form.html)
        extra = {
            **(extra_context or {}),
            "has_moderate_permission": self.has_moderate_permission(request),
        }
        return super().change_view(request, object_id, form_url, extra)

    actions = ("resolve_reports", "dismiss_reports", "reopen_reports")

    @admin.display(description=_("reporter"), ordering="reporter__username")
    def reporter_link(self, report: Report) -> str:
        return _user_link(report.reporter)

    @admin.display(description=_("reported player"), ordering="reported__username")
    def reported_link(self, report: Report) -> str:
        return _user_link(report.reported)

    @admin.display(description=_("game"), ordering="game_id")
    def game_link(self, report: Report) -> str:
        return game_admin_link(report.game_id)

    @admin.display(description=_("what they wrote"))
    def short_text(self, report: Report) -> str:
        return Truncator(report.text).chars(80)

    @admin.display(description=_("table talk"))
    def table_talk(self, report: Report) -> str:
        return _talk_link(report.game_id, report.talk_lines)  # type: ignore[attr-defined]  # TalkCount

    @admin.display(description=_("all reports about this player"))
    def reports_about_player(self, report: Report) -> str:
        url = (
            reverse("admin:games_report_changelist") + f"?reported__id__exact={report.reported_id}"
        )
        count = Report.objects.filter(reported_id=report.reported_id).count()
        return format_html('<a href="{}">{}</a>', url, count)

    def _close(
        self, request: SignedInRequest, queryset: QuerySet[Report], status: str, **kw: Any
    ) -> HttpResponse | None:
        return self.confirm_and_run(
            request,
            queryset.select_related("reporter", "reported"),
            form_class=ResolutionForm,
            call=lambda report, note: services.report_resolve(request.user, report, status, note),
            **kw,
        )

    @admin.action(description=_("Resolve selected reports…"), permissions=["moderate"])
    def resolve_reports(
        self, request: SignedInRequest, queryset: QuerySet[Report]
    ) -> HttpResponse | None:
        return self._close(
            request,
            queryset,
            Report.Status.RESOLVED,
            action="resolve_reports",
            title=_("Resolve reports"),
            intro=_(
                "Mark these reports as resolved. Act first if needed: ban the player from the "
                "user admin, or hand their seat to the bot from the game."
            ),
            submit=_("Resolve"),
            done=lambda n: (
                ngettext("Resolved %(count)d report.", "Resolved %(count)d reports.", n)
                % {"count": n}
            ),
        )

    @admin.action(description=_("Dismiss selected reports…"), permissions=["moderate"])
    def dismiss_reports(
        self, request: SignedInRequest, queryset: QuerySet[Report]
    ) -> HttpResponse | None:
        return self._close(
            request,
            queryset,
            Report.Status.DISMISSED,
            action="dismiss_reports",
            title=_("Dismiss reports"),
            intro=_("Close these reports without action."),
            submit=_("Dismiss"),
            done=lambda n: (
                ngettext("Dismissed %(count)d report.", "Dismissed %(count)d reports.", n)
                % {"count": n}
            ),
        )

    @admin.action(description=_("Reopen selected reports…"), permissions=["moderate"])
    def reopen_reports(
        self, request: SignedInRequest, queryset: QuerySet[Report]
    ) -> HttpResponse | None:
        return self.confirm_and_run(
            request,
            queryset.select_related("reporter", "reported"),
            action="reopen_reports",
            title=_("Reopen reports"),
            intro=_("These reports are open again, as if nobody had closed them."),
            submit=_("Reopen"),
            call=lambda report, reason: services.report_reopen(request.user, report, reason),
            done=lambda n: (
                ngettext("Reopened %(count)d report.", "Reopened %(count)d reports.", n)
                % {"count": n}
            ),
        )


@admin.register(ChatMessage)
class ChatMessageAdmin(ConfirmedActions, DeclaredLookupsOnly, admin.ModelAdmin):
    """Table talk: staff read it and hide what breaks the rules (a moderation-log row each).
    A report's and a game's pages link here filtered by the table: the talk around a line."""

    list_display = ("id", "game_link", "author", "channel", "text", "created_at", "hidden_at")
    list_filter = ("channel", ("hidden_at", admin.EmptyFieldListFilter))
    linked_lookups = ("game",)  # from a report or a game: that table's talk
    search_fields = ("author__username", "text")
    list_select_related = ("author",)
    ordering = ("-id",)  # the latest lines first (the model's order is a table's, oldest first)
    show_full_result_count = False  # the largest table paged here: one COUNT a page, not two
    readonly_fields = ("game", "author", "channel", "text", "created_at", "hidden_at", "hidden_by")
    actions = ("hide_messages", "show_messages")
    refused_errors = (GameError,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatMessage]:
        return super().get_queryset(request) & selectors.talk_read_by_staff(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # the list's hide action needs it; a message's own page has nothing to save
        return obj is None and super().has_change_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("game"), ordering="game_id")
    def game_link(self, message: ChatMessage) -> str:
        return game_admin_link(message.game_id)

    @admin.action(description=_("Hide the selected messages…"), permissions=["change"])
    def hide_messages(
        self, request: SignedInRequest, queryset: QuerySet[ChatMessage]
    ) -> HttpResponse | None:
        return self.confirm_and_run(
            request,
            queryset.select_related("author"),
            action="hide_messages",
            title=_("Hide messages"),
            intro=_(
                "Nobody sees these messages at the table any more. Their authors are not told; "
                "the moderation log keeps the reason."
            ),
            submit=_("Hide"),
            call=lambda message, reason: chat.hide(request.user, message, reason),
            done=lambda n: (
                ngettext("Hid %(count)d message.", "Hid %(count)d messages.", n) % {"count": n}
            ),
        )

    @admin.action(description=_("Show the selected messages again…"), permissions=["change"])
    def show_messages(
        self, request: SignedInRequest, queryset: QuerySet[ChatMessage]
    ) -> HttpResponse | None:
        return self.confirm_and_run(
            request,
            queryset.select_related("author"),
            action="show_messages",
            title=_("Show messages again"),
            intro=_("Everyone at the table sees these messages again where they were."),
            submit=_("Show again"),
            call=lambda message, reason: chat.unhide(request.user, message, reason),
            done=lambda n: (
                ngettext("Showed %(count)d message again.", "Showed %(count)d messages again.", n)
                % {"count": n}
            ),
        )
