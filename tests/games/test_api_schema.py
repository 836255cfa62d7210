"""The OpenAPI schema tells the truth: schemathesis drives every operation in-process (WSGI,
real PostgreSQL and Redis) with a signed-in token and checks that no answer is a server error,
every status is documented and every body matches its schema (errors: the ``Error`` schema)."""

from __future__ import annotations

from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from accounts.services import api_token_create
from config.wsgi import application

EXAMPLES = 30  # per operation: a bounded run that fits the suite's time


@pytest.fixture
def token(transactional_db, started):
    # Transactional: the WSGI app closes the connection after each request, as in production.
    game = started("cockroach-poker-royal")
    return api_token_create(game.seats.get(index=0).user, "schemathesis")[1]


# Loaded at collection through the app itself (the schema view touches no database).
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)
CALLS: Counter = Counter()


@pytest.fixture(scope="module", autouse=True)
def _report_calls():
    yield
    print(f"\nschemathesis: {sum(CALLS.values())} cases, statuses {dict(sorted(CALLS.items()))}")


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_api_answers_as_documented(case, token):
    # Every default check but one: "schema-valid data is accepted" cannot hold for a game API,
    # where a well-formed move may be illegal now (400) by the rules, not by its shape.
    response = case.call_and_validate(
        headers={"Authorization": f"Bearer {token}"},
        excluded_checks=[positive_data_acceptance],
    )
    CALLS[response.status_code] += 1
