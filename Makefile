# patience: `make play` to play, `make test` to pass the tests. Each sets itself up.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUST_SOURCES := $(shell find rust -name '*.rs' -o -name Cargo.toml) Cargo.toml

.PHONY: help setup system-deps play serve wheel test test-python test-rust test-slow lint format clean

help:
	@echo "make serve      the platform at http://127.0.0.1:8000/ (SQLite in ./patience.sqlite3)"
	@echo "make play       play Klondike (Solitaire Rush) in the terminal; GAME=golf for Golf"
	@echo "make test       lint, Python (API and browser included) and Rust tests"
	@echo "make lint       ruff, mypy --strict, cargo clippy, cargo fmt, cargo doc"
	@echo "make test-slow  the large runs kept out of make test"
	@echo "make wheel      the package to install on a server, in dist/ (docs/deploy.md)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Reinstall (and so rebuild the native module) when the Rust or the package metadata changes.
$(STAMP): $(BIN)/python pyproject.toml $(RUST_SOURCES)
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

GAME ?= klondike
play: $(STAMP)
	$(BIN)/patience play $(GAME) $(ARGS)

# Migrating is a step of its own (`patience db migrate`, docs/deploy.md); here it comes first,
# so that a fresh checkout serves at once.
serve: $(STAMP)
	$(BIN)/patience db migrate
	$(BIN)/patience serve $(ARGS)

# The package as one file, its Rust core built in, for a server without a Rust toolchain
# (docs/deploy.md): pip installs it into a virtual environment there.
wheel: $(STAMP)
	$(BIN)/pip wheel --no-deps --wheel-dir dist .

# Debian packages the Python tests need: chromium for the browser tests, the PostgreSQL
# server binaries (initdb, pg_ctl), with which tests/postgres.py starts a private cluster of
# its own (the system cluster the package may start on install is never used), and nginx,
# openssl and systemd-analyze for the deployment's test (tests/test_deploy.py runs an nginx
# of its own). Installed when missing if we are root; otherwise make stops and says what
# to run.
system-deps:
	@missing=(); \
	[ -x /usr/bin/chromium ] || missing+=(chromium); \
	[ -x /usr/sbin/nginx ] || missing+=(nginx); \
	command -v openssl >/dev/null || missing+=(openssl); \
	command -v systemd-analyze >/dev/null || missing+=(systemd); \
	compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null \
	    && compgen -G '/usr/lib/postgresql/*/bin/pg_ctl' >/dev/null || missing+=(postgresql); \
	if (( $${#missing[@]} )); then \
	    if (( $$(id -u) != 0 )); then \
	        echo "The tests need Debian packages $${missing[*]}." >&2; \
	        echo "Run: sudo apt-get install $${missing[*]}" >&2; \
	        exit 1; \
	    fi; \
	    echo "Installing $${missing[*]} (apt-get)"; \
	    apt-get update -qq \
	        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$${missing[@]}"; \
	fi

# One after another. Running the Rust tests beside the Python tests (at nice 10, in the
# time the browsers leave idle) was tried on a quiet machine: the Python tests took 1,127 s,
# against 928 s alone in a run earlier the same day, and the whole CI run 20 min 34 s
# against 18 min 41 s.
test: system-deps lint test-python test-rust

# The tests run in three processes (pytest-xdist), a test file to a process, and a file's
# module fixtures (a browser, a server) are made once. The third process was added when
# `time` counted the cores 57% busy with a process a core; it misses Chromium's processes
# (they leave the test process's tree), and the kernel's own count (/proc/stat) has the cores
# 95-98% busy through a run with three: the suite is bound by CPU, over half of it
# Chromium's (opening a page and dealing a table costs about 0.7 CPU s). PYTEST_WORKERS=0 runs
# them in this process, PYTEST_WORKERS=auto one a core. Four processes were tried beside
# other work (load 9-18): 616 tests in 22 min, with 7 failures, every one a hint or a limit
# whose search ran out of its time; three processes at load 0.4-17 ran all 1,230 in 41 min
# (a quiet run of make test on 2026-11-28: 13 min 53 s). On a quiet machine (2026-11-27) four processes took
# 919 s, and three 917 s and 928 s the same afternoon, with the same CPU: no faster. No
# test file dominates (the largest, test_operations, is a tenth of the tests' time), so --dist
# loadfile balances the processes.
PYTEST_WORKERS ?= 3
# The tests' temporary files (their SQLite databases, the private PostgreSQL cluster, the
# browsers' profiles) go to a fresh folder in memory where there is one (/dev/shm): the
# server makes every move durable before it answers (SQLite's synchronous=FULL, an fsync a
# commit), which costs 4-6 ms a commit on this machine's disk and 0.04 ms in memory, and a
# test that plays a game through the API commits hundreds of times. Durability against a
# killed server, which the tests check, does not depend on the fsync; against a power cut,
# which they cannot check, it does, and the product keeps it. TEST_TMP= keeps the usual.
TEST_TMP ?= $(shell test -d /dev/shm -a -w /dev/shm && echo /dev/shm)
define with_test_tmp
	@set -e; if [ -n "$(TEST_TMP)" ]; then \
	    dir=$$(mktemp -d "$(TEST_TMP)/patience-tests.XXXXXX"); chmod 755 "$$dir"; \
	    trap 'rm -rf "$$dir"' EXIT; export TMPDIR="$$dir"; \
	fi; $(1)
endef
test-python: $(STAMP) system-deps
	$(call with_test_tmp,$(BIN)/pytest -m "not slow" -n $(PYTEST_WORKERS) --dist loadfile)

# The library's tests, the integration tests and the doctests. The examples (fourteen
# programs of the benchmarks and studies, each a release build of its own, most of the
# build's time) are checked by make lint (clippy --all-targets) and built where they run.
test-rust:
	cargo test --release --workspace --exclude patience-py --lib --tests
	cargo test --release --workspace --exclude patience-py --doc

test-slow: $(STAMP) system-deps
	$(call with_test_tmp,$(BIN)/pytest -m slow -n $(PYTEST_WORKERS) --dist loadfile)

lint: $(STAMP)
	$(BIN)/ruff check python tests benchmarks
	$(BIN)/ruff format --check python tests benchmarks
	$(BIN)/mypy
	cargo clippy --workspace --all-targets -- -D warnings
	cargo fmt --all --check
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace --quiet

format: $(STAMP)
	$(BIN)/ruff format python tests benchmarks
	$(BIN)/ruff check --fix python tests benchmarks
	cargo fmt --all

clean:
	rm -rf $(VENV) target .pytest_cache .mypy_cache .ruff_cache .hypothesis
