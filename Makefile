# Each target creates .venv on first use and installs the project into it.
#
# Python: the newest supported one that runs here (python3.13, python3.12, python3.11, then
# python3), unless PYTHON is given (make test PYTHON=python3.12). An unsupported PYTHON is refused.
# If .venv was made with another Python than the chosen one, it is made anew before use.
SUPPORTED_PYTHONS := 3.13 3.12 3.11
SUPPORTED_TEXT := 3.11, 3.12 or 3.13
PYTHON ?=
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Installing builds the optional C parts of the Klondike, Canfield and FreeCell solvers
# (setup.py): a change to any of these installs (and so compiles) again.
#
# Every package comes at the version uv.lock names, nothing newer (an upstream release once
# broke every fresh install: README, "Locked dependencies"). The venv's own pip installs uv
# (itself pinned), and `uv sync --locked` makes the venv exactly one of two locked sets,
# removing whatever else is there:
#   run  (make run) the runtime set, the PostgreSQL driver included: no test or bench tool
#   dev  (every other target) the test and bench extras as well
# Switching between them takes under a second (uv's cache). --locked refuses a uv.lock that no
# longer matches pyproject.toml (make lock writes it anew). uv rather than pip: about 9 s on a
# fresh clone here instead of pip's 55 s (parallel, and no byte-compiling of every package).
UV_VERSION := 0.13.9
RUN_EXTRAS := --extra postgres
DEV_EXTRAS := --all-extras
INSTALL_SET := dev
run: INSTALL_SET := run

# Python writes its bytecode caches (__pycache__, ignored by git) for Tavolo's own modules, the
# packages in .venv and the tests even where the environment says not to
# (PYTHONDONTWRITEBYTECODE=1, as on this CI machine): otherwise every test worker and every
# process a test starts compiles bot/, engine/, renderer/, what they import and pytest's
# rewritten test modules from source again, 8 s of CPU a process (docs/tests.md).
unexport PYTHONDONTWRITEBYTECODE
# uv keeps an installed project as it is while its version is the same: a changed C file would
# not be compiled again, so a sync for any of these reinstalls (and compiles) Tavolo itself.
BUILD_INPUTS := uv.lock pyproject.toml setup.py engine/solvers/_cardsets.c engine/solvers/_canfield.c \
	engine/solvers/_freecell.c engine/solvers/_search.h

empty :=
space := $(empty) $(empty)
# A shell case pattern matching every supported version: 3.13.*|3.12.*|3.11.*
SUPPORTED_PATTERN := $(subst $(space),|,$(addsuffix .*,$(SUPPORTED_PYTHONS)))
# Arguments that make a Python print its X.Y.Z. A command that cannot run prints nothing and
# fails (as a pyenv shim does for a version pyenv has not selected): that Python is not found.
PRINT_VERSION := -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])'

# test-all's Pythons, each tested in its own .venv-X.Y.
TEST_PYTHONS ?= $(addprefix python,$(SUPPORTED_PYTHONS))

.PHONY: run test test-all bench gallery lint check clean venv lock lock-upgrade

# Messages go to stderr: make bench's stdout stays one JSON document.
venv:
	@set -e; \
	py="$(PYTHON)"; \
	if [ -z "$$py" ]; then \
	  for candidate in $(addprefix python,$(SUPPORTED_PYTHONS)) python3; do \
	    version=$$($$candidate $(PRINT_VERSION) 2>/dev/null) || continue; \
	    case "$$version" in $(SUPPORTED_PATTERN)) py=$$candidate; break;; esac; \
	  done; \
	  if [ -z "$$py" ]; then \
	    echo "No supported Python found: Tavolo needs Python $(SUPPORTED_TEXT) (or set PYTHON=/path/to/python3.X)" >&2; exit 1; \
	  fi; \
	fi; \
	version=$$($$py $(PRINT_VERSION) 2>/dev/null) || { \
	  echo "PYTHON=$$py does not run here: Tavolo needs Python $(SUPPORTED_TEXT)" >&2; exit 1; }; \
	case "$$version" in $(SUPPORTED_PATTERN)) ;; *) \
	  echo "PYTHON=$$py is Python $$version: Tavolo needs Python $(SUPPORTED_TEXT)" >&2; exit 1;; esac; \
	made=$$($(BIN)/python $(PRINT_VERSION) 2>/dev/null) || made=""; \
	if [ -d $(VENV) ] && [ "$$made" != "$$version" ]; then \
	  echo "$(VENV) was made with Python $${made:-that no longer runs}; making it anew with $$py (Python $$version)" >&2; \
	  rm -rf $(VENV); \
	fi; \
	[ -x $(BIN)/python ] || $$py -m venv $(VENV); \
	wanted="Python $$version ($$py), $(INSTALL_SET) set"; \
	if [ "$$(cat $(STAMP) 2>/dev/null)" != "$$wanted" ] || [ -n "$$(find $(BUILD_INPUTS) -newer $(STAMP))" ]; then \
	  echo "installing Tavolo and the locked $(INSTALL_SET) set into $(VENV) (Python $$version) ..." >&2; \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)" >&2 || { \
	    echo "cannot install uv $(UV_VERSION) (it installs the locked versions): is PyPI reachable?" >&2; exit 1; }; \
	  extras="$(DEV_EXTRAS)"; [ "$(INSTALL_SET)" = run ] && extras="$(RUN_EXTRAS)"; \
	  UV_PROJECT_ENVIRONMENT=$(VENV) $(BIN)/uv sync --quiet --locked --no-python-downloads \
	    --reinstall-package tavolo --python $(BIN)/python $$extras >&2 || { rm -f $(STAMP); \
	    echo "uv could not install the locked set (a uv.lock out of date with pyproject.toml: make lock)" >&2; exit 1; }; \
	  echo "$$wanted" > $(STAMP); \
	fi

