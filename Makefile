# runpod.cloud developer commands. `make test` is what CI runs (.ci/run).
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

# The interpreter .venv is built on: the first of PYTHON_CANDIDATES that is Python 3.11 with venv and ensurepip.
# Debian's /usr/bin/python3.11 is built with profile-guided and link-time optimisation and links libpython
# statically; pyenv's default build (this machine's python3) has neither. The suites are Python through and
# through: a clean `make test` took 468 s on Debian's against 542 s on pyenv's (docs/dev/developing.md, "Tests").
# PYTHON=... picks another; an existing .venv keeps the interpreter it was built on (rm -rf .venv
# tests/sdk-python/.venv to switch).
PYTHON_CANDIDATES := /usr/bin/python3.11 python3.11 python3
PYTHON ?= $(or $(shell for p in $(PYTHON_CANDIDATES); do \
	"$$p" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null && \
	{ echo "$$p"; break; }; done),python3)
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
STAMP := $(VENV)/.installed
export PATH := $(BIN):$(PATH)
PYTEST := $(BIN)/python -m pytest
# ansible-test shares its cached virtualenvs under ~/.ansible/test, so sanity runs take turns.
SANITY_LOCK := $(or $(TMPDIR),/tmp)/runpod-cloud-sanity.lock
DOCS_BUILD := $(CURDIR)/docs/build
# Debian packages the tests use: ssh for Ansible's connection to the simulated pods, shellcheck for
# ansible-test's shellcheck sanity test, chromium for the rendered-docs check, Java 17 for ansible-rulebook's rule
# engine (drools_jpy; tests/integration/test_eda.py), Node.js and npm for the JavaScript runpod-sdk the
# endpoint_job tests run against the simulator (tests/sdk-js).
SYSTEM_PACKAGES := ssh:openssh-client shellcheck:shellcheck chromium:chromium java:openjdk-17-jre-headless \
	node:nodejs npm:npm
# ansible-rulebook finds Java through JAVA_HOME, else the java on PATH (docs/eda.md).
JAVA_HOME ?= $(shell j=$$(command -v java 2>/dev/null) && dirname "$$(dirname "$$(readlink -f "$$j")")")
ifneq ($(JAVA_HOME),)
export JAVA_HOME
endif

.PHONY: help venv sysdeps test checks lint conflict-markers ruff mypy ansible-lint docs-lint changelog-lint sanity ecosystem unit integration \
	targets live docs sim demo bench bench-timing clean sdk-js sdk-python

help:
	@echo "make test         everything CI runs: integration, targets, sanity, ecosystem, unit and lint (three at a time)"
	@echo "make lint         ruff, mypy (module_utils), ansible-lint (production profile), antsibull-docs lint, changelog lint"
	@echo "make sanity       ansible-test sanity (offline-capable, no ignore files)"
	@echo "make ecosystem    docs build + browser check, changelog, EE context, ansible-runner, release build"
	@echo "make unit         unit tests and the simulator's own tests"
	@echo "make integration  ansible-playbook runs against the local simulator"
	@echo "make targets      ansible-test integration targets against the local simulator (TARGET=pod: one)"
	@echo "make live         the same targets against RunPod: needs RUNPOD_API_KEY and RUNPOD_LIVE_MAX_USD, bills"
	@echo "                  the account, sweeps what it created (docs/dev/live-tests.md)"
	@echo "make sdk-js       the pinned JavaScript runpod-sdk for the endpoint_job tests (npm ci, once)"
	@echo "make sdk-python   the pinned runpod-python for the same tests, in its own virtualenv (once)"
	@echo "make docs         build the collection docsite into docs/build"
	@echo "make sim          run the local RunPod simulator in the foreground"
	@echo "make demo         the demo playbook against the local simulator (docs/demo.md)"
	@echo "make bench        wall-clock budgets (make bench-timing), then benchmarks vs the naive playbook"
	@echo "                  -> docs/benchmarks.md (BENCH_QUICK=1: reduced)"

