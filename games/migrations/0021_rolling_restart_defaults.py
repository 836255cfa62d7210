"""A database default for games_game.start_when_full, which 0019 added with a Python default
only: processes of the release before it, still serving during a rolling restart after
``migrate``, create tables without the column (``null value in column "start_when_full"``).
A catalogue change."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_admin_words"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="start_when_full",
            field=models.BooleanField(
                db_default=False, default=False, verbose_name="start when every seat is taken"
            ),
        ),
    ]
