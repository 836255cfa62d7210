from django.conf import settings
from django.http import HttpRequest

from accounts.notifications import unread_count


def site(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    unread = unread_count(user) if user is not None and user.is_authenticated else 0
    return {"SITE_NAME": settings.SITE_NAME, "unread_notifications": unread}
