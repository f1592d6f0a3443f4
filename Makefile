# tabshell — the two commands in README.md are `make run` and `make test`.
SWIFT ?= swift
PREFIX ?= /usr/local

.PHONY: deps build link run demo serve-demo lint format check test release clean stress

# Where `make run` leaves `tabshell` runnable by name: DEV_PREFIX/bin/tabshell, a link to the
# debug build, and DEV_PREFIX/share/man/man1/tabshell.1 (scripts/install-dev).
DEV_PREFIX ?= $(HOME)/.local
# The build `man` and `completions` are made from (`make install` uses release).
CONFIGURATION ?= debug

deps:
	@./scripts/install-deps

build: deps
	$(SWIFT) build --product tabshell

## Sets up and runs tabshell on its default database; `tabshell` and `man tabshell` work from then on.
run: build link
	@"$$($(SWIFT) build --show-bin-path)/tabshell" $(ARGS)

## `tabshell` by name without a release build: ~/.local/bin/tabshell links to this debug build and
## its man page goes to ~/.local/share/man/man1; says where, and how to put ~/.local/bin on PATH.
link: build man
	@./scripts/install-dev "$$($(SWIFT) build --show-bin-path)/tabshell" $(GENERATED)/tabshell.1 "$(DEV_PREFIX)"

demo: build
	@"$$($(SWIFT) build --show-bin-path)/tabshell" --demo

## Serves the demo over SSH to anyone: ssh -p 2222 host (each connection on its own throw-away data).
serve-demo: build
	@"$$($(SWIFT) build --show-bin-path)/tabshell" serve --demo --listen 0.0.0.0:2222 $(ARGS)

## The code's layout, checked by the toolchain's own swift-format against .swift-format.
lint:
	$(SWIFT) format lint --strict --parallel --recursive Sources Tests Package.swift

## Rewrites the code to that layout.
format:
	$(SWIFT) format format --in-place --recursive Sources Tests Package.swift

## The fast tiers for the inner loop (a few minutes): the build, the layout check, and every suite
## not tagged .e2e, .stress or .postgres (Tests/TestSupport/Tags.swift). swift test 6.3 cannot
## select by tag, so scripts/test-tiers reads the tags from the sources and names those suites
## to --skip. The storage suites run on both engines, on a throw-away PostgreSQL server as below.
check: deps lint
	$(SWIFT) build --build-tests
	@trap 'exit 130' INT TERM; \
	trap './scripts/pg-test-server stop' EXIT; \
	url="$$(./scripts/pg-test-server start)" || exit 1; \
	export TABSHELL_TEST_DATABASE_URL="$$url"; \
	skips="$$(./scripts/test-tiers skip e2e stress postgres)" || exit 1; \
	echo "scripts/test-shards '$(CHECK_SHARD)' $(TEST_BINARY) --skip SSHServerTests $(OWN_PASS_SKIPS) (without the suites tagged e2e, stress, postgres)"; \
	./scripts/test-shards '$(CHECK_SHARD)' "$(TEST_BINARY)" --skip SSHServerTests $(OWN_PASS_SKIPS) $$skips || exit $$?; \
	echo "$(SWIFT) test --skip-build --filter '$(CHECK_OWN_PASS_FILTER)' (the same)"; \
	$(SWIFT) test --skip-build --filter '$(CHECK_OWN_PASS_FILTER)' $$skips

