# Every target installs what it needs first: the virtual environment in .venv (exact versions from
# requirements.lock) and the npm packages in node_modules (exact versions from package-lock.json).
PYTHON ?= python3
export NO_MKDOCS_2_WARNING := 1
VENV := .venv
PY := $(VENV)/bin/python
LOCKED := $(VENV)/.locked
INSTALLED := $(VENV)/.installed
NODE_INSTALLED := node_modules/.installed
LOCALES := locales
# One compiled catalog per translated language: each catalog in locales/ (kensei_ref/languages.py names them).
CATALOGS := $(patsubst %.po,%.mo,$(wildcard $(LOCALES)/*/LC_MESSAGES/messages.po))

.PHONY: serve build test test-fast bench translations lint deps clean publish-check

serve: deps $(CATALOGS)
	$(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8000

build: deps $(CATALOGS)
	$(VENV)/bin/mkdocs build --strict

# Every test, on two workers (pytest-xdist; the site is built once and shared). A file's tests run on one
# worker (--dist loadfile), so that its module fixtures (a build of its own, nginx, a browser context)
# are set up once: with pytest 9, xdist's loadgroup no longer groups (it renames items through an
# attribute pytest 9 dropped), and each such fixture was set up on both workers.
# Installs Debian's chromium first when it is missing and it can.
TEST_WORKERS ?= 2
test: deps $(CATALOGS)
	tests/ensure_chromium.sh
	tests/ensure_nginx.sh
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# The edit loop: every test but those that build the site or drive Chromium (markers set by tests/conftest.py).
test-fast: deps $(CATALOGS)
	$(PY) -m pytest -n $(TEST_WORKERS) -m "not build and not browser"

# The site as published: built with a public address and served by Debian's nginx with deploy/kensei-ref.conf,
# checked over HTTP and in Chromium (tests/test_publish_nginx.py). Installs nginx and chromium first when missing.
publish-check: deps $(CATALOGS)
	tests/ensure_nginx.sh
	tests/ensure_chromium.sh
	$(PY) -m pytest -p no:cacheprovider -raP tests/test_publish_nginx.py

bench: deps $(CATALOGS)
	$(PY) tests/benchmarks/bench_calculators.py --out docs/benchmarks.json
	$(PY) tests/benchmarks/bench_terminal.py --out docs/benchmarks.json
	$(PY) tests/benchmarks/bench_serve.py --out docs/benchmarks.json
	$(VENV)/bin/mkdocs build --quiet --site-dir .bench-site
	tests/ensure_nginx.sh
	$(PY) tests/benchmarks/bench_browser.py --site .bench-site --out docs/benchmarks-browser.json
	$(PY) tests/benchmarks/bench_lighthouse.py --site .bench-site --out docs/benchmarks-browser.json

# ruff (rules and formatting), mypy (strict on calculators/), and the layers' import contracts.
lint: deps
	$(VENV)/bin/ruff check kensei_ref calculators tests
	$(VENV)/bin/ruff format --check kensei_ref calculators tests
	$(VENV)/bin/mypy kensei_ref calculators
	$(VENV)/bin/lint-imports

deps: $(INSTALLED) $(NODE_INSTALLED)

# Every package by hash (requirements.lock): pip's own pinned version first, then the whole lock.
$(LOCKED): requirements.lock
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	sed -n '/^pip==/,/[^\\]$$/p' requirements.lock > $(VENV)/pip.lock
	$(PY) -m pip install --quiet --require-hashes -r $(VENV)/pip.lock
	$(PY) -m pip install --quiet --require-hashes -r requirements.lock
	touch $@

# Then the project itself, editable, without dependencies (this checkout has no hash to check; its build
# backend, setuptools, comes from the lock). In "compat" mode the checkout is one line of a .pth file, as a
# wheel's files are found, rather than an import hook that costs each `kensei-ref` command about 25 ms.
$(INSTALLED): $(LOCKED) pyproject.toml Makefile
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e . --config-settings editable_mode=compat
	touch $@

$(NODE_INSTALLED): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Extract every interface string, merge it into the French and Russian catalogs, compile them.
translations: $(INSTALLED)
	$(VENV)/bin/pybabel extract -F babel.cfg -k N_ -k Nn_:1,2 -k Np_:1c,2 --no-location --sort-output \
		--project kensei-ref --msgid-bugs-address "" -o $(LOCALES)/messages.pot .
	$(VENV)/bin/pybabel update -i $(LOCALES)/messages.pot -d $(LOCALES) --no-fuzzy-matching --ignore-obsolete
	$(VENV)/bin/pybabel compile -d $(LOCALES) --statistics

$(LOCALES)/%/LC_MESSAGES/messages.mo: $(LOCALES)/%/LC_MESSAGES/messages.po $(INSTALLED)
	$(VENV)/bin/pybabel compile -d $(LOCALES) -l $* -i $< -o $@

clean:
	rm -rf site $(VENV) node_modules .pytest_cache
