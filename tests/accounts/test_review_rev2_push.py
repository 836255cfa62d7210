"""Review 2: a shared or public computer stops showing a player's notices once they log out."""

from __future__ import annotations

import ipaddress
import socket

import pytest
from django.test import Client
from django.urls import reverse

from accounts import push
from accounts.models import PushSubscription, User
from tests.push_endpoint import Browser

pytestmark = pytest.mark.django_db


def _subscribe(client: Client, browser: Browser) -> None:
    response = client.post(
        reverse("push_subscribe"), browser.subscription(), content_type="application/json"
    )
    assert response.status_code == 201


def test_logging_out_stops_the_push_of_the_browser_that_subscribed(alice):
    shared = Client()
    shared.force_login(alice)
    _subscribe(shared, Browser("https://1.1.1.1/push/shared-computer"))
    phone = Client()
    phone.force_login(alice)
    _subscribe(phone, Browser("https://1.1.1.1/push/phone"))

    response = shared.post(reverse("account_logout"))

    assert response.status_code == 302
    kept = set(PushSubscription.objects.filter(user=alice).values_list("endpoint", flat=True))
    assert kept == {"https://1.1.1.1/push/phone"}  # the other device still gets them
    assert User.objects.get(pk=alice.pk).push_devices == 1


def test_the_profile_tells_the_script_which_subscriptions_the_server_keeps(alice, bob):
    browser = Browser("https://1.1.1.1/push/one")
    client = Client()
    client.force_login(alice)
    _subscribe(client, browser)
    html = client.get(reverse("profile")).content.decode()
    assert 'data-endpoints="[&quot;https://1.1.1.1/push/one&quot;]"' in html
    client.post(reverse("account_logout"))
    client.force_login(bob)  # the next person at the same computer
    html = client.get(reverse("profile")).content.decode()
    assert 'data-endpoints="[]"' in html  # the browser's old subscription shows as off


def test_a_push_goes_only_to_the_address_that_was_checked(alice, settings, monkeypatch):
    """DNS rebinding: the name answers a public address when it is checked and a private one
    when the push is sent. The server must connect to what it checked, or not at all."""
    settings.PUSH_ALLOW_LOOPBACK = False
    settings.PUSH_TIMEOUT = 1
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    endpoint = f"https://localhost:{port}/push/rebound"
    real = push._addresses
    calls = []

    def rebinding(host: str, port: int):
        calls.append(host)
        return [ipaddress.ip_address("1.1.1.1")] if len(calls) == 1 else real(host, port)

    monkeypatch.setattr(push, "_addresses", rebinding)
    keys = Browser(endpoint).subscription()["keys"]
    subscription = PushSubscription(
        user=alice, endpoint=endpoint, p256dh=keys["p256dh"], auth=keys["auth"]
    )
    try:
        outcome = push._post(subscription, "{}", 60, {"Urgency": "normal"})
        try:
            connection, _address = listener.accept()
        except TimeoutError:
            connection = None
    finally:
        listener.close()
    if connection is not None:
        connection.close()
    assert outcome == "failed"
    assert connection is None, "the server connected to a loopback address it never checked"
