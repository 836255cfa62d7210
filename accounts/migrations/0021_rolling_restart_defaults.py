"""Database defaults for the NOT NULL columns that 0009 and 0012 added with a Python default
only (Django drops the column's default once it is filled): while a release before them is
still serving (a rolling restart after ``migrate``), its processes insert rows without these
columns. Without a default every move failed there (its notices: ``null value in column
"language"``), and so did every friend request (``by_email``). A catalogue change each.
Before 0022's fill, so that the window ends a few seconds after 0012, not after the fill.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0020_notification_push_pending"),
    ]

    operations = [
        migrations.AlterField(
            model_name="friendrequest",
            name="by_email",
            field=models.BooleanField(
                db_default=False,
                default=False,
                help_text="The sender typed an address: their list does not show whose it is until the request is answered.",
                verbose_name="sent to an email address",
            ),
        ),
        migrations.AlterField(
            model_name="notification",
            name="language",
            field=models.CharField(blank=True, db_default="", default="", max_length=10),
        ),
    ]
