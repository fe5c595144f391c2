# Attention Clips: `make render` and `make test` each set everything up on first use.
SHELL   := /bin/bash
VENV    := .venv
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.setup-stamp
QUALITY ?=
APT_PKGS := libcairo2-dev libpango1.0-dev pkg-config bubblewrap
# what only `make test` needs: the browser the presenter's tests drive (tests/test_present.py), poppler-utils,
# whose pdftoppm/pdftotext read the handout back (tests/test_handout.py), and ffmpeg, whose EBU R128 meter
# measures the delivered audio and which extracts the MP4's subtitle stream (tests/test_accessibility.py)
TEST_APT_PKGS := chromium poppler-utils ffmpeg
TEST_STAMP := $(VENV)/.test-setup-stamp

.PHONY: setup render preview test lint bench clean
.DEFAULT_GOAL := render

setup: $(STAMP)

# The shell lines that install the missing Debian packages among $(1) as root, or else print the
# exact sudo line and stop with status 2; $(2) says what they are for, $(3) adds to the missing list.
define apt_ensure
missing=""; \
for p in $(1); do \
  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
done; \
$(3) \
if [ -n "$$missing" ]; then \
  if [ "$$(id -u)" = 0 ]; then \
    echo "Installing Debian packages$(2):$$missing"; \
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing >/dev/null; \
  else \
    echo "Missing Debian packages$(2):$$missing. Run: sudo apt-get install -y$$missing" >&2; exit 2; \
  fi; \
fi;
endef

# Re-runs only when pyproject.toml changes; otherwise `make` sees the stamp and does nothing.  The packages
# go in with uv (pip installs uv, uv the project: 2-13 s on a fresh venv, where pip alone took 33 s with its
# cache warm); where uv cannot be had, pip installs them as before.
$(STAMP): pyproject.toml Makefile
	@set -e; \
	if [ "$$(uname -s)" = Darwin ]; then \
	  if ! pkg-config --exists cairo pangocairo 2>/dev/null; then \
	    echo "Cairo and Pango are missing. Run: brew install cairo pango pkg-config" >&2; exit 2; fi; \
	else \
	  $(call apt_ensure,$(APT_PKGS),,python3 -c 'import ensurepip; import venv' 2>/dev/null || missing="$$missing python3-venv";) \
	fi; \
	python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python 3.11 or newer is needed, found $$(python3 --version 2>&1)" >&2; exit 2; }; \
	test -x $(PY) || python3 -m venv $(VENV); \
	if $(PY) -m pip install --quiet --disable-pip-version-check uv >/dev/null 2>&1 \
	   && $(VENV)/bin/uv pip install --quiet --python $(PY) -e '.[test]'; then :; \
	else $(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'; fi; \
	touch $@

render: $(STAMP)
	$(VENV)/bin/clips render $(if $(QUALITY),--quality $(QUALITY))
	$(VENV)/bin/clips lecture $(if $(QUALITY),--quality $(QUALITY))

# the quick draft: 480p15, silent
preview: $(STAMP)
	$(VENV)/bin/clips render --quality l --voice none
	$(VENV)/bin/clips lecture --quality l

# two workers; a clip's tests run on one of them, heaviest groups first (tests/conftest.py); what passed
# under this exact tree and toolset is not run again (tests/resultcache.py): FULL=1 runs everything
test: $(TEST_STAMP)
	$(PY) -m ruff check --quiet .
	$(if $(FULL),CLIPS_TESTS_FULL=1 )$(PY) -m pytest -n 2 --dist loadgroup --no-loadscope-reorder -q

# Debian's chromium, installed like the packages above (Playwright drives it; its own browser download is not used)
$(TEST_STAMP): $(STAMP)
	@set -e; \
	if [ "$$(uname -s)" = Darwin ]; then \
	  test -x /Applications/Chromium.app/Contents/MacOS/Chromium || { \
	    echo "Chromium is missing. Run: brew install --cask chromium" >&2; exit 2; }; \
	else \
	  $(call apt_ensure,$(TEST_APT_PKGS), for the tests,) \
	fi; \
	touch $@

# pyflakes' checks over the tree (ruff, configured in pyproject.toml): unused imports and variables, undefined names
lint: $(TEST_STAMP)
	$(PY) -m ruff check .

bench: $(TEST_STAMP)
	$(PY) -m scenes.render.bench

clean:
	rm -rf out media .pytest_cache .hypothesis