## Journeys that, like the SSH server's tests, wait on several real ssh clients from async code
## (record and replay, a presenter with watchers), in a pass of their own: in the main pass
## the blocking terminal tests held the cooperative threads long enough for their 10 s waits to
## run out, and beside the SSH server's tests they starved its idle-timeout waits. The agents'
## tools' waits (AgentDeskTests) too: in a CI run's main pass a wait's task got no thread for
## more than its 120 s, so a wait that must see another connection's write saw its deadline first.
OWN_PASS_SUITES = RecordReplayEndToEndTests PresentWatchEndToEndTests AgentDeskTests
OWN_PASS_SKIPS = $(foreach suite,$(OWN_PASS_SUITES),--skip $(suite))
OWN_PASS_FILTER = $(subst $(eval) ,|,$(OWN_PASS_SUITES))
## `make check` runs the SSH server's suites in a pass of their own too, as `make test` does, and
## for one more reason: a session template makes the test process a child subreaper, so a
## daemon another suite starts (a tmux server) comes back to it when it ends, as a zombie no one
## reaps; Swift Testing's exit-test waiter then spins on that zombie (waitid with WNOWAIT) and
## never sees its own child, and the exit test beside it waited for ever.
CHECK_OWN_PASS_FILTER = SSHServerTests|$(OWN_PASS_FILTER)

## The test binary `swift test` runs, run directly where a pass is two processes (scripts/test-shards:
## Swift Testing runs a process's tests on one thread a core, and a test that waits holds its
## thread; SwiftPM's lock lets only one `swift test` use .build at a time). The shard runs beside
## the rest: the journeys in `make test` (561 s as one process here, 409 s as two), the storage
## suites in `make check`.
TEST_BINARY = $$($(SWIFT) build --show-bin-path)/tabshellPackageTests.xctest
TEST_SHARD = ^EndToEndTests\.
CHECK_SHARD = ^(StorageTests|PostgresStorageTests)\.

## Sets up and runs every test (after the layout check): models, screens, storage, and the real binary in tmux.
## The SSH server's tests and the idle-timeout journeys run on their own, one after the other: they wait on real ssh
## clients from async code, and the blocking terminal tests would otherwise hold the 2-core
## machine's cooperative threads (the idle journeys race the server's own timer: starved, their
## wait began after the session had already been closed for idleness).
## A throw-away PostgreSQL server (scripts/pg-test-server, docs/postgres.md) runs for the
## duration, its URL in TABSHELL_TEST_DATABASE_URL; it is stopped however the tests end.
test: build man lint
	$(SWIFT) build --build-tests
	@trap 'exit 130' INT TERM; \
	trap './scripts/pg-test-server stop' EXIT; \
	url="$$(./scripts/pg-test-server start)" || exit 1; \
	export TABSHELL_TEST_DATABASE_URL="$$url"; \
	echo "scripts/test-shards '$(TEST_SHARD)' $(TEST_BINARY) --skip SSHServerTests --skip ServeIdleEndToEndTests $(OWN_PASS_SKIPS)"; \
	./scripts/test-shards '$(TEST_SHARD)' "$(TEST_BINARY)" --skip SSHServerTests --skip ServeIdleEndToEndTests $(OWN_PASS_SKIPS) || exit $$?; \
	echo "$(SWIFT) test --skip-build --filter SSHServerTests"; \
	$(SWIFT) test --skip-build --filter SSHServerTests || exit $$?; \
	echo "$(SWIFT) test --skip-build --filter '$(OWN_PASS_FILTER)'"; \
	$(SWIFT) test --skip-build --filter '$(OWN_PASS_FILTER)' || exit $$?; \
	echo "$(SWIFT) test --skip-build --filter ServeIdleEndToEndTests"; \
	$(SWIFT) test --skip-build --filter ServeIdleEndToEndTests

## The release build's flags (docs/performance.md): the Swift runtime and Foundation linked
## into the binary, so a session maps 8 shared libraries instead of 22 and starts on ~30 % less
## CPU, and the installed binary needs no Swift runtime on the host. `make bench` and
## `make bench-serve` build with the same flags (a .build switched between them rebuilds once).
RELEASE_FLAGS ?= --static-swift-stdlib

release: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product tabshell

clean:
	rm -rf .build

# --- Installing: `make install PREFIX=$HOME/.local` (default /usr/local; DESTDIR for packagers) ---
.PHONY: man completions install uninstall

GENERATED = .build/generated
BIN = $$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)/tabshell
BINDIR = $(DESTDIR)$(PREFIX)/bin
MAN1DIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

