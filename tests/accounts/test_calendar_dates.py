"""Persian readers read dates on the Solar Hijri calendar; everyone else on Django's own."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from accounts.models import User
from accounts.templatetags.calendar_dates import PERSIAN_MONTHS, solar_hijri
from games import services
from games.models import Game
from games.services.lobby_expiry import expires_at


@pytest.mark.parametrize(
    "day, long, short",
    [
        (date(2026, 3, 21), "1 فروردین 1405", "1405/1/1"),  # Nowruz
        (date(2026, 3, 20), "29 اسفند 1404", "1404/12/29"),  # the year's last day
        (date(2026, 12, 2), "11 آذر 1405", "1405/9/11"),
        (date(2025, 3, 21), "1 فروردین 1404", "1404/1/1"),
    ],
)
def test_known_days_on_the_solar_hijri_calendar(day, long, short):
    assert solar_hijri(day) == long
    assert solar_hijri(day, "SHORT_DATE_FORMAT") == short


def test_a_time_of_day_comes_in_the_readers_zone():
    moment = datetime(2026, 3, 20, 22, 0, tzinfo=timezone.get_fixed_timezone(0))
    rendered = Template('{% load calendar_dates %}{{ t|calendar_date:"DATETIME_FORMAT" }}')
    with translation.override("fa"), timezone.override("Asia/Tehran"):
        # 22:00 UTC on the year's last day is already 01:30 of Nowruz in Tehran
        assert rendered.render(Context({"t": moment})) == "1 فروردین 1405، 01:30"
    with translation.override("en"), timezone.override("UTC"):
        assert rendered.render(Context({"t": moment})) == date_format(moment, "DATETIME_FORMAT")


@pytest.mark.django_db
def test_a_persian_lobby_says_its_expiry_on_the_solar_calendar(alice):
    game = services.game_create(alice, engine="mogel-motte", seats=3)
    assert Game.objects.get(pk=game.pk).status == Game.Status.LOBBY
    client = Client()
    client.force_login(alice)
    User.objects.filter(pk=alice.pk).update(language="fa")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    page = client.get(f"/games/{game.pk}/").content.decode()
    line = page.split('class="muted small lobby-expiry">', 1)[1].split("</p>", 1)[0]
    when = timezone.localtime(expires_at(game)).date()
    assert solar_hijri(when) in line
    assert any(month in line for month in PERSIAN_MONTHS)
    assert str(when.year) not in line  # no Gregorian year beside it
    User.objects.filter(pk=alice.pk).update(language="en")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(f"/games/{game.pk}/").content.decode()
    assert f"is cancelled on {date_format(when)}." in english
    assert expires_at(game) - game.created_at == timedelta(days=14)


def _three_days_away_from(player, monkeypatch, language: str, zone: str) -> str:
    """The page that answers the player's three days' vacation, taken at 20:00 UTC on 18 March
    2027, read in ``language`` with their clock in ``zone``."""
    now = datetime(2027, 3, 18, 20, 0, tzinfo=timezone.get_fixed_timezone(0))
    monkeypatch.setattr(timezone, "now", lambda: now)
    User.objects.filter(pk=player.pk).update(language=language, time_zone=zone)
    client = Client()
    client.force_login(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.post("/games/vacation/", {"days": "3"}, follow=True).content.decode()


@pytest.mark.django_db
def test_a_persian_players_vacation_page_says_its_end_on_the_solar_calendar(alice, monkeypatch):
    # three days from 20:00 UTC on 18 March 2027 end at 23:30 in Tehran on 21 March: Nowruz
    page = _three_days_away_from(alice, monkeypatch, "fa", "Asia/Tehran")
    line = page.split('<p role="status">', 1)[1].split("</p>", 1)[0]
    assert "1 فروردین 1406، 23:30" in line
    assert "2027" not in line  # no Gregorian date beside it


@pytest.mark.django_db
def test_an_english_vacation_end_is_one_sentence_with_one_full_stop(alice, monkeypatch):
    page = _three_days_away_from(alice, monkeypatch, "en", "America/Sao_Paulo")
    # 20:00 UTC is 17:00 in São Paulo; English writes "5 p.m.", not "5 p.m.." ending a sentence
    assert "You are away until March 21, 2027, 5 p.m.</p>" in page
