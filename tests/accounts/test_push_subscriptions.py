"""Web push subscriptions: what the subscribe view accepts and refuses (SSRF), the per-kind
choices, the device list, the service worker, and a site without VAPID keys."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import Notification, PushSubscription, User
from tests.push_endpoint import Browser, b64

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_of():
    def make(user: User) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return make


def post_subscription(client: Client, subscription: dict, agent: str = "") -> object:
    return client.post(
        reverse("push_subscribe"),
        subscription,
        content_type="application/json",
        HTTP_USER_AGENT=agent,
    )


def test_a_browser_subscribes_through_the_view_and_is_counted(alice, client_of):
    browser = Browser("https://1.1.1.1/push/abc")  # a public address (no DNS needed here)
    response = post_subscription(
        client_of(alice),
        browser.subscription(),
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36",
    )
    assert response.status_code == 201
    subscription = PushSubscription.objects.get(user=alice)
    assert subscription.endpoint == browser.endpoint
    assert subscription.p256dh == browser.subscription()["keys"]["p256dh"]
    assert subscription.label == "Chrome / Windows"
    assert User.objects.get(pk=alice.pk).push_devices == 1


@pytest.mark.parametrize(
    ("endpoint", "code"),
    [
        ("http://1.1.1.1/push/abc", "not_https"),
        ("https://10.0.0.5/push", "private_endpoint"),
        ("https://192.168.1.20/push", "private_endpoint"),
        ("https://172.16.0.1/push", "private_endpoint"),
        ("https://169.254.169.254/latest/meta-data/", "private_endpoint"),
        ("https://100.64.0.1/push", "private_endpoint"),
        ("https://0.0.0.0/push", "private_endpoint"),
        ("https://[fd00::1]/push", "private_endpoint"),
        ("https://[::ffff:10.0.0.1]/push", "private_endpoint"),
        ("https://224.0.0.1/push", "private_endpoint"),
        ("https://push.invalid/abc", "unknown_host"),
        ("ftp://1.1.1.1/push", "bad_endpoint"),
        ("https://user:secret@1.1.1.1/push", "bad_endpoint"),
        ("javascript:alert(1)", "bad_endpoint"),
        ("", "bad_endpoint"),
        ("https://1.1.1.1/" + "a" * 1000, "bad_endpoint"),
    ],
)
def test_endpoints_that_are_not_https_or_not_public_are_refused(alice, client_of, endpoint, code):
    response = post_subscription(client_of(alice), Browser(endpoint).subscription())
    assert response.status_code == 400
    assert response.json()["error"] == code
    assert response.json()["message"]
    assert not PushSubscription.objects.exists()
    assert User.objects.get(pk=alice.pk).push_devices == 0


@override_settings(PUSH_ALLOW_LOOPBACK=False)
@pytest.mark.parametrize(
    "endpoint",
    [
        "https://127.0.0.1/push",
        "http://127.0.0.1:8000/push",
        "https://[::1]/push",
        "https://localhost/push",
        "http://localhost:6379/",
    ],
)
def test_loopback_is_refused_unless_the_setting_allows_it_for_tests(alice, client_of, endpoint):
    response = post_subscription(client_of(alice), Browser(endpoint).subscription())
    assert response.status_code == 400
    assert response.json()["error"] == "private_endpoint"


def test_with_loopback_allowed_only_loopback_may_skip_https(alice, client_of):
    client = client_of(alice)
    assert (
        post_subscription(client, Browser("http://127.0.0.1:9/p").subscription()).status_code == 201
    )
    refused = post_subscription(client, Browser("http://1.1.1.1/p").subscription())
    assert refused.json()["error"] == "not_https"


def test_keys_that_are_not_a_p256_point_and_a_16_byte_secret_are_refused(alice, client_of):
    client = client_of(alice)
    good = Browser("https://1.1.1.1/push/k").subscription()
    for keys in (
        {"p256dh": b64(b"\x04" + b"\x01" * 64), "auth": good["keys"]["auth"]},  # not on the curve
        {"p256dh": good["keys"]["p256dh"], "auth": b64(b"short")},
        {"p256dh": "not base64 at all!", "auth": good["keys"]["auth"]},
        {"p256dh": good["keys"]["p256dh"]},
    ):
        response = post_subscription(client, {**good, "keys": keys})
        assert response.status_code == 400
    assert post_subscription(client, {"nonsense": True}).status_code == 400
    assert not PushSubscription.objects.exists()


def test_a_player_keeps_at_most_a_handful_of_devices_the_newest_ones(alice, client_of, settings):
    client = client_of(alice)
    endpoints = [f"https://1.1.1.1/push/{n}" for n in range(settings.PUSH_MAX_DEVICES + 2)]
    for endpoint in endpoints:
        assert post_subscription(client, Browser(endpoint).subscription()).status_code == 201
    kept = set(PushSubscription.objects.filter(user=alice).values_list("endpoint", flat=True))
    assert kept == set(endpoints[2:])
    assert User.objects.get(pk=alice.pk).push_devices == settings.PUSH_MAX_DEVICES


def test_a_browser_shared_by_two_players_pushes_to_the_last_to_subscribe(alice, bob, client_of):
    browser = Browser("https://1.1.1.1/push/shared")
    post_subscription(client_of(alice), browser.subscription())
    post_subscription(client_of(bob), browser.subscription())
    assert PushSubscription.objects.get(endpoint=browser.endpoint).user == bob
    assert User.objects.get(pk=alice.pk).push_devices == 0
    assert User.objects.get(pk=bob.pk).push_devices == 1


def test_a_device_is_removed_by_its_script_or_from_the_profile_list(alice, bob, client_of):
    client = client_of(alice)
    first, second = Browser("https://1.1.1.1/a"), Browser("https://1.1.1.1/b")
    post_subscription(client, first.subscription())
    post_subscription(client, second.subscription())
    response = client.post(
        reverse("push_unsubscribe"), {"endpoint": first.endpoint}, content_type="application/json"
    )
    assert response.json() == {"ok": True}
    other = PushSubscription.objects.get(user=alice)
    # another player cannot remove it
    client_of(bob).post(reverse("push_unsubscribe"), {"subscription": other.pk})
    assert PushSubscription.objects.filter(pk=other.pk).exists()
    response = client.post(reverse("push_unsubscribe"), {"subscription": other.pk}, follow=True)
    assert not PushSubscription.objects.filter(user=alice).exists()
    assert User.objects.get(pk=alice.pk).push_devices == 0
    assert "no more push notifications" in response.content.decode()


def test_per_kind_choices_are_saved_from_the_profile(alice, client_of):
    assert set(alice.push_kinds) == {kind.value for kind in Notification.Kind}
    client = client_of(alice)
    response = client.post(reverse("push_kinds"), {"kinds": ["turn", "window"]})
    assert response.status_code == 302
    assert User.objects.get(pk=alice.pk).push_kinds == ["turn", "window"]
    client.post(reverse("push_kinds"), {"kinds": ["turn", "no-such-kind"]})  # refused whole
    assert User.objects.get(pk=alice.pk).push_kinds == ["turn", "window"]
    client.post(reverse("push_kinds"), {})
    assert User.objects.get(pk=alice.pk).push_kinds == []
    page = client.get(reverse("profile")).content.decode()
    for kind in Notification.Kind:
        assert f'value="{kind.value}"' in page


def test_the_profile_offers_the_control_with_the_sites_public_key(alice, client_of, settings):
    page = client_of(alice).get(reverse("profile")).content.decode()
    assert f'data-key="{settings.VAPID_PUBLIC_KEY}"' in page
    assert "js/push.js" in page
    assert reverse("push_subscribe") in page


@override_settings(VAPID_PRIVATE_KEY="", VAPID_PUBLIC_KEY="")
def test_without_vapid_keys_push_is_off_and_the_profile_says_so(alice, client_of):
    client = client_of(alice)
    page = client.get(reverse("profile")).content.decode()
    assert "Push notifications are not set up on this site." in page
    assert "js/push.js" not in page
    response = post_subscription(client, Browser("https://1.1.1.1/push/x").subscription())
    assert response.status_code == 400 and response.json()["error"] == "push_off"


def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client):
    response = client.get("/push-sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert "showNotification" in body and "notificationclick" in body and "openWindow" in body


def test_subscribing_needs_a_signed_in_player_and_a_post(client):
    browser = Browser("https://1.1.1.1/push/anon")
    response = post_subscription(client, browser.subscription())
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not PushSubscription.objects.exists()


@override_settings(
    PUSH_SERVICE_HOSTS=("fcm.googleapis.com", "push.services.mozilla.com", "push.apple.com"),
    PUSH_ALLOW_LOOPBACK=False,
)
@pytest.mark.parametrize(
    "endpoint",
    [
        "https://1.1.1.1/push/abc",  # public, but no browser's push service
        "https://example.com/push",
        "https://fcm.googleapis.com.evil.example/push",
        "https://notfcm.googleapis.com.example/x",
    ],
)
def test_only_the_browsers_push_services_are_accepted(alice, client_of, endpoint):
    response = post_subscription(client_of(alice), Browser(endpoint).subscription())
    assert response.status_code == 400
    assert response.json()["error"] == "unknown_service"
    assert not PushSubscription.objects.exists()


@override_settings(PUSH_SERVICE_HOSTS=("fcm.googleapis.com", "push.apple.com"))
def test_the_push_services_match_by_host_or_parent_domain():
    from accounts.push import _known_service

    assert _known_service("fcm.googleapis.com")
    assert _known_service("web.push.apple.com")
    assert _known_service("FCM.googleapis.com.")
    assert not _known_service("googleapis.com")
    assert not _known_service("evilpush.apple.com.example")
    assert not _known_service("xfcm.googleapis.com")
