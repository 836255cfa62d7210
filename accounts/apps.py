from typing import Any

from django.apps import AppConfig
from django.db import transaction
from django.db.models.signals import post_save


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts and friends"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from accounts import admin_login, push
        from accounts.models import ApiToken, User

        admin_login.install()  # before config/urls.py builds the admin's URLs
        # API tokens are cached (accounts.tokens): a revoked token, a banned player or any
        # other change of the player's row must reach every process on the next request.
        post_save.connect(_token_saved, sender=ApiToken, dispatch_uid="fibbers-token-saved")
        post_save.connect(_user_saved, sender=User, dispatch_uid="fibbers-user-saved")
        user_logged_out.connect(push.logged_out, dispatch_uid="fibbers-push-logged-out")


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
