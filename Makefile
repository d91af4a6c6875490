# The two set-up commands of the README: `make serve` and `make test`.
# Both create .venv, install torch==2.13.0 first and alone (the CPU build on
# this machine's disk; unpinned torch pulls a multi-GB CUDA build), then the
# project. Stamps make a re-run fast when nothing changed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export ANONYMIZED_TELEMETRY := False

.PHONY: install index serve test lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.torch-stamp: | $(BIN)/python
	$(BIN)/pip install -q torch==2.13.0
	touch $@

$(VENV)/.install-stamp: pyproject.toml $(VENV)/.torch-stamp
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

install: $(VENV)/.install-stamp

# Ingest the configured corpus (ARBITER_CORPUS); a no-op when nothing changed.
index: install
	$(BIN)/arbiter ingest

# Applies the state database's migrations (ARBITER_DATABASE_URL, or the SQLite file),
# ingests when the index is missing or stale, then serves on HOST:PORT.
serve: install
	$(BIN)/arbiter db upgrade
	$(BIN)/arbiter serve --ensure-index --host $(HOST) --port $(PORT)

# The whole suite: unit, engine goldens, real Chroma (embedded and server),
# the real packaged model, the web API, the browser page (Debian chromium,
# installed here when missing), Discord signatures, and the cluster test (two
# `arbiter serve` over Debian's PostgreSQL 15, installed here when missing, and a
# Chroma server).
test: install
	bash scripts/ensure-chromium.sh
	bash scripts/ensure-postgresql.sh
	$(BIN)/ruff check .
	$(BIN)/mypy --strict engine ingest assistant web arbiter_cli
	$(BIN)/pytest -q

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy --strict engine ingest assistant web arbiter_cli

bench: index
	$(BIN)/python bench/ingest.py
	$(BIN)/python bench/retrieval.py
	$(BIN)/python bench/ask.py
	$(BIN)/python bench/load.py

clean:
	rm -rf $(VENV) .index .data test-artifacts
