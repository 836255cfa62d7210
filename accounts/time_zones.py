"""Time zones as a player reads them: "Česko — Praha", "ایران — تهران", not "Europe/Prague".

The profile stores an IANA name. It offers the zones of the tz database's ``zone.tab`` (one
per country region, under their current names) and UTC, labelled "country — city" in the
page's language from CLDR (through babel). Older names of the same zone, which browsers still
report ("Asia/Calcutta", "America/Buenos_Aires"), are taken and stored as the offered name.
"""

from __future__ import annotations

import unicodedata
import zoneinfo
from functools import cache
from pathlib import Path

from babel import Locale
from babel.core import UnknownLocaleError, get_global

UTC = "UTC"
# Without a readable zone.tab: the zones under a continent or ocean (the legacy "US/…",
# "Etc/…" names are left out; they remain accepted, see offered_zone)
REGIONS: tuple[str, ...]
REGIONS = ("Africa/", "America/", "Antarctica/", "Arctic/", "Asia/", "Atlantic/", "Australia/")
REGIONS += ("Europe/", "Indian/", "Pacific/")


@cache
def offered_zones() -> frozenset[str]:
    known = zoneinfo.available_timezones()
    for folder in zoneinfo.TZPATH:
        table = Path(folder) / "zone.tab"
        if table.is_file():
            rows = (line.split("\t") for line in table.read_text().splitlines())
            listed = {row[2].strip() for row in rows if len(row) > 2 and not row[0].startswith("#")}
            return frozenset((listed & known) | {UTC})
    return frozenset({zone for zone in known if zone.startswith(REGIONS)} | {UTC})


def _current_name(zone: str) -> str:
    """The tz database's current name for an old one ("Asia/Calcutta" → "Asia/Kolkata")."""
    return get_global("zone_aliases").get(zone, zone)


@cache
def _cldr_ids() -> dict[str, tuple[str, ...]]:
    """Every name of a zone, by its current name: CLDR keys its city names by the old ones
    ("Asia/Calcutta"), the profile stores the current one."""
    names: dict[str, list[str]] = {}
    for old, current in get_global("zone_aliases").items():
        names.setdefault(current, [current]).append(old)
    return {current: tuple(all_names) for current, all_names in names.items()}


@cache
def _offered_by_current_name() -> dict[str, str]:
    return {_current_name(zone): zone for zone in offered_zones()}


def offered_zone(name: str) -> str | None:
    """The offered zone ``name`` stands for (itself, or the current name of an old one), or
    None for a name the tz database does not know."""
    if name in offered_zones():
        return name
    if not name or name not in zoneinfo.available_timezones():
        return None
    return _offered_by_current_name().get(_current_name(name), name)


def _locale(language: str) -> Locale:
    try:
        return Locale.parse(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


def _city(zone: str, locale: Locale) -> str:
    current = _current_name(zone)
    names = _cldr_ids().get(current, (current,))
    for cities in (locale.time_zones, Locale.parse("en").time_zones):
        for name in names:
            city = cities.get(name, {}).get("city")
            if city:
                return city
    # CLDR names a city only where it differs from the zone's own last part
    return current.rsplit("/", 1)[-1].replace("_", " ")


def zone_label(zone: str, language: str) -> str:
    """ "country — city" in ``language``; the city alone where CLDR names no country."""
    if zone == UTC:
        return UTC
    locale = _locale(language)
    territories = get_global("zone_territories")
    current = _current_name(zone)
    territory = next(
        (territories[name] for name in _cldr_ids().get(current, (current,)) if name in territories),
        None,
    )
    country = locale.territories.get(territory) if territory and territory != "001" else None
    city = _city(zone, locale)
    return f"{country} — {city}" if country else city


def _sort_key(label: str) -> str:
    # accents and case do not move a name to the end of the list ("Česko" among the Cs)
    folded = unicodedata.normalize("NFKD", label.casefold())
    return "".join(char for char in folded if not unicodedata.combining(char))


@cache
def zone_choices(language: str) -> tuple[tuple[str, str], ...]:
    """The profile's list in ``language``: UTC first, then by label."""
    labelled = [(zone, zone_label(zone, language)) for zone in offered_zones() if zone != UTC]
    labelled.sort(key=lambda choice: (_sort_key(choice[1]), choice[0]))
    return ((UTC, UTC), *labelled)


@cache
def old_names() -> dict[str, str]:
    """Old names browsers report, each to the offered zone it stands for (for the profile's
    "Use this device's time zone" button)."""
    old = (zone for zone in zoneinfo.available_timezones() if zone not in offered_zones())
    return {zone: offered for zone in old if (offered := offered_zone(zone)) and offered != zone}