## The man page, generated from the argument-parser definitions by its generate-manual plugin, from
## the CONFIGURATION build (debug by default: the page is the same, and no release build is made).
## Made again only when the binary is newer than it. Its SYNOPSIS shows the subcommand as optional
## (`tabshell` alone runs the app), which the plugin cannot say of a root command with subcommands.
man: deps
	@if [ ! "$(GENERATED)/tabshell.1" -nt "$(BIN)" ]; then \
		echo "$(SWIFT) package plugin generate-manual --configuration $(CONFIGURATION)"; \
		$(SWIFT) package plugin generate-manual --configuration $(CONFIGURATION) >/dev/null && \
		mkdir -p $(GENERATED) && \
		cp .build/plugins/GenerateManual/outputs/tui/tabshell.1 $(GENERATED)/tabshell.1 && \
		sed -i '/^\.Sh SYNOPSIS/,/^\.Sh /s/^\.Ar subcommand$$/.Op Ar subcommand/' $(GENERATED)/tabshell.1; \
	fi

## Shell completions for bash, zsh and fish, generated by the binary itself.
## A release build takes RELEASE_FLAGS, so what `make install` copies is the static-stdlib binary
## even after the man page's plugin has built release without them.
completions: deps
	$(SWIFT) build -c $(CONFIGURATION) $(if $(filter release,$(CONFIGURATION)),$(RELEASE_FLAGS)) --product tabshell
	mkdir -p $(GENERATED)
	"$(BIN)" --generate-completion-script bash > $(GENERATED)/tabshell.bash
	"$(BIN)" --generate-completion-script zsh > $(GENERATED)/_tabshell
	"$(BIN)" --generate-completion-script fish > $(GENERATED)/tabshell.fish

## Builds release and installs the binary, the man page and the completions under PREFIX.
install: CONFIGURATION = release
install: release man completions
	install -d "$(BINDIR)" "$(MAN1DIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	install -m 755 "$(BIN)" "$(BINDIR)/tabshell"
	install -m 644 $(GENERATED)/tabshell.1 "$(MAN1DIR)/tabshell.1"
	install -m 644 $(GENERATED)/tabshell.bash "$(BASHDIR)/tabshell"
	install -m 644 $(GENERATED)/_tabshell "$(ZSHDIR)/_tabshell"
	install -m 644 $(GENERATED)/tabshell.fish "$(FISHDIR)/tabshell.fish"

## Removes what `make install` put under PREFIX (the data in ~/.local/share/tabshell stays).
uninstall:
	rm -f "$(BINDIR)/tabshell" "$(MAN1DIR)/tabshell.1" "$(BASHDIR)/tabshell" "$(ZSHDIR)/_tabshell" "$(FISHDIR)/tabshell.fish"

# --- The Debian package (docs/operating.md) ---
.PHONY: deb

## tabshell_VERSION_ARCH.deb and tabshell-dbgsym_VERSION_ARCH.deb in DEB_OUT (scripts/make-deb):
## the release binary stripped (its debug information in the -dbgsym package), the man page, the
## completions, tabshell.service. DEB_BINARY=PATH packages that binary instead of building release.
DEB_OUT ?= .build/deb
DEB_BINARY ?=
deb: $(if $(DEB_BINARY),,release) man
	./scripts/make-deb --binary "$(or $(DEB_BINARY),$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path)/tabshell)" \
		--man $(GENERATED)/tabshell.1 --out "$(DEB_OUT)"

