"""A form's target that only a POST uses, opened by GET: a sign-in that interrupted the form's
POST sends the browser back to it (``?next=``), as do a reload and a typed address. Django's
``require_POST`` answered those with a blank 405: no words in any language, no way on. Each now
sends the browser to the page its form is on."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

FORM_PAGES = {
    reverse("api_token_create"): reverse("profile"),
    reverse("api_token_revoke", args=[1]): reverse("profile"),
    reverse("push_subscribe"): reverse("profile"),
    reverse("push_unsubscribe"): reverse("profile"),
    reverse("push_kinds"): reverse("profile"),
    reverse("friend_request_send"): reverse("friends"),
    reverse("friend_remove", args=[1]): reverse("friends"),
    reverse("block", args=[1]): reverse("friends"),
    reverse("unblock", args=[1]): reverse("friends"),
    reverse("notifications_read"): reverse("notifications"),
    reverse("set_language"): reverse("home"),
}


@pytest.mark.parametrize(("target", "page"), FORM_PAGES.items())
def test_a_form_target_opened_by_get_leads_to_its_forms_page(alice, target, page):
    client = Client()
    client.force_login(alice)
    response = client.get(target)
    assert (response.status_code, response.get("Location")) == (302, page)


def test_the_friend_request_answers_lead_to_friends(alice):
    client = Client()
    client.force_login(alice)
    for name in ("friend_request_accept", "friend_request_decline", "friend_request_cancel"):
        response = client.get(reverse(name, args=[1]))
        assert (response.status_code, response.get("Location")) == (302, reverse("friends"))


def test_after_a_sign_in_that_interrupted_the_post_the_player_lands_on_the_page(alice):
    client = Client()
    target = reverse("api_token_create")
    asked = client.post(target, {"name": "bot"})
    assert asked.status_code == 302 and "next=" in asked["Location"]
    client.force_login(alice)
    landed = client.get(target, follow=True)
    assert landed.status_code == 200
    assert landed.redirect_chain[-1][0] == reverse("profile")


def test_a_post_still_does_what_it_did(alice):
    client = Client()
    client.force_login(alice)
    response = client.post(reverse("notifications_read"))
    assert response.status_code == 302
