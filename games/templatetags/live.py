"""``{% live "name" %}…{% endlive %}``: a part of a page the script may swap in place.

It wraps its content in ``<div data-live="name" data-sig="…">``. The signature is a hash of
the content without what changes on every render but means nothing to the player (the CSRF
token, a form's idempotency key, the version it was drawn at): the page swaps a part only
when its signature changed, so an open form whose choices did not change is left alone.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()

VOLATILE = re.compile(r'name="(?:csrfmiddlewaretoken|key|version)" value="[^"]*"|data-now="[^"]*"')


def signature(html: str) -> str:
    return hashlib.sha1(VOLATILE.sub("", html).encode()).hexdigest()[:12]


class LiveNode(template.Node):
    def __init__(self, name: template.base.FilterExpression, nodelist: template.NodeList) -> None:
        self.name = name
        self.nodelist = nodelist

    def render(self, context: Any) -> str:
        inner = self.nodelist.render(context)
        name = self.name.resolve(context)
        return format_html(
            '<div data-live="{}" data-sig="{}">{}</div>', name, signature(inner), mark_safe(inner)
        )


@register.tag
def live(parser: template.base.Parser, token: template.base.Token) -> LiveNode:
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("{% live name %} takes one argument")
    nodelist = parser.parse(("endlive",))
    parser.delete_first_token()
    return LiveNode(parser.compile_filter(bits[1]), nodelist)
