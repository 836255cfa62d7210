"""Every player's shown name gets its look-alike key (0019 added the column; the model's save
writes it from then on), a thousand players a transaction.

0019 did this itself, inside its one transaction: ADD COLUMN's exclusive lock on accounts_user
lasted until the last player was written (66 s for 300,000 players), and every request of a
signed-in player, which reads its user row, waited for it (and failed after the 5 s lock
timeout). Here each batch is a transaction of its own that locks only its rows, briefly; the
table stays open to reads and writes. A site that filled the keys in 0019 before this moved
reads its players again and writes none (a key equal to the computed one is left alone).
A later change of the key's rules (a new confusables table) re-keys in a migration of its own.
"""

from django.db import migrations, transaction

from accounts.name_keys import name_key

BATCH = 1000


def fill_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    alias = schema_editor.connection.alias
    after = 0
    while True:
        with transaction.atomic(using=alias):
            users = list(
                User.objects.using(alias)
                .filter(pk__gt=after)
                .order_by("pk")
                .only("pk", "display_name", "username", "name_key")[:BATCH]
            )
            if not users:
                return
            after = users[-1].pk
            changed = []
            for user in users:
                key = name_key(user.display_name or user.username)
                if user.name_key != key:
                    user.name_key = key
                    changed.append(user)
            # small CASE statements: PostgreSQL's time for one grows with its length squared
            User.objects.using(alias).bulk_update(changed, ["name_key"], batch_size=250)


class Migration(migrations.Migration):
    atomic = False  # a transaction per batch (fill_keys): no lock on the table for the whole fill

    dependencies = [
        ("accounts", "0021_rolling_restart_defaults"),
    ]

    operations = [
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
