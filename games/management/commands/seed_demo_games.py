"""Gives each demo player a started table of every game against bots (once), and one table
for alice, bob and carol together, so a newcomer can play within a minute of cloning."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from accounts.management.commands.seed_demo import refuse_on_a_real_site
from accounts.models import User
from games import services
from games.engines import registry
from games.models import Game, Pace


class Command(BaseCommand):
    help = "Create demo tables against bots for the demo players (safe to rerun)."

    def handle(self, *args: object, **options: object) -> None:
        refuse_on_a_real_site()  # real players may be called alice, bob and carol
        players = list(
            User.objects.filter(username__in=["alice", "bob", "carol"]).order_by("username")
        )
        if len(players) < 3 or Game.objects.filter(created_by__in=players).exists():
            return
        alice, bob, carol = players
        for slug, engine in sorted(registry.ENGINES.items()):
            seats = max(engine.min_players, 3)
            game = services.game_create(
                alice, engine=slug, seats=seats, bots=seats - 1, pace=Pace.DAILY
            )
            services.game_start(alice, game.pk)
        # the three friends at one table: the last game (by slug) that seats three
        slug = [s for s, e in sorted(registry.ENGINES.items()) if e.min_players <= 3][-1]
        together = services.game_create(alice, engine=slug, seats=3, invite=["bob", "carol"])
        services.game_join(bob, together.pk)
        services.game_join(carol, together.pk)
        services.game_start(alice, together.pk)
        self.stdout.write(
            "Demo tables: one per game for alice against bots, and one for alice, bob and carol."
        )
