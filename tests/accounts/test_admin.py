"""Moderation through the admin: ban and unban actions write ModerationLog rows via services."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts import services
from accounts.models import ApiToken, ModerationLog, User
from tests.accounts.admin_forms import user_change_form_data

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:accounts_user_changelist"


def action(client, name, users, **extra):
    data = {"action": name, ACTION_CHECKBOX_NAME: [user.pk for user in users], "index": 0}
    data.update(extra)
    return client.post(reverse(CHANGELIST), data)


def test_ban_asks_for_a_reason_first(as_admin, bob, state):
    before = state()

    response = action(as_admin, "ban_users", [bob])

    assert response.status_code == 200
    body = response.content.decode()
    assert "bob@example.com" in body
    assert 'name="reason"' in body
    assert state() == before


def test_ban_with_a_reason_deactivates_and_logs(as_admin, admin_user, bob, carol):
    response = action(as_admin, "ban_users", [bob, carol], apply="yes", reason=" Cheating ")

    assert response.status_code == 302
    for user in (bob, carol):
        user.refresh_from_db()
        assert not user.is_active
        assert user.banned_at is not None
        assert user.ban_reason == "Cheating"
    logs = ModerationLog.objects.order_by("target_user__username")
    assert [(log.actor, log.action, log.target_user, log.reason) for log in logs] == [
        (admin_user, "ban", bob, "Cheating"),
        (admin_user, "ban", carol, "Cheating"),
    ]
    # A banned player can no longer sign in.
    client = Client()
    client.post(reverse("account_login"), {"login": "bob", "password": "a-long-test-password"})
    assert "_auth_user_id" not in client.session


def test_a_banned_players_session_stops_working(as_admin, bob):
    as_bob = Client()
    as_bob.force_login(bob)
    assert as_bob.get(reverse("friends")).status_code == 200

    action(as_admin, "ban_users", [bob], apply="yes", reason="abuse")

    assert as_bob.get(reverse("friends")).status_code == 302


def test_ban_without_a_reason_is_refused(as_admin, bob, state):
    before = state()

    response = action(as_admin, "ban_users", [bob], apply="yes", reason="   ")

    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["reason"]
    assert 'id="id_reason_error"' in response.content.decode()
    assert state() == before


def test_an_admin_cannot_ban_themselves(as_admin, admin_user, state):
    before = state()

    response = action(as_admin, "ban_users", [admin_user], apply="yes", reason="oops")

    assert response.status_code == 302
    assert state() == before
    admin_user.refresh_from_db()
    assert admin_user.is_active


def test_banning_twice_keeps_the_first_ban(as_admin, admin_user, bob):
    services.user_ban(admin_user, bob, "first")
    first = User.objects.get(pk=bob.pk).banned_at

    action(as_admin, "ban_users", [bob], apply="yes", reason="second")

    bob.refresh_from_db()
    assert (bob.banned_at, bob.ban_reason) == (first, "first")
    assert ModerationLog.objects.count() == 1


def test_unban_asks_why_reactivates_and_logs(as_admin, admin_user, bob):
    services.user_ban(admin_user, bob, "spam")

    asked = action(as_admin, "unban_users", [bob])
    assert asked.status_code == 200 and 'name="reason"' in asked.content.decode()
    assert "stay with the bot" in asked.content.decode()
    assert User.objects.get(pk=bob.pk).banned_at is not None
    response = action(as_admin, "unban_users", [bob], apply="yes", reason="appeal accepted")

    assert response.status_code == 302
    bob.refresh_from_db()
    assert bob.is_active and bob.banned_at is None and bob.ban_reason == ""
    log = ModerationLog.objects.order_by("-id").first()
    assert (log.actor, log.action, log.target_user, log.reason) == (
        admin_user,
        "unban",
        bob,
        "appeal accepted",
    )
    assert ModerationLog.objects.count() == 2
    told = [str(m) for m in as_admin.get(reverse(CHANGELIST)).context["messages"]]
    assert told == ["Unbanned 1 user; their seats in play stay with the bot."]


def test_unbanning_someone_not_banned_changes_nothing(as_admin, bob, state):
    before = state()
    action(as_admin, "unban_users", [bob], apply="yes", reason="by mistake")
    assert state() == before
    told = [str(m) for m in as_admin.get(reverse(CHANGELIST)).context["messages"]]
    assert told == ["bob: bob is not banned."]


def test_a_banned_players_token_says_the_account_is_suspended(admin_user, bob):
    _token, raw = services.api_token_create(bob, "bot")
    revoked, revoked_raw = services.api_token_create(bob, "old bot")
    services.api_token_revoke(bob, revoked)
    as_bot = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert as_bot.get("/api/games").status_code == 200

    services.user_ban(admin_user, bob, "cheating")

    refused = as_bot.get("/api/games")
    assert refused.status_code == 403
    assert refused.json()["code"] == "account_suspended"
    assert "suspended" in refused.json()["error"]
    revoked_answer = Client(HTTP_AUTHORIZATION=f"Bearer {revoked_raw}").get("/api/games")
    assert revoked_answer.status_code == 401  # a revoked token says nothing of its owner
    assert Client(HTTP_AUTHORIZATION="Bearer fib_nothing").get("/api/games").status_code == 401
    services.user_unban(admin_user, User.objects.get(pk=bob.pk), "appeal")
    assert as_bot.get("/api/games").status_code == 200


def test_the_moderation_log_names_its_actions_and_links_its_games(as_admin, admin_user, bob):
    from accounts.services import ModerationAction as AccountActions
    from games.services.moderation import ModerationAction as GameActions

    written = {
        value
        for kind in (AccountActions, GameActions)
        for name, value in vars(kind).items()
        if not name.startswith("_")
    } | {"chat_hide", "reveal_hidden"}
    assert written <= set(ModerationLog.Action.values)
    ModerationLog.objects.create(actor=admin_user, action="game_abort", game_id=42, reason="x")

    page = as_admin.get(reverse("admin:accounts_moderationlog_changelist")).content.decode()

    assert "game aborted" in page and ">game_abort<" not in page
    assert f'href="{reverse("admin:games_game_change", args=[42])}"' in page


def test_staff_without_change_permission_cannot_ban(make_user, bob, state):
    staff = make_user("helper", is_staff=True)
    client = Client()
    client.force_login(staff)
    before = state()

    response = action(client, "ban_users", [bob], apply="yes", reason="x")

    assert response.status_code == 403
    assert state() == before


def test_non_staff_cannot_reach_the_admin(alice, state):
    client = Client()
    client.force_login(alice)
    before = state()

    response = action(client, "ban_users", [alice], apply="yes", reason="x")

    assert response.status_code == 302
    assert "/admin/login/" in response.url
    assert state() == before


def test_user_search_and_filters(as_admin, make_user):
    make_user("dora", display_name="Dora the Bluffer")
    make_user("eve")
    services.user_ban(User.objects.get(username="root"), User.objects.get(username="eve"), "x")

    found = as_admin.get(reverse(CHANGELIST), {"q": "Bluffer"})
    assert [u.username for u in found.context["cl"].result_list] == ["dora"]
    found = as_admin.get(reverse(CHANGELIST), {"q": "eve@example.com"})
    assert [u.username for u in found.context["cl"].result_list] == ["eve"]
    banned = as_admin.get(reverse(CHANGELIST), {"banned": "yes"})
    assert [u.username for u in banned.context["cl"].result_list] == ["eve"]
    inactive = as_admin.get(reverse(CHANGELIST), {"is_active__exact": "0"})
    assert [u.username for u in inactive.context["cl"].result_list] == ["eve"]
    staff = as_admin.get(reverse(CHANGELIST), {"is_staff__exact": "1"})
    assert [u.username for u in staff.context["cl"].result_list] == ["root"]


def test_token_admin_shows_the_digest_read_only(as_admin, alice):
    token, _raw = services.api_token_create(alice, "bot")

    response = as_admin.get(reverse("admin:accounts_apitoken_change", args=[token.pk]))

    assert response.status_code == 200
    body = response.content.decode()
    assert token.digest in body
    assert 'name="digest"' not in body
    assert as_admin.get(reverse("admin:accounts_apitoken_add")).status_code == 403


def test_token_admin_revoke_action_goes_through_the_service(as_admin, alice):
    token, _raw = services.api_token_create(alice, "bot")

    as_admin.post(
        reverse("admin:accounts_apitoken_changelist"),
        {"action": "revoke_tokens", ACTION_CHECKBOX_NAME: [token.pk], "index": 0},
    )

    token.refresh_from_db()
    assert token.revoked_at is not None


def test_moderation_log_is_read_only(as_admin, admin_user, bob):
    services.user_ban(admin_user, bob, "spam")
    log = ModerationLog.objects.get()

    assert as_admin.get(reverse("admin:accounts_moderationlog_changelist")).status_code == 200
    assert as_admin.get(reverse("admin:accounts_moderationlog_add")).status_code == 403
    assert (
        as_admin.post(reverse("admin:accounts_moderationlog_delete", args=[log.pk])).status_code
        == 403
    )
    change = as_admin.post(
        reverse("admin:accounts_moderationlog_change", args=[log.pk]), {"reason": "edited"}
    )
    assert change.status_code == 403
    log.refresh_from_db()
    assert log.reason == "spam"


@pytest.mark.parametrize("model", ["friendrequest", "friendship", "block"])
def test_friendship_tables_are_viewable_not_editable(as_admin, model):
    assert as_admin.get(reverse(f"admin:accounts_{model}_changelist")).status_code == 200
    assert as_admin.get(reverse(f"admin:accounts_{model}_add")).status_code == 403


def test_is_active_cannot_be_flipped_by_hand(as_admin, bob):
    response = as_admin.get(reverse("admin:accounts_user_change", args=[bob.pk]))
    body = response.content.decode()
    assert 'name="is_active"' not in body
    assert ApiToken.objects.count() == 0


@pytest.fixture
def moderator(make_user):
    """Staff who may ban: banning needs the user model's change permission."""
    staff = make_user("moderator", is_staff=True)
    staff.user_permissions.add(
        Permission.objects.get(codename="view_user"), Permission.objects.get(codename="change_user")
    )
    client = Client()
    client.force_login(staff)
    return staff, client


