# Battledesk: `make run` serves the demo on http://127.0.0.1:8000; `make test` lints and tests.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest-xdist workers for `make test` ("auto": one per core); each has its own test database.
TEST_WORKERS ?= auto
# Python writes its bytecode (__pycache__, ignored by git) even where the environment says not
# to (the Dockerfile's image does): pytest keeps its rewritten test modules there too, so each
# test worker reads them instead of compiling the project and rewriting every test module
# again (27.7 instead of 14.1 CPU seconds to import and collect the suite: docs/testing.md).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install run serve migrate demo lint test test-fast schema bench clean

# Installs when the venv is missing or pyproject.toml changed since the last install: the
# stamp is a copy of the pyproject.toml installed, so a checkout that only touches the file
# (a pull, a new worktree) reinstalls nothing.
install:
	@if [ -x $(PY) ] && [ -f $(STAMP) ] && { [ $(STAMP) -nt pyproject.toml ] || cmp -s pyproject.toml $(STAMP); }; then \
		echo "$(VENV) is up to date with pyproject.toml"; \
	else \
		set -e; \
		$(PYTHON) -m venv $(VENV); \
		$(PY) -m pip install --quiet --upgrade pip; \
		$(PY) -m pip install --quiet -e '.[dev]'; \
		cp pyproject.toml $(STAMP); \
	fi

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

run: demo
	$(PY) manage.py runserver $(HOST):$(PORT)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) manage.py makemigrations --check --dry-run

test: lint
	@if [ -f ../shared/data/boba/plays.json ]; then $(PY) -m engine.boba coverage ../shared/data/boba/plays.json --baseline engine/boba/coverage_baseline.json; else echo "engine coverage skipped: ../shared/data/boba/plays.json is absent"; fi
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadgroup

test-fast: install
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadgroup -x -q -m "not browser"

# The committed OpenAPI snapshot (tests/test_openapi_snapshot.py): run after a deliberate API change.
schema: install
	$(PY) manage.py spectacular --file docs/openapi.yaml

bench: install
	$(PY) bench/engine.py
	$(PY) bench/pairing.py
	$(PY) bench/decks.py
	$(PY) bench/rounds.py
	$(PY) bench/judge_queue.py
	$(PY) bench/checkin.py
	$(PY) bench/round_panel.py
	$(PY) bench/publish_spike.py
	$(PY) bench/live.py
	$(PY) bench/series.py
	$(PY) bench/stages.py
	$(PY) bench/teams.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .mypy_cache
