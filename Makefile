# Newsstand: the two README commands (`make run`, `make test`) and a few helpers.
# Every target that builds first installs the Debian packages it needs, only when missing.

PACKAGES := pkg-config libncurses-dev libsqlite3-dev libarchive-dev libpng-dev zlib1g-dev libjpeg62-turbo-dev libssl-dev libxml2-dev libcurl4-openssl-dev libsixel-dev tmux poppler-utils
# Only `make bench` needs these: the peers the benchmarks compare with (covers: chafa, jp2a; pictures: chafa; downloads: curl, and
# python3 to build its test issues; feeds: Python's feedparser; launch: newsboat; articles: python3-venv, for the
# PyPI peers below), and for the covers' second fidelity score xterm drawing in DejaVu Sans Mono on Xvfb, photographed with xwd;
# accounts: PHP for FreshRSS, as the tests run it.
BENCH_PACKAGES := chafa jp2a curl python3 python3-feedparser newsboat python3-venv xterm xvfb x11-apps fonts-dejavu-core \
	php8.2-cli php8.2-sqlite3 php8.2-curl php8.2-xml php8.2-mbstring php8.2-intl php8.2-zip php8.2-gmp
# The articles case's peers, from PyPI, installed by `make bench` into .build/bench-venv (never into the system).
BENCH_PIP_PACKAGES := readability-lxml trafilatura
# Only `make test` needs these: real servers for the interoperability tests (calibre's content server for OPDS
# and logins, nghttpd for HTTP/2, with certificates made by openssl; FreshRSS on PHP's built-in server for accounts),
# real terminals for the pictures tests (xterm and kitty on Xvfb, screenshots with xwd from x11-apps, read by the
# tests themselves; xdotool to type into them), python3, which builds hostile test archives and an independent KOReader
# partial MD5, and Python's feedparser, which the feed corpus test compares with; mandoc lints the manual page;
# bash (with bash-completion), zsh and fish run the completion scripts; python3-venv holds calibre-web (below); xterm draws
# cover art in DejaVu Sans Mono (fonts-dejavu-core) for the TrueType fidelity test, which compares with jp2a; strace counts
# the writes a frame takes.
TEST_PACKAGES := calibre nghttp2-server xterm xvfb x11-apps x11-utils kitty libgl1-mesa-dri xdotool openssl \
	python3 python3-feedparser php8.2-cli php8.2-sqlite3 php8.2-curl php8.2-xml php8.2-mbstring php8.2-intl php8.2-zip php8.2-gmp \
	mandoc zsh fish bash-completion python3-venv fonts-dejavu-core jp2a strace
# calibre-web, the second real OPDS server the tests start, from PyPI: installed by `make test` into .build/test-venv
# (never into the system), where the tests look for its `cps`.
TEST_PIP_PACKAGES := calibreweb
# Recipes run in bash, so a pipeline fails when its first command does (`make test` pipes swift test through a counter).
SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
# Release builds link the Swift runtime and Foundation statically: the program starts in about two thirds of the
# time and memory of a dynamically linked one (no symbol binding of libFoundation at launch). Package.swift links
# SQLite, ncurses, libpng and libjpeg statically into release executables for the same reason.
RELEASE := swift build -c release --static-swift-stdlib

# Installs the Debian packages named in $(1) that are missing.
define install
	@missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

# Where `make install` puts things, as packagers expect (`make install DESTDIR=/tmp/stage PREFIX=/usr`).
# The program finds its themes and sample library from its own path (BINDIR/../share/newsstand), so keep
# DATADIR at PREFIX/share; a DESTDIR staging tree works as it is, with no environment variable.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
# The binary installed: the release build, which `make install` builds first. Given on the command line
# (`make install BINARY=.build/debug/newsstand`), that one is installed as it is and nothing is built.
BINARY ?= .build/release/newsstand
# Where each shell looks for completion scripts below DATADIR (bash-completion, zsh's site-functions, fish's vendor folder).
BASH_COMPLETION := $(DESTDIR)$(DATADIR)/bash-completion/completions/newsstand
ZSH_COMPLETION := $(DESTDIR)$(DATADIR)/zsh/site-functions/_newsstand
FISH_COMPLETION := $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/newsstand.fish
MAN_PAGE := $(DESTDIR)$(MANDIR)/man1/newsstand.1
# What the installed program reads beside itself; `make uninstall` removes DATADIR/newsstand whole.
SHARED := $(DESTDIR)$(DATADIR)/newsstand
SAMPLE_FILES := catalog.plist README.md covers issues