def test_a_moderator_cannot_raise_their_own_rights_or_move_a_players_email(moderator, bob):
    staff, client = moderator
    for target, changes in (
        (staff, {"is_superuser": "on", "user_permissions": [1, 2, 3]}),
        (bob, {"email": "mallory@example.net", "is_staff": "on"}),
    ):
        renamed = f"Renamed {target.username}"
        data = {**user_change_form_data(client, target), **changes, "display_name": renamed}
        response = client.post(reverse("admin:accounts_user_change", args=[target.pk]), data)
        assert response.status_code == 302, response.context["adminform"].form.errors
        target.refresh_from_db()
        assert target.display_name == renamed  # what a moderator may fix still saves
    staff.refresh_from_db()
    bob.refresh_from_db()
    assert not staff.is_superuser and staff.user_permissions.count() == 2
    assert bob.email == "bob@example.com" and not bob.is_staff


def test_a_moderator_cannot_set_a_players_password(moderator, bob):
    _staff, client = moderator
    password_url = reverse("admin:auth_user_password_change", args=[bob.pk])  # Django's name
    assert client.get(password_url).status_code == 403
    response = client.post(
        password_url, {"password1": "a-new-password-1", "password2": "a-new-password-1"}
    )
    assert response.status_code == 403
    bob.refresh_from_db()
    assert bob.check_password("a-long-test-password")


