from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from allauth.account.signals import password_changed, password_reset, password_set
        from django.contrib.auth.signals import user_logged_in, user_logged_out
        from django.db.models.signals import post_delete, post_save

        from accounts.models import ApiToken
        from accounts.notifications import (
            register_reminder_words,
            register_wait_check,
            register_wait_deadline,
        )
        from games import broadcast
        from games.broadcast import session_ended, session_started
        from games.selectors import wait_deadlines, waits_current
        from games.services.notify import reminder_words

        user_logged_in.connect(session_started, dispatch_uid="fibbers-sockets-logged-in")
        user_logged_out.connect(session_ended, dispatch_uid="fibbers-sockets-logged-out")
        password_changed.connect(broadcast.password_changed, dispatch_uid="fibbers-sockets-pw")
        password_set.connect(broadcast.password_changed, dispatch_uid="fibbers-sockets-pw-set")
        password_reset.connect(broadcast.password_reset, dispatch_uid="fibbers-sockets-pw-reset")
        # a revoked token's sockets close (games/socket_tokens.py)
        post_save.connect(broadcast.token_saved, sender=ApiToken, dispatch_uid="fibbers-token-ws")
        post_delete.connect(
            broadcast.token_deleted, sender=ApiToken, dispatch_uid="fibbers-token-ws-gone"
        )

        register_wait_check(waits_current)
        register_wait_deadline(wait_deadlines)
        register_reminder_words(reminder_words)