.PHONY: setup run demo test bench clean build install uninstall

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

## test: build everything and run every test (unit, screen, HTTP, end to end in tmux, against calibre-server, calibre-web and nghttpd),
## then say how many ran and how many skipped; with NEWSSTAND_NO_SKIPS=1 (CI sets it) any skip fails the run
test: setup
	$(call install,$(TEST_PACKAGES))
	[ -x .build/test-venv/bin/python3 ] || python3 -m venv .build/test-venv
	[ -x .build/test-venv/bin/cps ] || { .build/test-venv/bin/pip install --quiet --upgrade pip && .build/test-venv/bin/pip install --quiet $(TEST_PIP_PACKAGES); }
	swift build --build-tests
	set -o pipefail; swift test --skip-build --disable-swift-testing 2>&1 | awk -v noskips="$${NEWSSTAND_NO_SKIPS:-}" "$$TEST_COUNTER"

# Passes swift test's output through, holding back its closing line until it has said how many tests ran and how many
# skipped (from XCTest's last "Executed N tests, with K tests skipped" line); exits 1 on a skip under NEWSSTAND_NO_SKIPS.
define TEST_COUNTER
NR > 1 { print held; fflush() }
{ held = $$0 }
/Executed [0-9]+ tests?, with/ { ran = $$0; sub(/^.*Executed /, "", ran); sub(/ .*$$/, "", ran)
  skipped = 0; if (match($$0, /[0-9]+ tests? skipped/)) { skipped = substr($$0, RSTART); sub(/ .*$$/, "", skipped) } }
END { printf "make test: %d tests ran, %d skipped\n", ran, skipped
  failed = noskips != "" && noskips != "0" && skipped > 0
  if (failed) print "make test: NEWSSTAND_NO_SKIPS is set, so a skipped test fails the run"
  if (NR > 0) print held
  exit failed }
endef
export TEST_COUNTER

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

## build: the release binary (what `make install` installs)
build: setup
	$(RELEASE) --product newsstand

## install: the binary, Themes/ and the sample library (DATADIR/newsstand), the man page and the bash, zsh and
## fish completions, below $(DESTDIR)$(PREFIX); `make uninstall` removes the same files
install: $(if $(filter command line,$(origin BINARY)),,build)
	install -d $(DESTDIR)$(BINDIR) $(SHARED)/Themes $(SHARED)/SampleLibrary
	install -m 755 $(BINARY) $(DESTDIR)$(BINDIR)/newsstand
	install -m 644 Themes/*.theme $(SHARED)/Themes/
	cp -R $(addprefix SampleLibrary/,$(SAMPLE_FILES)) $(SHARED)/SampleLibrary/
	chmod -R u+rwX,go+rX,go-w $(SHARED)
	install -d $(dir $(MAN_PAGE)) $(dir $(BASH_COMPLETION)) $(dir $(ZSH_COMPLETION)) $(dir $(FISH_COMPLETION))
	@# Written by the program from its own tables, so the page and the scripts say what this binary does.
	$(BINARY) man > $(MAN_PAGE) || { rm -f $(MAN_PAGE); exit 1; }
	$(BINARY) completion bash > $(BASH_COMPLETION) || { rm -f $(BASH_COMPLETION); exit 1; }
	$(BINARY) completion zsh > $(ZSH_COMPLETION) || { rm -f $(ZSH_COMPLETION); exit 1; }
	$(BINARY) completion fish > $(FISH_COMPLETION) || { rm -f $(FISH_COMPLETION); exit 1; }
	chmod 644 $(MAN_PAGE) $(BASH_COMPLETION) $(ZSH_COMPLETION) $(FISH_COMPLETION)

## uninstall: remove the files `make install` put there (give it the same PREFIX, DESTDIR and directories)
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/newsstand
	rm -rf $(SHARED)
	rm -f $(MAN_PAGE) $(BASH_COMPLETION) $(ZSH_COMPLETION) $(FISH_COMPLETION)

clean:
	rm -rf .build
