# Each target creates .venv on first use and installs the project into it.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench gallery lint clean

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed (set PYTHON=...)"; exit 1; }
	@$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	@echo "installing Tavolo and its dependencies into $(VENV) ..." >&2
	@$(BIN)/python -m pip install --quiet --upgrade pip >&2
	@$(BIN)/python -m pip install --quiet -e ".[test,bench]" >&2
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

test: $(STAMP)
	$(BIN)/python -m pytest

# stdout is one JSON document (progress goes to stderr): make bench > bench.json
bench: $(STAMP)
	@$(BIN)/python -m bench

gallery: $(STAMP)
	$(BIN)/python -m renderer.gallery out/gallery

lint: $(STAMP)
	$(BIN)/ruff check engine renderer bot tests bench

clean:
	rm -rf $(VENV) out