def test_a_superuser_still_changes_email_and_rights(as_admin, bob):
    data = {**user_change_form_data(as_admin, bob), "email": "bob@example.net", "is_staff": "on"}
    response = as_admin.post(reverse("admin:accounts_user_change", args=[bob.pk]), data)
    assert response.status_code == 302
    bob.refresh_from_db()
    assert bob.email == "bob@example.net" and bob.is_staff


def test_a_moderator_cannot_ban_staff_and_sees_no_password_link(moderator, make_user, bob):
    _staff, client = moderator
    other = make_user("other-moderator", is_staff=True)
    root = make_user("root2", is_staff=True, is_superuser=True)
    for target in (other, root):
        response = action(client, "ban_users", [target], apply="yes", reason="coup")
        assert response.status_code == 302
        said = client.get(response.url).content.decode()
        assert "Only a superuser can ban staff." in said
        target.refresh_from_db()
        assert target.is_active and target.banned_at is None, target
    action(client, "ban_users", [bob], apply="yes", reason="spam")  # a player: as before
    bob.refresh_from_db()
    assert bob.banned_at is not None
    page = client.get(reverse("admin:accounts_user_change", args=[other.pk])).content.decode()
    assert "/password/" not in page


def test_a_moderators_rename_keeps_the_sign_ups_username_rules(
    moderator, admin_user, alice, bob, carol
):
    """The admin's form refused only the very same spelling: a moderator renaming a player
    could give him "ALICE" beside "alice", or "Аӏісе" in Cyrillic letters, and he passed for
    her at the tables; or a banned player's name in capitals, two of them once she is back
    (a moderation review)."""
    _staff, client = moderator
    page = reverse("admin:accounts_user_change", args=[bob.pk])
    services.user_ban(admin_user, carol, "spam")

    for lookalike in ("ALICE", "Аӏісе", "Carol"):
        data = {**user_change_form_data(client, bob), "username": lookalike}
        refused = client.post(page, data)
        assert refused.status_code == 200
        assert refused.context["adminform"].form.errors["username"] == [
            "Another player already goes by that name, or one that looks the same."
        ]
        assert User.objects.get(pk=bob.pk).username == "bob"
    for fine in ("Bob", "bobby"):  # his own name in other letters' case, or a new one
        data = {**user_change_form_data(client, bob), "username": fine}
        assert client.post(page, data).status_code == 302
        assert User.objects.get(pk=bob.pk).username == fine
    assert ModerationLog.objects.filter(action="user_edited", target_user=bob).count() == 2


