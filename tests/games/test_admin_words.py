"""The admin speaks the moderator's language: the games' models and fields are named through
gettext (a moderator review found the menu, lists and labels English in Persian and Czech), and
a model's name on a confirmation page reads translated, with the game's title."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


def test_the_admin_menu_and_lists_speak_czech(as_admin, started, trio):
    alice, _bob, _carol = trio
    game = started("mogel-motte")
    services.report_create(alice, game.pk, "bob", "abuse", "rude")
    as_admin.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"

    index = as_admin.get(reverse("admin:index")).content.decode()
    reports = as_admin.get(reverse("admin:games_report_changelist")).content.decode()

    for english in (">Reports<", ">Chat messages<", ">Seats<", ">Games<"):
        assert english not in index, english
    assert ">Hlášení<" in index and ">Hry<" in index
    assert "Reason" not in reports and "Status" not in reports
    table = Game.objects.get(pk=game.pk)
    with translation.override("en"):
        assert str(table) == f"#{game.pk} Mogel Motte (in play)"
    with translation.override("cs"):
        assert str(table) == f"Mogel Motte č. {game.pk} (hraje se)"


@pytest.mark.parametrize(
    ("language", "headings"),
    [
        ("cs", ("Název modelu", "Odkaz pro přidání")),
        ("fa", ("نام مدل", "پیوند افزودن")),
    ],
)
def test_the_admins_hidden_headings_speak_the_moderators_language(as_admin, language, headings):
    """Django's own Czech and Persian catalogues lack (or leave empty) the index's hidden table
    headings a screen reader reads: "Model name", "Add link" stood English among Czech words
    (locale_overrides/)."""
    as_admin.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    index = as_admin.get(reverse("admin:index")).content.decode()

    assert "Model name" not in index and "Add link" not in index
    for heading in headings:
        assert heading in index, heading


def test_the_moderators_record_pages_are_titled_in_their_language(trio, admin_user, make_user):
    """A moderation log entry's page was titled "… report_resolved", a notice's "… finished",
    a friend request's "(pending)" and a block's "alice blocks bob", in English amid Czech."""
    from django.test import Client

    from accounts.models import Block, FriendRequest, ModerationLog, Notification
    from accounts.moderators import make_moderator
    from accounts.notifications import notify
    from accounts.services import friend_request_send, user_block

    alice, bob, _carol = trio
    game = services.game_create(alice, engine="mogel-motte", seats=3, invite=["bob"])
    dora = make_user("dora")
    friend_request_send(dora, alice)
    user_block(bob, dora)
    notify(bob, Notification.Kind.GAME_FINISHED, "over", "/", game.pk)
    services.game_abort(admin_user, game.pk, "spam table")
    moderator = make_user("moddy")
    make_moderator(moderator)
    client = Client()
    client.force_login(moderator)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"

    pages = {
        "moderationlog": (ModerationLog.objects.get(), "game_abort", "hra ukončena"),
        "notification": (
            Notification.objects.get(user=bob, text="over"),
            " finished ",
            "hra skončila",
        ),
        "friendrequest": (FriendRequest.objects.get(), "(pending)", "čeká"),
        "block": (Block.objects.get(), " blocks ", "blokuje"),
    }
    for model, (row, english, czech) in pages.items():
        page = client.get(reverse(f"admin:accounts_{model}_change", args=[row.pk]))
        title = page.content.decode().split("<title>")[1].split("</title>")[0]
        assert english not in title and czech in title, (model, title)


def test_the_notices_pages_name_their_columns_in_persian(as_admin, trio):
    """The notices' list and a notice's page named their columns "Created at", "Game id",
    "Kind", "User", "Read at"...: their fields had no translatable names."""
    import html
    import re

    from accounts.models import Notification
    from accounts.notifications import notify

    alice, _bob, _carol = trio
    notify(alice, Notification.Kind.GAME_FINISHED, "over", "/", 7)
    as_admin.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    pages = (
        reverse("admin:accounts_notification_changelist"),
        reverse("admin:accounts_notification_change", args=[Notification.objects.get().pk]),
    )
    for page in pages:
        # the page's own content (the menu beside it lists every app, allauth's too)
        body = as_admin.get(page).content.decode().split('id="content"')[1]
        names = re.findall(r"<th[^>]*>(.*?)</th>|<label[^>]*>(.*?)</label>", body, flags=re.S)
        english = [
            shown
            for parts in names
            if re.search(
                r"[A-Za-z]{2}",
                shown := html.unescape(re.sub(r"<[^>]+>", "", "".join(parts))).strip(),
            )
        ]
        assert english == [], page


def test_what_a_game_in_play_waits_for_is_said_in_the_moderators_language(as_admin, started):
    """The game's page said "turn (seats 0)" in English words amid Persian ones: the engine's
    word for the wait, untranslated."""
    game = started("cockroach-poker-royal")
    as_admin.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"

    page = as_admin.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()

    with translation.override("fa"):
        turn = translation.pgettext("game", "turn")
    assert turn != "turn"
    assert f"{turn} (" in page
    assert "turn (" not in page