## The long fault runs (the same tests `make test` runs with CI-sized counts):
##   TABSHELL_STRESS_RESIZES      random resizes per screen        (CI 150, here 1000)
##   TABSHELL_STRESS_KEYS_SECONDS random-key run of the binary, s  (CI 30,  here 240)
##   TABSHELL_STRESS_SUSPENDS     Ctrl-Z/fg and SIGSTOP/SIGCONT rounds (CI 20, here 20)
##   TABSHELL_PROPERTY_RUNS       random model sessions of 200-400 steps (CI 2000, here 10000)
##   TABSHELL_CRASH_RUNS          SIGKILLs in the crash test       (CI 200, here 1000)
##   TABSHELL_COMMITS_PER_SESSION commits by each of 8 sessions    (CI 500, here 2000)
##   TABSHELL_PG_COMMITS_PER_SESSION the same on PostgreSQL, 2 hosts of 8 sessions (CI 200, here 2000)
##   TABSHELL_STRESS_SEED         replay a resize or random-key run (printed by each run)
##   TABSHELL_STRESS_SCREENS      resize only these screens, e.g. help,photos (for replays)
##   TABSHELL_STRESS_DUMP_SIZES   write the resize sequence to this file (to replay it by hand)
stress: build
	@trap 'exit 130' INT TERM; \
	trap './scripts/pg-test-server stop' EXIT; \
	url="$$(./scripts/pg-test-server start)" || exit 1; \
	export TABSHELL_TEST_DATABASE_URL="$$url"; \
	TABSHELL_STRESS_RESIZES=1000 TABSHELL_STRESS_KEYS_SECONDS=240 TABSHELL_STRESS_SUSPENDS=20 \
	TABSHELL_PROPERTY_RUNS=10000 TABSHELL_CRASH_RUNS=1000 TABSHELL_COMMITS_PER_SESSION=2000 \
	TABSHELL_PG_COMMITS_PER_SESSION=2000 \
		$(SWIFT) test --filter 'ResizeStressEndToEndTests|RandomKeysEndToEndTests|SuspendEndToEndTests|AppPropertyTests|CrashTests|ConcurrencyTests|MultiHostTests'
## Performance benchmark: release build, data sets, tabshell vs a bare curses program.
.PHONY: bench bench-data bench-serve
## tabshell serve against OpenSSH + ForceCommand, memory per session, N sessions typing;
## then the crowd: CROWD demo sessions (default 1000; CROWD=100 for fewer, CROWD_SECONDS,
## CROWD_ONLY=1) typing a key a second: p50/p99 key-to-screen, failures, the host's memory.
bench-serve:
	@TABSHELL_RELEASE_FLAGS="$(RELEASE_FLAGS)" ./scripts/bench-serve $(ARGS)

bench:
	@TABSHELL_RELEASE_FLAGS="$(RELEASE_FLAGS)" ./scripts/bench $(ARGS)

## Generates the benchmark's data sets (empty, 10k, 1M records) under .build-bench/data.
bench-data:
	@./scripts/bench-data

# --- Attacking the demo server (docs/threat-model.md) ---
.PHONY: fuzz attack

## The fuzz tests for longer than `make test` runs them: FUZZ_SECONDS per target (default 60),
## FUZZ_SEED to replay a run (each target prints its seed).
FUZZ_SECONDS ?= 60
fuzz: deps
	$(SWIFT) build --build-tests
	TABSHELL_FUZZ_SECONDS=$(FUZZ_SECONDS) TABSHELL_FUZZ_COUNT=100000000 $(if $(FUZZ_SEED),TABSHELL_FUZZ_SEED=$(FUZZ_SEED)) \
		$(SWIFT) test --skip-build --filter 'FuzzTests'

## A demo server on loopback under attack, with counts and time bounded: VISITORS legitimate
## visitors, HOSTILE clients cycling through the probes, a connection flood from 10 addresses;
## prints what was served and what was left (scripts/serve-attack; ATTACK_ARGS for more options).
## Then the room's run: watch codes guessed, one visitor's sessions, uploads and recordings, a
## killed server's leftovers, each with its figure.
VISITORS ?= 200
HOSTILE ?= 200
attack: build
	@./.build-venv/bin/python scripts/serve-attack attack --binary "$$($(SWIFT) build --show-bin-path)/tabshell" \
		--visitors $(VISITORS) --hostile $(HOSTILE) $(ATTACK_ARGS)
	@./.build-venv/bin/python scripts/serve-attack room --binary "$$($(SWIFT) build --show-bin-path)/tabshell"
