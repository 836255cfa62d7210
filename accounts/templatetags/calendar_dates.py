"""Dates in the reader's calendar: the Solar Hijri calendar for Persian readers (the one their
days are counted in, in Iran and Afghanistan), Django's own formats for everyone else.

``{{ value|calendar_date:"DATE_FORMAT" }}`` takes the four format names Django's ``date``
filter knows (DATE_FORMAT, SHORT_DATE_FORMAT, DATETIME_FORMAT, SHORT_DATETIME_FORMAT); a time
of day is the reader's, as with ``date`` (the template engine converts it first).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import jdatetime
from django import template
from django.template.defaultfilters import date as django_date
from django.utils import timezone
from django.utils.translation import get_language

from accounts import time_zones

register = template.Library()

# The months of the Solar Hijri year, as Persian writes them.
PERSIAN_MONTHS = (
    "فروردین",
    "اردیبهشت",
    "خرداد",
    "تیر",
    "مرداد",
    "شهریور",
    "مهر",
    "آبان",
    "آذر",
    "دی",
    "بهمن",
    "اسفند",
)
WITH_TIME = {"DATETIME_FORMAT", "SHORT_DATETIME_FORMAT"}


def solar_hijri(value: date | datetime, fmt: str = "DATE_FORMAT") -> str:
    """``value`` on the Solar Hijri calendar: "11 آذر 1405" (short: "1405/9/11"), with the time
    ("، 14:05") for the datetime formats. Latin digits, as every number the site fills in."""
    day = value.date() if isinstance(value, datetime) else value
    j = jdatetime.date.fromgregorian(date=day)
    if fmt.startswith("SHORT_"):
        text = f"{j.year}/{j.month}/{j.day}"
    else:
        text = f"{j.day} {PERSIAN_MONTHS[j.month - 1]} {j.year}"
    if fmt in WITH_TIME and isinstance(value, datetime):
        text += f"، {value:%H:%M}" if not fmt.startswith("SHORT_") else f" {value:%H:%M}"
    return text


@register.filter(expects_localtime=True)
def calendar_date(value: Any, fmt: str = "DATE_FORMAT") -> str:
    if value in (None, ""):
        return ""
    if get_language() == "fa" and isinstance(value, date):
        return solar_hijri(value, fmt)
    return django_date(value, fmt)


def moment_in_sentence(value: datetime) -> str:
    """An aware moment as the reader reads a date and time (their calendar, their zone), to
    end a sentence: English "5 p.m." gives its full stop to the sentence's own ("p.m..")."""
    return calendar_date(timezone.localtime(value), "DATETIME_FORMAT").removesuffix(".")


def clock_in_sentence(value: datetime) -> str:
    """An aware moment's time of day as the reader reads it (their zone), to end a sentence: for
    a moment within the hour, where a date would only be noise ("1:47 p.m", the sentence's full
    stop closing the abbreviation)."""
    return django_date(timezone.localtime(value), "TIME_FORMAT").removesuffix(".")


@register.filter
def zone_name(value: str | None) -> str:
    """A stored time zone as the reader's language names it ("Česko — Praha")."""
    return time_zones.zone_label(value or time_zones.UTC, get_language() or "en")
