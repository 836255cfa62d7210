"""Table talk lines numbered per table and channel (ChatMessage.seq): the page, its socket and
the report form named lines by their id, which counts every line of the site. The lines already
written are numbered in the order they were written.

The column has a database default: processes of the release before it, still serving during a
rolling restart after ``migrate``, insert lines without it (number 0, which the constraint
leaves out)."""

from typing import Any

from django.db import migrations, models

from config.migration_operations import AddConstraintWithoutLock


def number_the_lines(apps: Any, schema_editor: Any) -> None:
    ChatMessage = apps.get_model("games", "ChatMessage")
    last: dict[tuple[int, str], int] = {}
    batch = []
    for line in ChatMessage.objects.order_by("id").only("id", "game_id", "channel").iterator():
        key = (line.game_id, line.channel)
        last[key] = line.seq = last.get(key, 0) + 1
        batch.append(line)
        if len(batch) >= 1000:
            ChatMessage.objects.bulk_update(batch, ["seq"])
            batch = []
    ChatMessage.objects.bulk_update(batch, ["seq"])


class Migration(migrations.Migration):
    atomic = False  # the unique index is built concurrently: the site writes lines meanwhile
    dependencies = [
        ("games", "0021_rolling_restart_defaults"),
    ]

    operations = [
        migrations.AddField(
            model_name="chatmessage",
            name="seq",
            field=models.PositiveIntegerField(
                db_default=0, default=0, verbose_name="number at its table"
            ),
        ),
        migrations.RunPython(
            number_the_lines, migrations.RunPython.noop, elidable=True, atomic=True
        ),
        AddConstraintWithoutLock(
            model_name="chatmessage",
            constraint=models.UniqueConstraint(
                condition=models.Q(seq__gt=0),
                fields=("game", "channel", "seq"),
                name="one_chat_line_number",
            ),
        ),
    ]
