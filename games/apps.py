from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from accounts.notifications import register_wait_check, register_wait_deadline
        from games.selectors import wait_deadline, wait_is_current

        register_wait_check(wait_is_current)
        register_wait_deadline(wait_deadline)