def test_a_reported_players_own_page_suspends_their_talk_or_bans_them(
    moderator, make_user, admin_user, bob
):
    """From a report the moderator reaches the player's page, which offered no sanction: the
    list had them, after finding the player there again and ticking him (a moderation review)."""
    staff, client = moderator
    page = reverse("admin:accounts_user_change", args=[bob.pk])
    changelist = reverse(CHANGELIST)

    shown = client.get(page).content.decode()
    assert f'action="{changelist}"' in shown
    assert ">Suspend table talk…<" in shown and ">Ban…<" in shown
    suspend = {"action": "suspend_talk", ACTION_CHECKBOX_NAME: [bob.pk], "_from_object": bob.pk}
    asked = client.post(changelist, suspend)
    assert 'name="days"' in asked.content.decode()
    assert f'name="_from_object" value="{bob.pk}"' in asked.content.decode()
    done = client.post(changelist, {**suspend, "apply": "yes", "days": "7", "reason": "insults"})
    assert done.status_code == 302 and done["Location"] == page  # back on the player
    bob.refresh_from_db()
    assert bob.talk_suspended
    shown = client.get(page).content.decode()
    assert ">Suspend table talk…<" not in shown and ">Ban…<" in shown

    ban = {"action": "ban_users", ACTION_CHECKBOX_NAME: [bob.pk], "_from_object": bob.pk}
    asked = client.post(changelist, ban)
    assert f'name="_from_object" value="{bob.pk}"' in asked.content.decode()
    done = client.post(changelist, {**ban, "apply": "yes", "reason": "went on by email"})
    assert done.status_code == 302 and done["Location"] == page
    assert User.objects.get(pk=bob.pk).banned_at is not None
    assert ">Ban…<" not in client.get(page).content.decode()
    assert [
        (row.actor, row.action, row.target_user) for row in ModerationLog.objects.order_by("id")
    ] == [(staff, "talk_suspended", bob), (staff, "ban", bob)]
    # nothing to offer on their own page, nor on another staff member's
    for other in (staff, make_user("colleague", is_staff=True), admin_user):
        shown = client.get(reverse("admin:accounts_user_change", args=[other.pk])).content
        assert b'class="object-tool-button"' not in shown, other
