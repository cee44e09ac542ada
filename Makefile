# runpod.cloud developer commands. `make test` is what CI runs (.ci/run).
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

# The interpreter .venv is built on: Python 3.13 or 3.12, which the newest ansible-core supports on the controller
# (hack/find_python.sh: python3.13/python3.12 on PATH, else the newest pyenv install, else /usr/bin). PYTHON=... picks
# another; an existing .venv keeps the interpreter it was built on (rm -rf .venv to switch).
PYTHON ?= $(shell hack/find_python.sh 3.13 3.12 || echo python3)
VENV := .venv
# What the virtualenv installs: the whole toolchain for .venv, the integration needs and one ansible-core for the
# compat virtualenvs (make compat sets both).
REQUIREMENTS := requirements-dev.txt
CORE :=
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
	targets live docs sim demo bench bench-timing clean distclean sdk-js sdk-python galaxy-importer compat

help:
	@echo "make test         integration, targets, sanity, ecosystem, unit and lint on the newest ansible-core (three at a time)"
	@echo "make compat       integration and targets on the oldest (2.16) and the next (2.22) ansible-core; CI runs it"
	@echo "                  after make test"
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
	@echo "make galaxy-importer  Galaxy's importer for the release check, in its own virtualenv (once)"
	@echo "make docs         build the collection docsite into docs/build"
	@echo "make sim          run the local RunPod simulator in the foreground"
	@echo "make demo         the demo playbook against the local simulator (docs/demo.md)"
	@echo "make bench        wall-clock budgets (make bench-timing), then one run of every approach side by side and"
	@echo "                  the quota sweep -> docs/benchmarks.md (~25 min on an idle 2-core machine; BENCH_QUICK=1: reduced)"

# --- environment ---------------------------------------------------------------------------------------
$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# uv installs the toolchain in about a quarter of pip's time on a fresh machine (pip is the fallback). Where a
# virtualenv's programs start many times, both compile the bytecode as they install (about 9 CPU-s for .venv): where
# PYTHONDONTWRITEBYTECODE is set (our machines set it), no process writes a .pyc, and every start of pytest, the
# simulator or ansible-lint compiled their sources again.
UV_INSTALL = $(BIN)/uv pip install --quiet
$(STAMP): requirements.txt requirements-test.txt $(REQUIREMENTS) | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "uv>=0.5"
	$(UV_INSTALL) --compile-bytecode --python $(BIN)/python -r $(REQUIREMENTS) $(if $(CORE),"$(CORE)") || \
	  $(BIN)/python -m pip install --quiet -r $(REQUIREMENTS) $(if $(CORE),"$(CORE)")
	touch $@

venv: $(STAMP)

# The check runs once per virtualenv (a stamp beside it), so a suite's prerequisites are files that are up to date by
# the time make test schedules the suites: a goal with a recipe to run, however short, waits for a free slot, and
# make test's integration suite, the longest, would start after three others instead of first.
SYSDEPS := $(VENV)/.sysdeps
sysdeps: $(SYSDEPS)

$(SYSDEPS): | $(VENV)/bin/python
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
	touch $@

# The JavaScript runpod-sdk and RunPod's MCP server (@runpod/mcp-server, tests/integration/test_mcp_server.py), pinned by
# tests/sdk-js/package.json and package-lock.json (npm ci installs exactly the locked tree); installed again only when
# those change: npm ci writes node_modules/.package-lock.json, the stamp.
SDK_JS := tests/sdk-js/node_modules/.package-lock.json
sdk-js: $(SDK_JS)
$(SDK_JS): tests/sdk-js/package.json tests/sdk-js/package-lock.json | $(SYSDEPS)
	cd tests/sdk-js && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Pinned tools in virtualenvs of their own, installed once: $(1) the virtualenv, $(2) its requirements file, $(3) uv's
# extra options.
define isolated_venv
$(1)/.installed: $(2) | $(STAMP)
	rm -rf $(1) && $(BIN)/python -m venv --without-pip $(1)
	$(UV_INSTALL) $(3) --python $(1)/bin/python -r $(2) || \
	  $(BIN)/python -m pip --python $(1)/bin/python install --quiet -r $(2)
	touch $$@
