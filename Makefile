# runpod.cloud developer commands. `make test` is what CI runs (.ci/run).
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
STAMP := $(VENV)/.installed
export PATH := $(BIN):$(PATH)
# Unit and integration tests import the collection through this tree (see tests/conftest.py).
SANITY_LOCK := $(or $(TMPDIR),/tmp)/runpod-cloud-sanity.lock
PYTEST := $(BIN)/python -m pytest

.PHONY: help venv sysdeps test lint ruff ansible-lint sanity unit integration sim clean

help:
	@echo "make test         everything CI runs: lint, sanity, unit and integration tests"
	@echo "make lint         ruff + ansible-lint"
	@echo "make sanity       ansible-test sanity (offline-capable)"
	@echo "make unit         unit tests and the simulator's own tests"
	@echo "make integration  ansible-playbook runs against the local simulator"
	@echo "make sim          run the local RunPod simulator in the foreground"
	@echo "make demo         the demo playbook against the local simulator (docs/demo.md)"
	@echo "make bench        benchmarks vs the naive playbook -> docs/benchmarks.md (BENCH_QUICK=1: reduced, ~2-3 min)"

# --- environment -----------------------------------------------------------------------------
$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt requirements-dev.txt | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet --upgrade pip wheel
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

venv: $(STAMP)

# System packages the tests need: the OpenSSH client for Ansible's ssh connection.
sysdeps:
	@missing=""; \
	command -v ssh >/dev/null || missing="$$missing openssh-client"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "Please install:$$missing (e.g. sudo apt-get install$$missing)"; exit 1; \
	  fi; \
	fi

# --- ecosystem (issue 10): docs, changelog, EE, AWX runner, release build ------------------------
# These lines come before `# --- checks` on purpose: make merges prerequisites in the order the rules
# appear, so the `test:` line below runs ecosystem after sanity and before unit.
.PHONY: docs docs-lint changelog-lint ecosystem browser
test: venv sysdeps lint sanity ecosystem
lint: docs-lint changelog-lint
DOCS_BUILD := $(CURDIR)/docs/build

# The collection docsite: plugin pages from DOCUMENTATION/EXAMPLES/RETURN plus docs/docsite guides.
docs: venv
	PYTHON=$(BIN)/python hack/docs/build.sh $(DOCS_BUILD)

docs-lint: venv
	ANSIBLE_COLLECTIONS_PATH=$$($(BIN)/python tests/collections_path.py) $(BIN)/antsibull-docs \
	  lint-collection-docs --plugin-docs --validate-collection-refs self --check-extra-docs-refs .

changelog-lint: venv
	$(BIN)/antsibull-changelog lint

# Headless Debian chromium for the rendered-docs check in tests/ecosystem.
browser:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else \
	    echo "Please install chromium (e.g. sudo apt-get install chromium)"; exit 1; \
	  fi; }

ecosystem: venv browser
	$(PYTEST) tests/ecosystem -q

# --- checks ----------------------------------------------------------------------------------
test: venv sysdeps lint sanity unit integration

lint: ruff ansible-lint

ruff: venv
	$(BIN)/ruff check .

ansible-lint: venv
	ANSIBLE_COLLECTIONS_PATH=$$($(BIN)/python tests/collections_path.py) $(BIN)/ansible-lint --offline

# ansible-test needs the collection at .../ansible_collections/runpod/cloud and, offline, a
# stand-in for the get-pip download it uses to seed its sanity virtualenvs.
# Runs are serialised with a lock: ansible-test shares its cached virtualenvs under ~/.ansible/test.
sanity: venv
	root=$$(mktemp -d) && trap 'rm -rf "$$root"' EXIT && tree=$$root/ansible_collections/runpod/cloud && \
	mkdir -p $$tree && \
	git ls-files -z --cached --others --exclude-standard | \
	  while IFS= read -r -d '' f; do [ -e "$$f" ] && printf '%s\0' "$$f"; done | \
	  xargs -0 cp --parents -t $$tree && \
	pip_version=$$($(BIN)/python hack/ansible_test_pip_version.py) && \
	  mkdir -p $(HOME)/.ansible/test/cache && \
	  cp hack/get_pip_standin.py $(HOME)/.ansible/test/cache/get_pip_$${pip_version//./_}.py && \
	cd $$tree && flock $(SANITY_LOCK) $(BIN)/ansible-test sanity --local --python 3.11 --color no

unit: venv
	$(PYTEST) tests/unit tests/simulator/tests -q

integration: venv sysdeps
	$(PYTEST) tests/integration -q

sim: venv
	PYTHONPATH=tests/simulator $(BIN)/python -m runpod_sim

clean:
	rm -rf .pytest_cache .ruff_cache tests/output

# --- benchmarks (not part of make test) ------------------------------------------------------------------
.PHONY: bench
bench: venv
	$(BIN)/python -m pip install --quiet -r requirements-bench.txt
	$(BIN)/python tests/bench/run_bench.py

# --- demo (the README's first command) -----------------------------------------------------------------
.PHONY: demo
# Runs playbooks/demo.yml against the local simulator (started and stopped by hack/demo.sh); docs/demo.md.
demo: venv sysdeps
	VENV_BIN=$(BIN) hack/demo.sh