# --- environment ---------------------------------------------------------------------------------------
$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# uv installs the toolchain in about a quarter of pip's time on a fresh machine (15 s against 58 s, no cache; the
# same versions resolve), and the install is on the critical path of a clean `make test`.
$(STAMP): requirements.txt requirements-dev.txt | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "uv>=0.5"
	$(BIN)/uv pip install --quiet --python $(BIN)/python -r requirements-dev.txt || \
	  $(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

venv: $(STAMP)

sysdeps:
	@missing=""; \
	for entry in $(SYSTEM_PACKAGES); do \
	  command -v "$${entry%%:*}" >/dev/null || missing="$$missing $${entry#*:}"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "Please install:$$missing (e.g. sudo apt-get install$$missing)"; exit 1; \
	  fi; \
	fi

# The JavaScript runpod-sdk, pinned by tests/sdk-js/package.json and package-lock.json (npm ci installs exactly the
# locked tree); installed once, when node_modules is missing.
sdk-js: sysdeps
	@[ -d tests/sdk-js/node_modules/runpod-sdk ] || (cd tests/sdk-js && npm ci --no-audit --no-fund --loglevel=error)

# runpod-python, pinned by tests/sdk-python/requirements.txt, in its own virtualenv: in the project's it would bring
# paramiko, which every ansible-playbook start imports when it is there (about 0.14 CPU-s a start).
SDK_PYTHON := tests/sdk-python/.venv
sdk-python: $(SDK_PYTHON)/.installed
$(SDK_PYTHON)/.installed: tests/sdk-python/requirements.txt | $(STAMP)
	rm -rf $(SDK_PYTHON) && $(BIN)/python -m venv --without-pip $(SDK_PYTHON)
	$(BIN)/uv pip install --quiet --python $(SDK_PYTHON)/bin/python -r tests/sdk-python/requirements.txt || \
	  $(BIN)/python -m pip --python $(SDK_PYTHON)/bin/python install --quiet -r tests/sdk-python/requirements.txt
	touch $@

# --- checks --------------------------------------------------------------------------------------------
# The virtualenv and the Debian packages install side by side (uv and apt wait on the network and disk more than on
# a core). Then every suite runs in one schedule, three at a time (--output-sync prints each suite's output in one
# piece when it ends; a failing suite stops new ones from starting). The order make starts them in is its own: the
# installs are phony prerequisites it runs again as jobs first, so the quick suites start while integration waits
# for them. Two other schedules measured worse on a clean clone (docs/dev/developing.md, "Tests"): integration
# first (-o on the installs; 796 s) and the quick suites before integration and the targets (756 s), against 688 s.
test:
	$(MAKE) --no-print-directory -j2 venv sysdeps
	$(MAKE) --no-print-directory -j3 --output-sync=target integration targets sanity ecosystem unit lint

checks: sanity lint unit ecosystem

lint: conflict-markers ruff mypy ansible-lint docs-lint changelog-lint

# A merge conflict left inside a docstring or YAML file passes ruff; fail on the markers themselves.
conflict-markers:
	@! git grep -nE "^(<<<<<<< |=======$$|>>>>>>> )" -- . ":(exclude)*.json"

ruff: venv
	$(BIN)/ruff check .

# Type hints of plugins/module_utils, imported by FQCN from the collections path (tests/collections_path.py).
mypy: venv
	cd $$($(BIN)/python tests/collections_path.py) && $(BIN)/mypy --python-version 3.11 --explicit-package-bases \
	  --namespace-packages --ignore-missing-imports --follow-imports=silent --check-untyped-defs --cache-dir $(CURDIR)/.mypy_cache \
	  ansible_collections/runpod/cloud/plugins/module_utils

ansible-lint: venv
	ANSIBLE_COLLECTIONS_PATH=$$($(BIN)/python tests/collections_path.py) $(BIN)/ansible-lint --offline

docs-lint: venv
	ANSIBLE_COLLECTIONS_PATH=$$($(BIN)/python tests/collections_path.py) $(BIN)/antsibull-docs \
	  lint-collection-docs --plugin-docs --validate-collection-refs self --check-extra-docs-refs .

changelog-lint: venv
	$(BIN)/antsibull-changelog lint

# ansible-test needs the collection at .../ansible_collections/runpod/cloud and, offline, a
# stand-in for the get-pip download it uses to seed its sanity virtualenvs.
sanity: venv sysdeps
	root=$$(mktemp -d) && trap 'rm -rf "$$root"' EXIT && tree=$$root/ansible_collections/runpod/cloud && \
	mkdir -p $$tree && \
	git ls-files -z --cached --others --exclude-standard | \
	  while IFS= read -r -d '' f; do [ -e "$$f" ] && printf '%s\0' "$$f"; done | \
	  xargs -0 cp --parents -t $$tree && \
	pip_version=$$($(BIN)/python hack/ansible_test_pip_version.py) && \
	  mkdir -p $(HOME)/.ansible/test/cache && \
	  cp hack/get_pip_standin.py $(HOME)/.ansible/test/cache/get_pip_$${pip_version//./_}.py && \
	cd $$tree && flock $(SANITY_LOCK) $(BIN)/ansible-test sanity --local --python 3.11 --color no

# Only the quality-gate test runs ansible-test: it takes SANITY_LOCK itself (tests/ecosystem/conftest.py).
ecosystem: venv sysdeps
	RUNPOD_CLOUD_SANITY_LOCK=$(SANITY_LOCK) $(PYTEST) tests/ecosystem -q

# pytest-xdist (docs/dev/developing.md, "Tests"): each worker process starts its own simulator. Integration
# tests wait on the simulator's scaled clock between ansible-playbook runs, so more workers than the 2
# cores keep both busy; integration hands out one test at a time, longest first (tests/integration/conftest.py:
# LONGEST_FIRST), so no worker is left with the long ones at the end.
UNIT_WORKERS ?= 2
INTEGRATION_WORKERS ?= 4

unit: venv
	$(PYTEST) tests/unit tests/simulator/tests -q -n $(UNIT_WORKERS) --dist worksteal

integration: venv sysdeps sdk-js sdk-python
	$(PYTEST) tests/integration -q -n $(INTEGRATION_WORKERS) --dist load --maxschedchunk 1

# ansible-test integration targets (tests/integration/targets) in one run against a simulator started and stopped
# by hack/integration_targets.py; TARGET="pod template" runs some. `make live` runs them against RunPod.
TARGET ?=
targets: venv sysdeps
	VENV_BIN=$(BIN) $(BIN)/python hack/integration_targets.py sim $(TARGET)

live: venv sysdeps
	VENV_BIN=$(BIN) $(BIN)/python hack/integration_targets.py live $(TARGET)

# --- tools ---------------------------------------------------------------------------------------------
# The collection docsite: plugin pages from DOCUMENTATION/EXAMPLES/RETURN plus docs/docsite guides.
docs: venv
	PYTHON=$(BIN)/python hack/docs/build.sh $(DOCS_BUILD)

sim: venv
	PYTHONPATH=tests/simulator $(BIN)/python -m runpod_sim

# Runs playbooks/demo.yml against the local simulator (started and stopped by hack/demo.sh); docs/demo.md.
demo: venv sysdeps
	VENV_BIN=$(BIN) hack/demo.sh

# Benchmarks (not part of make test): docs/benchmarks.md, plots and CSVs.
bench: bench-timing
	$(BIN)/python -m pip install --quiet -r requirements-bench.txt
	$(BIN)/python tests/bench/run_bench.py

# Wall-clock budgets kept out of make test (they would flake on a loaded runner): tests/bench/timing,
# figures printed and written to tests/output/bench/timings.json.
bench-timing: venv sysdeps
	$(PYTEST) tests/bench/timing -q

clean:
	rm -rf .pytest_cache .ruff_cache tests/output $(DOCS_BUILD)
