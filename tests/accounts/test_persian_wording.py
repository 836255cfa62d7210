"""Sign-in and sign-up speak to a Persian reader as the rest of the site does (formal «شما»,
«گذرواژه»), not in allauth's and Django's own informal wording (locale_overrides/)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db


def _persian() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    return client


def test_the_login_page_is_formal():
    page = _persian().get("/accounts/login/").content.decode()
    assert "گذرواژه‌تان را فراموش کرده‌اید؟" in page
    assert "اگر هنوز حسابی ندارید" in page
    assert '<label for="id_login">نام کاربری یا ایمیل' in page  # not «ورود», the button's word
    for informal in ("کرده‌ای؟", "یه حساب", "نساختی"):
        assert informal not in page


def test_a_short_password_is_refused_in_the_sites_words():
    answer = _persian().post(
        "/accounts/signup/",
        {"email": "new@example.com", "username": "newbie", "password1": "abc", "password2": "abc"},
    )
    page = answer.content.decode()
    assert "این گذرواژه خیلی کوتاه است" in page
    assert "رمز عبور" not in page
