from django.db import migrations, models

from config.migration_operations import AddIndexWithoutLock


class Migration(migrations.Migration):
    atomic = False  # the index is built concurrently: moves keep writing notices meanwhile

    dependencies = [
        ("accounts", "0019_name_key"),
    ]

    operations = [
        AddIndexWithoutLock(
            model_name="notification",
            index=models.Index(
                condition=models.Q(("push", "pending")),
                fields=["created_at"],
                name="notification_push_pending",
            ),
        ),
    ]
