"""Every language is offered by its own name, capitalised alike, in the menu and the profile:
a Czech page offered «Francouzština», and the menu mixed «česky» with «Português»."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db

OWN = ["English", "فارسی", "Čeština", "Português", "Français"]


def _options(html: str, select: str) -> list[str]:
    block = html.split(select, 1)[1].split("</select>", 1)[0]
    return [text.strip() for text in re.findall(r"<option[^>]*>([^<]*)</option>", block)]


def test_the_menu_and_the_profile_name_each_language_in_itself(alice):
    client = Client()
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"
    assert _options(client.get("/games/").content.decode(), 'id="language-select"') == OWN
    profile = client.get("/profile/").content.decode()
    assert _options(profile, 'name="language"') == OWN
    assert "Francouzština" not in profile