endef

# runpod-python, pinned by tests/sdk-python/requirements.txt: in the project's virtualenv it would bring paramiko,
# which every ansible-playbook start imports when it is there.
SDK_PYTHON := tests/sdk-python/.venv
sdk-python: $(SDK_PYTHON)/.installed
$(eval $(call isolated_venv,$(SDK_PYTHON),tests/sdk-python/requirements.txt))

# Galaxy's importer (make ecosystem runs it on the release tarball), pinned by tests/galaxy-importer/requirements.txt:
# it caps attrs and ansible-lint below what the toolchain installs.
GALAXY_IMPORTER := tests/galaxy-importer/.venv
galaxy-importer: $(GALAXY_IMPORTER)/.installed
$(eval $(call isolated_venv,$(GALAXY_IMPORTER),tests/galaxy-importer/requirements.txt,--compile-bytecode))

# --- checks --------------------------------------------------------------------------------------------
# Each suite starts by printing the ansible-core and Python it runs on (CI's log shows what each stage tested).
define banner
@$(BIN)/python -c 'import ansible, platform, sys; print(f"== $(1): ansible-core {ansible.__version__}, Python {platform.python_version()} ($(VENV))", flush=True)'
endef

# The virtualenvs, the SDKs and the Debian packages install side by side (uv, npm and apt wait on the network and
# the disk more than on a core), then every suite runs in one schedule, three at a time (--output-sync prints each
# suite's output in one piece when it ends; a failing suite stops new ones from starting). Installing the SDKs first
# lets the integration suite, the longest, take the first slot instead of the one left after three others
# (docs/dev/developing.md, "Time budget").
test:
	$(MAKE) --no-print-directory -j3 venv sysdeps sdk-js sdk-python galaxy-importer
	$(MAKE) --no-print-directory -j3 --output-sync=target integration targets sanity ecosystem unit lint

# The integration suite and the targets on the oldest ansible-core the README promises and on the next one, each in
# a virtualenv of its own (CORE_<version>, on PYTHON_<version>); CI runs this after make test.
COMPAT_VERSIONS := 2.16 2.22
CORE_2.16 := ansible-core>=2.16,<2.17
PYTHON_2.16 ?= $(shell hack/find_python.sh 3.11 || echo python3.11)
# The newest pre-release until 2.22.0 is out (an explicit pre-release bound admits pre-releases, then the release).
CORE_2.22 := ansible-core>=2.22.0rc1,<2.23
PYTHON_2.22 ?= $(shell hack/find_python.sh 3.13 3.12 || echo python3)

compat: $(addprefix compat-,$(COMPAT_VERSIONS))

compat-%: sysdeps
	$(MAKE) --no-print-directory VENV=.venv-compat-$* REQUIREMENTS=requirements-test.txt CORE="$(CORE_$*)" \
	  PYTHON="$(PYTHON_$*)" venv
	$(MAKE) --no-print-directory -j2 --output-sync=target VENV=.venv-compat-$* REQUIREMENTS=requirements-test.txt \
	  CORE="$(CORE_$*)" INTEGRATION_SELECT="-m core" integration targets

checks: sanity lint unit ecosystem

lint: conflict-markers ruff mypy ansible-lint docs-lint changelog-lint

# A merge conflict left inside a docstring or YAML file passes ruff; fail on the markers themselves.
conflict-markers:
	@! git grep -nE "^(<<<<<<< |=======$$|>>>>>>> )" -- . ":(exclude)*.json"

ruff: venv
	$(call banner,lint)
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

