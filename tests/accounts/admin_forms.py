"""The admin's user change form, as its page would post it back unchanged."""

from __future__ import annotations

from django.urls import reverse


def user_change_form_data(client, user) -> dict:
    page = client.get(reverse("admin:accounts_user_change", args=[user.pk]))
    form = page.context["adminform"].form
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else value
    return data
