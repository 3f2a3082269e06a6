# cardledger — `make run` starts the service, `make test` runs everything CI runs.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
CHROMIUM ?= /usr/bin/chromium
HOST ?= 127.0.0.1
PORT ?= 8000

.DEFAULT_GOAL := help
.PHONY: help install run test check lint format typecheck layers pytest openapi bench browser golden soak fuzz torture clean cluster cluster-stop

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 18

# pip is not quiet here: a first install takes minutes, and its lines show that it is moving.
$(INSTALLED): pyproject.toml constraints.txt
	@echo "==> $(VENV): a virtualenv with cardledger and its dev tools (minutes the first time)"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install -c constraints.txt -e '.[dev]'  # runtime pins: constraints.txt
	touch $@
	@echo "==> $(VENV) is ready"

install: $(INSTALLED) ## create .venv and install cardledger with its dev tools

run: $(INSTALLED) ## start the API on http://$(HOST):$(PORT) with the SQLite store under ./var
	@echo "==> the lobby: http://$(HOST):$(PORT)/  the API's documentation: http://$(HOST):$(PORT)/schema"
	$(VENV)/bin/cardledger serve --host $(HOST) --port $(PORT)

test: check pytest ## lint, type-check and run the whole test suite

check: lint typecheck layers ## ruff, mypy and the layer contract

lint: $(INSTALLED) ## ruff lint and format check
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(INSTALLED) ## apply ruff's formatting and safe fixes
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

typecheck: $(INSTALLED) ## mypy (strict on domain/ and bots/)
	$(VENV)/bin/mypy domain service projections bots

layers: $(INSTALLED) ## import-linter: domain -> projections -> bots -> service, and service/'s own layers
	$(VENV)/bin/lint-imports

# Installed with apt-get, so as root; without root, point CHROMIUM (and CJK_FONT) at ones you have.
CJK_FONT ?= /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
$(CHROMIUM): | $(CJK_FONT)
	@echo "==> $(CHROMIUM) is missing: installing Debian's chromium with apt-get (needs root)"
	apt-get update -qq && apt-get install -y -qq chromium

$(CJK_FONT):
	@echo "==> $(CJK_FONT) is missing: installing fonts-noto-cjk with apt-get (needs root)"
	apt-get update -qq && apt-get install -y -qq fonts-noto-cjk

browser: $(CHROMIUM) $(CJK_FONT) ## Debian's chromium and a CJK font for the browser tests (never a downloaded build)

# Most tests wait (on servers, browsers, timers) more than they compute: four processes keep
# two cores busy. TEST_WORKERS=0 runs the suite in this one process.
TEST_WORKERS ?= 4
pytest: $(INSTALLED) $(CHROMIUM) ## the test suite in TEST_WORKERS processes (PostgreSQL tests run when the server answers)
	CHROMIUM='$(CHROMIUM)' $(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

openapi: $(INSTALLED) ## regenerate openapi/openapi.json from the app
	$(VENV)/bin/cardledger openapi --output openapi/openapi.json

bench: $(INSTALLED) ## benchmarks, printed as ratios to a baseline measured in the same run
	$(PY) -m pip install --quiet rlcard
	$(VENV)/bin/cardledger bench --output docs/benchmarks.md

soak: $(INSTALLED) ## long random runs: 20 times the property tests' games (tens of minutes)
	CARDLEDGER_PLAYOUTS=20000 $(PY) -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) \
		-o timeout=3600 -o faulthandler_timeout=7200 tests/property  # 20 times as long a test

# pg_auto_failover from Debian (apt-get, so as root): service/tools/cluster.py says why this one.
PG_AUTOCTL ?= /usr/bin/pg_autoctl
$(PG_AUTOCTL):
	@echo "==> $(PG_AUTOCTL) is missing: installing Debian's postgresql-15-auto-failover (needs root)"
	apt-get update -qq && apt-get install -y -qq postgresql-15-auto-failover

torture: $(INSTALLED) $(PG_AUTOCTL) ## the fault suite at full length: kills, outages, races, limits, failover (minutes)
	$(PY) -m tests.faults.torture

CLUSTER_DIR ?= var/cluster
cluster: $(INSTALLED) $(PG_AUTOCTL) ## PostgreSQL with automatic failover here: monitor, primary, synchronous standby (ports 6501-6503)
	$(PY) -m service.tools.cluster start --dir $(CLUSTER_DIR)

cluster-stop: $(INSTALLED) ## stop what make cluster started (its data stays in $(CLUSTER_DIR))
	$(PY) -m service.tools.cluster stop --dir $(CLUSTER_DIR)

fuzz: $(INSTALLED) ## schemathesis against a real server: no request may get a 5xx
	$(PY) -m pip install --quiet 'schemathesis>=4,<5'
	$(PY) -m tests.fuzz

.PHONY: lock
# constraints.txt: exactly what `pip install .` needs, at the versions $(VENV) has (no dev tools).
# A throwaway virtualenv installs the package under .venv's versions; its freeze is the lock.
lock: $(INSTALLED) ## pin the runtime dependencies into constraints.txt (the image installs those)
	@set -e; scratch=$$(mktemp -d); trap 'rm -rf "$$scratch"' EXIT; \
	$(PY) -m pip freeze --exclude-editable > "$$scratch/current.txt"; \
	$(PYTHON) -m venv "$$scratch/venv"; \
	"$$scratch/venv/bin/pip" install --quiet --no-cache-dir -c "$$scratch/current.txt" .; \
	{ echo "# The runtime dependencies, pinned: \`make lock\` writes this file (edit pyproject.toml,"; \
	  echo "# then run it). docker/Dockerfile installs with \`pip install -c constraints.txt .\`."; \
	  "$$scratch/venv/bin/pip" freeze --exclude cardledger; } > constraints.txt
	@echo "constraints.txt: $$(grep -c '==' constraints.txt) runtime dependencies pinned"

golden: $(INSTALLED) ## rewrite tests/golden/ and docs/audit.md's example from the scripted games (review the diff!)
	$(PY) -m tests.golden
	$(PY) -m tests.audit.worked_example

clean: ## remove the virtualenv, local data and caches
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache .hypothesis test-artifacts
