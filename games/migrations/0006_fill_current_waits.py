"""Games in play before the wait was stored get their current wait, read from the engine, so
nudges and reminders work for them at once (their deadline stays as it was)."""

from django.db import migrations
from django.utils import timezone


def fill(apps, schema_editor):
    from games.engines import registry  # pure rules code: safe to use in a migration

    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(status="active", wait_seq=0).exclude(state=None).iterator():
        try:
            engine = registry.get(game.engine, game.rules_version)
            waiting = engine.waiting_for(game.state)
        except Exception:  # an unreadable state is left to the sweeper's failure handling
            continue
        game.wait_seq = 1
        game.wait_kind = "" if waiting.kind == "none" else waiting.kind
        game.wait_window = waiting.window or ""
        game.wait_seat = waiting.seats[0] if waiting.kind == "turn" else None
        game.wait_opened_at = game.started_at or timezone.now()
        game.save(
            update_fields=["wait_seq", "wait_kind", "wait_window", "wait_seat", "wait_opened_at"]
        )


class Migration(migrations.Migration):
    dependencies = [("games", "0005_seat_observations")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
