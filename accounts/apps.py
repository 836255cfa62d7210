from typing import Any

from django.apps import AppConfig
from django.db import transaction
from django.db.models.signals import post_migrate, post_save
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = _("Accounts and friends")

    def ready(self) -> None:
        from allauth.mfa import signals as mfa_signals
        from django.contrib.auth.signals import user_logged_out

        from accounts import admin_login, push, signin_log
        from accounts.models import ApiToken, User

        admin_login.install()  # before config/urls.py builds the admin's URLs
        # API tokens are cached (accounts.tokens): a revoked token, a banned player or any
        # other change of the player's row must reach every process on the next request.
        post_save.connect(_token_saved, sender=ApiToken, dispatch_uid="fibbers-token-saved")
        post_save.connect(_user_saved, sender=User, dispatch_uid="fibbers-user-saved")
        user_logged_out.connect(push.logged_out, dispatch_uid="fibbers-push-logged-out")
        mfa_signals.authentication_failed.connect(
            signin_log.code_failed, dispatch_uid="fibbers-code-failed"
        )
        post_migrate.connect(_name_the_site, sender=self, dispatch_uid="fibbers-name-the-site")


def _name_the_site(sender: Any, using: str = "default", **kwargs: Any) -> None:
    """Emails say "Fibbers" and the site's host. Migration 0001 names the site once; a flush
    (``manage.py flush``, every transactional test) empties the table and django.contrib.sites
    puts its "example.com" back on the same signal, earlier (it is installed first)."""
    from urllib.parse import urlsplit

    from django.conf import settings
    from django.contrib.sites.models import Site

    host = urlsplit(settings.SITE_URL).netloc or "localhost"
    Site.objects.using(using).update_or_create(
        pk=settings.SITE_ID, defaults={"domain": host, "name": settings.SITE_NAME}
    )
    Site.objects.clear_cache()


def _token_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if not created:
        from accounts import tokens

        digest = instance.digest
        tokens.forget([digest])  # now, and again after commit (a read in between re-caches)
        transaction.on_commit(lambda: tokens.forget([digest]))


def _user_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if not created:
        from accounts import tokens

        user_id = instance.pk
        tokens.forget_user(user_id)  # now, and again after commit (a read in between re-caches)
        transaction.on_commit(lambda: tokens.forget_user(user_id))
