"""The admin's URL filters, limited to what its pages offer.

Django's changelist accepts a filter on any column of the model itself straight from the
query string (``?state__kinds__42=rat``), whatever the list's own filters are. A game's
state, seed and wait mask hold hidden cards; "1 result" or "0 results" would answer any
yes/no question about them for staff who may not read them. So a lookup must start at a
field the page itself filters on, drills into by date, or links to (``linked_lookups``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin import SimpleListFilter
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest

from config.admin_mixins import ModelAdminMixin


def _first_field(lookup: str) -> str:
    return lookup.split(LOOKUP_SEP, 1)[0]


class DeclaredLookupsOnly(ModelAdminMixin):
    """A ModelAdmin mixin: only the declared fields may be filtered through the URL."""

    # fields other admin pages link to with a filter (``?game__id__exact=…``)
    linked_lookups: tuple[str, ...] = ()

    def declared_lookups(self, request: HttpRequest) -> set[str]:
        declared = {"id", "pk", *self.linked_lookups}
        hierarchy = getattr(self, "date_hierarchy", None)
        if hierarchy:
            declared.add(_first_field(hierarchy))
        for item in self.get_list_filter(request):
            if isinstance(item, type) and issubclass(item, SimpleListFilter):
                if item.parameter_name is not None:  # Django refuses a filter without one
                    declared.add(item.parameter_name)  # its own parameter, read by its own code
                continue
            name = item[0] if isinstance(item, (tuple, list)) else item
            # a field's name (the stubs allow a Field, and a ListFilter other than a simple one,
            # which no admin here has)
            declared.add(_first_field(name))  # type: ignore[arg-type]
        return declared

    # the request is required: Django 5.2 always passes it (its request=None form is deprecated)
    def lookup_allowed(self, lookup: str, value: Any, request: HttpRequest) -> bool:  # type: ignore[override]
        if _first_field(lookup) not in self.declared_lookups(request):
            return False
        return super().lookup_allowed(lookup, value, request)
