from django.db import migrations


class Migration(migrations.Migration):
    """Reminders and nudges are keyed on the wait, not on the version."""

    dependencies = [("games", "0002_seat_nudged_for_version_seat_reminded_for_version_and_more")]

    operations = [
        migrations.RenameField("seat", "reminded_for_version", "reminded_for_wait"),
        migrations.RenameField("seat", "nudged_for_version", "nudged_for_wait"),
    ]
