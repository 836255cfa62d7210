from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from games.api import api

urlpatterns = [
    path("", account_views.home, name="home"),
    path("favicon.ico", account_views.favicon, name="favicon"),
    # before Django's own: the same switch, remembered in a signed-in player's profile
    path("i18n/setlang/", account_views.set_language),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("games/", include("games.urls")),
    path("api/", api.urls),
    *([path("bench/", include("games.bench"))] if settings.BENCH_ENDPOINTS else []),
    path("", include("accounts.urls")),
]

handler404 = "config.guard.page_not_found"
handler500 = "config.guard.server_error"  # 503 + Retry-After when the database is out of reach
