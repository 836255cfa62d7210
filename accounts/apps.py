from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts and friends"

    def ready(self) -> None:
        from accounts import admin_login

        admin_login.install()  # before config/urls.py builds the admin's URLs
