.PHONY: run test lint bench
run:  ## run the site on embedded defaults (SQLite, in-memory layer, filesystem broker)
	scripts/run.sh
test: ## the whole suite against real PostgreSQL and Redis
	scripts/test.sh
lint:
	scripts/venv.sh dev && .venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/lint-imports && .venv/bin/mypy