# ansible-test needs the collection at .../ansible_collections/runpod/cloud and, offline, a stand-in for the get-pip
# download it seeds its sanity virtualenvs with: ansible-test has no option for that URL, only its cache file
# (~/.ansible/test/cache/get_pip_<pip>.py), so this one step writes there (docs/dev/developing.md, "Sanity offline";
# tests/unit/test_get_pip_standin.py fails when ansible-test moves either part).
sanity: venv sysdeps
	$(call banner,sanity)
	root=$$(mktemp -d) && trap 'rm -rf "$$root"' EXIT && tree=$$root/ansible_collections/runpod/cloud && \
	mkdir -p $$tree && \
	git ls-files -z --cached --others --exclude-standard | \
	  while IFS= read -r -d '' f; do [ -e "$$f" ] && printf '%s\0' "$$f"; done | \
	  xargs -0 cp --parents -t $$tree && \
	pip_version=$$($(BIN)/python hack/ansible_test_pip_version.py) && \
	  mkdir -p $(HOME)/.ansible/test/cache && \
	  cp hack/get_pip_standin.py $(HOME)/.ansible/test/cache/get_pip_$${pip_version//./_}.py && \
	cd $$tree && VENV=$(VENV) $(CURDIR)/hack/timed.sh sanity flock $(SANITY_LOCK) $(BIN)/ansible-test sanity --local --python $$($(BIN)/python -c 'import sys; print("%d.%d" % sys.version_info[:2])') --color no

# Only the quality-gate test runs ansible-test: it takes SANITY_LOCK itself (tests/ecosystem/conftest.py).
ecosystem: venv sysdeps galaxy-importer
	$(call banner,ecosystem)
	RUNPOD_GALAXY_IMPORTER=$(CURDIR)/$(GALAXY_IMPORTER)/bin/python RUNPOD_CLOUD_SANITY_LOCK=$(SANITY_LOCK) \
	  VENV=$(VENV) hack/timed.sh ecosystem $(PYTEST) tests/ecosystem -q

# pytest-xdist: each worker process starts its own simulator. Integration tests wait on the simulator's scaled clock
# between ansible-playbook runs, so more workers than the 2 cores keep both busy (six: a fresh clone's make test took
# 492 s against about 502 with four, the suite 34 CPU-s more); worksteal lets a worker that ran out of tests take half
# of another's queue.
UNIT_WORKERS ?= 2
INTEGRATION_WORKERS ?= 6
# Which integration tests run: all of them by default; make compat runs those marked core (their subject is
# ansible-core's part: tests/integration/conftest.py).
INTEGRATION_SELECT ?=

unit: venv
	$(call banner,unit)
	VENV=$(VENV) hack/timed.sh unit $(PYTEST) tests/unit tests/simulator/tests -q -n $(UNIT_WORKERS) --dist worksteal

# --durations: the log names the slowest tests, where the time budget of make test goes.
integration: venv sysdeps sdk-js sdk-python
	$(call banner,integration)
	VENV=$(VENV) hack/timed.sh integration $(PYTEST) tests/integration -q -n $(INTEGRATION_WORKERS) --dist worksteal \
	  --durations=15 $(INTEGRATION_SELECT)

# ansible-test integration targets (tests/integration/targets) in one run against a simulator started and stopped
# by hack/integration_targets.py; TARGET="pod template" runs some. `make live` runs them against RunPod.
TARGET ?=
targets: venv sysdeps
	$(call banner,targets)
	VENV=$(VENV) VENV_BIN=$(BIN) hack/timed.sh targets $(BIN)/python hack/integration_targets.py sim $(TARGET)

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

# Benchmarks (not part of make test): one run, on an idle machine, about 25 minutes on 2 cores; it replaces
# docs/benchmarks/ (CSVs, meta.json, plots) and docs/benchmarks.md, with the wall-clock budgets' figures.
BENCH_TIMINGS := tests/output/bench/timings.json
bench: bench-timing
	$(BIN)/python -m pip install --quiet -r requirements-bench.txt
	$(BIN)/python tests/bench/run_bench.py --timings $(BENCH_TIMINGS)

# Wall-clock budgets kept out of make test (they would flake on a loaded runner): tests/bench/timing,
# figures printed and written to $(BENCH_TIMINGS) (removed first: make bench puts only this run's on the page).
bench-timing: venv sysdeps
	rm -f $(BENCH_TIMINGS)
	$(PYTEST) tests/bench/timing -q

clean:
	rm -rf .pytest_cache .ruff_cache tests/output $(DOCS_BUILD)

distclean: clean
	rm -rf .venv .venv-compat-* tests/sdk-python/.venv tests/galaxy-importer/.venv tests/sdk-js/node_modules
