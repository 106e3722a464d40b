# Newsstand: the two README commands (`make run`, `make test`) and a few helpers.
# Every target that builds first installs the Debian packages it needs, only when missing.

PACKAGES := pkg-config libncurses-dev libsqlite3-dev libarchive-dev libpng-dev libjpeg62-turbo-dev libssl-dev libxml2-dev libcurl4-openssl-dev libsixel-dev tmux poppler-utils
# Only `make bench` needs these: the peers the benchmarks compare with (covers: chafa, jp2a; pictures: chafa; downloads: curl, and
# python3 to build its test issues; feeds: Python's feedparser; launch: newsboat; articles: python3-venv, for the
# PyPI peers below).
BENCH_PACKAGES := chafa jp2a curl python3 python3-feedparser newsboat python3-venv
# The articles case's peers, from PyPI, installed by `make bench` into .build/bench-venv (never into the system).
BENCH_PIP_PACKAGES := readability-lxml trafilatura
# Only `make test` needs these: real servers for the interoperability tests (calibre's content server for OPDS
# and logins, nghttpd for HTTP/2), and a real sixel terminal for the pictures test (xterm on Xvfb, screenshots
# with xwd from x11-apps, read with ImageMagick).
TEST_PACKAGES := calibre nghttp2-server xterm xvfb x11-apps imagemagick
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
# Release builds link the Swift runtime and Foundation statically: the program starts in about two thirds of the
# time and memory of a dynamically linked one (no symbol binding of libFoundation at launch).
RELEASE := swift build -c release --static-swift-stdlib

# Installs the Debian packages named in $(1) that are missing.
define install
	@missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

.PHONY: setup run demo test bench clean

## setup: install missing system packages (apt)
setup:
	$(call install,$(PACKAGES))

## run: build in release mode and open the shelf on the bundled sample library
run: setup
	$(RELEASE) --product newsstand
	.build/release/newsstand

## demo: the same, with the sample served over HTTP on 127.0.0.1 at a throttled rate (watch the progress bars)
demo: setup
	$(RELEASE) --product newsstand
	.build/release/newsstand --demo

## test: build everything and run every test (unit, screen, HTTP, end to end in tmux, against calibre-server and nghttpd)
test: setup
	$(call install,$(TEST_PACKAGES))
	swift build --build-tests
	swift test --skip-build --disable-swift-testing

## bench: run the benchmarks in a release build (installs chafa, jp2a, curl and newsboat when missing, to compare with,
## and readability-lxml and trafilatura from PyPI into .build/bench-venv);
## the launch case runs the real newsstand binary, so that is built first
bench: setup
	$(call install,$(BENCH_PACKAGES))
	[ -x .build/bench-venv/bin/python3 ] || python3 -m venv .build/bench-venv
	.build/bench-venv/bin/python3 -c 'import readability, trafilatura' 2>/dev/null || { .build/bench-venv/bin/pip install --quiet --upgrade pip && .build/bench-venv/bin/pip install --quiet $(BENCH_PIP_PACKAGES); }
	$(RELEASE) --product newsstand
	$(RELEASE) --product newsstand-bench
	.build/release/newsstand-bench

clean:
	rm -rf .build
