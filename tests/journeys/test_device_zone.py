"""The profile offers the device's time zone when the saved one differs (static/js/zone.js):
one click picks it, Save keeps it."""

from __future__ import annotations

import pytest

from accounts.models import User

pytestmark = pytest.mark.browser


def _signed_in_page(stack, new_page, player, zone):
    """A page signed in as ``player`` on a device whose clock is in ``zone``."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(player)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    return new_page(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": stack.base}],
        timezone_id=zone,
    )


def test_the_profile_offers_the_devices_time_zone(stack, new_page, make_user):
    player = make_user("zoe")
    assert player.time_zone == "UTC"
    page = _signed_in_page(stack, new_page, player, "Asia/Tehran")
    page.goto(f"{stack.base}/profile/")
    offer = page.locator("[data-device-zone]")
    offer.wait_for(state="visible")
    assert offer.inner_text().endswith("Iran — Tehran")  # as the list names it
    offer.click()
    assert page.locator('select[name="time_zone"]').input_value() == "Asia/Tehran"
    assert offer.is_hidden()
    with page.expect_navigation():
        page.locator('form:has(select[name="time_zone"]) button[type="submit"]').first.click()
    assert User.objects.get(pk=player.pk).time_zone == "Asia/Tehran"
    page.goto(f"{stack.base}/profile/")  # the zone saved is the device's: nothing offered
    page.wait_for_load_state("load")
    assert page.locator("[data-device-zone]").is_hidden()


def test_a_device_reporting_an_old_zone_name_is_offered_its_listed_zone(stack, new_page, make_user):
    """Chromium, like ICU, reports India's zone as "Asia/Calcutta"; the list offers its current
    name. The offer names it in the page's language, and Save stores the listed zone."""
    player = make_user("ravi")
    User.objects.filter(pk=player.pk).update(language="cs")
    page = _signed_in_page(stack, new_page, player, "Asia/Calcutta")
    page.goto(f"{stack.base}/profile/")
    assert page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == "Asia/Calcutta"
    offer = page.locator("[data-device-zone]")
    offer.wait_for(state="visible")
    assert offer.inner_text().endswith("Indie — Kalkata")
    offer.click()
    assert page.locator('select[name="time_zone"]').input_value() == "Asia/Kolkata"
    with page.expect_navigation():
        page.locator('form:has(select[name="time_zone"]) button[type="submit"]').first.click()
    assert User.objects.get(pk=player.pk).time_zone == "Asia/Kolkata"