run: venv
	$(BIN)/python -m bot

# The suite on TEST_WORKERS processes (pytest-xdist), sharing one PostgreSQL server (started
# by the controller while they collect; each worker makes its own databases on it) for the
# tests that need one; a worker that runs out of tests takes some of another's (--dist
# worksteal), and the longest tests (marked slow) start first on every worker. The order is
# random, its seed printed at the end (pytest-randomly). The doctests of engine/, renderer/
# and bot/ run in it too (tests/test_doctests.py). docs/tests.md: how the suite is organised,
# and what runs in make bench instead.
# Three workers on this 2-core machine, not one per CPU: many tests wait (on PostgreSQL, on
# subprocesses, on a browser) and a third worker fills those waits. Quiet machine, 2,003
# tests: 319 s with 2 workers, 210 s with 3, 209 s with 4 (docs/tests.md).
TEST_WORKERS ?= 3
test: venv
	@echo "make test: Python $$($(BIN)/python $(PRINT_VERSION)) in $(VENV)" >&2
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal

# The suite on every supported Python found here, each in its own .venv-X.Y, then one line per
# version; fails if any run fails or no supported Python is found. CI runs `make test` only.
test-all:
	@log=$$(mktemp); ran=""; failed=""; : > $$log.results; \
	for py in $(TEST_PYTHONS); do \
	  version=$$($$py $(PRINT_VERSION) 2>/dev/null) || { \
	    echo "test-all: $$py: not found" >> $$log.results; continue; }; \
	  case "$$version" in $(SUPPORTED_PATTERN)) ;; *) \
	    echo "test-all: $$py: Python $$version is not supported, not run" >> $$log.results; continue;; esac; \
	  minor=$${version%.*}; \
	  case " $$ran " in *" $$minor "*) continue;; esac; \
	  ran="$$ran $$minor"; \
	  echo "test-all: Python $$version ($$py) in .venv-$$minor" >&2; \
	  start=$$(date +%s); \
	  { $(MAKE) --no-print-directory test PYTHON=$$py VENV=.venv-$$minor; echo $$? > $$log.rc; } 2>&1 | tee $$log; \
	  rc=$$(cat $$log.rc); seconds=$$(( $$(date +%s) - start )); \
	  summary=$$(grep -E '^[0-9]+ [a-z]+.* in [0-9.]+s' $$log | tail -n 1); \
	  if [ "$$rc" = 0 ]; then outcome=passed; else outcome=FAILED; failed="$$failed $$minor"; fi; \
	  echo "test-all: Python $$version: $$outcome ($${summary:-no pytest summary}; $$seconds s with set-up)" >> $$log.results; \
	done; \
	cat $$log.results; rm -f $$log $$log.rc $$log.results; \
	if [ -z "$$ran" ]; then echo "test-all: no supported Python found (Tavolo needs Python $(SUPPORTED_TEXT))"; exit 1; fi; \
	if [ -n "$$failed" ]; then echo "test-all: FAILED on Python$$failed (ran on$$ran)"; exit 1; fi; \
	echo "test-all: passed on Python$$ran"

# stdout is one JSON document (progress goes to stderr): make bench > bench.json
bench: venv
	@$(BIN)/python -m bench

gallery: venv
	$(BIN)/python -m tools.gallery out/gallery

lint: venv
	$(BIN)/ruff check .

# What CI checks before the tests: lint, formatting, and types (mypy, strict on every package:
# its settings are in pyproject.toml).
check: lint
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# uv.lock again after a change to the dependencies in pyproject.toml (the versions already
# locked stay where they are); lock-upgrade moves every package to its newest release.
# Only uv is needed (not the venv's sync, which refuses the out-of-date lock being replaced).
lock lock-upgrade:
	@[ -x $(BIN)/python ] || python3 -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)" >&2
	$(BIN)/uv lock $(if $(filter lock-upgrade,$@),--upgrade)

clean:
	rm -rf $(VENV) $(addprefix .venv-,$(SUPPORTED_PYTHONS)) out build *.egg-info
	rm -f engine/solvers/_cardsets.*.so engine/solvers/_cardsets.*.pyd
	rm -f engine/solvers/_canfield.*.so engine/solvers/_canfield.*.pyd
	rm -f engine/solvers/_freecell.*.so engine/solvers/_freecell.*.pyd
