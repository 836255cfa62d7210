"""The site's URLs plus one view that raises: to see the 500 page as a visitor would."""

from django.urls import path

from config.urls import handler500
from config.urls import urlpatterns as site_urls


def boom(request):
    raise RuntimeError("a bug, on purpose")


urlpatterns = [path("boom/", boom), *site_urls]
__all__ = ["handler500", "urlpatterns"]
