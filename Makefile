# tabshell — the two commands in README.md are `make run` and `make test`.
SWIFT ?= swift
PREFIX ?= /usr/local

.PHONY: deps build run demo test release clean stress

deps:
	@./scripts/install-deps

build: deps
	$(SWIFT) build --product tabshell

## Sets up and runs tabshell on its default database.
run: build
	@"$$($(SWIFT) build --show-bin-path)/tabshell" $(ARGS)

demo: build
	@"$$($(SWIFT) build --show-bin-path)/tabshell" --demo

## Sets up and runs every test: models, screens, storage, and the real binary in tmux.
test: build
	$(SWIFT) test

release: deps
	$(SWIFT) build -c release --product tabshell

clean:
	rm -rf .build

## The long fault runs of issue #4 (the same tests `make test` runs with CI-sized counts):
##   TABSHELL_STRESS_RESIZES      random resizes per screen        (CI 150, here 1000)
##   TABSHELL_STRESS_KEYS_SECONDS random-key run of the binary, s  (CI 30,  here 240)
##   TABSHELL_STRESS_SUSPENDS     Ctrl-Z/fg and SIGSTOP/SIGCONT rounds (CI 20, here 20)
##   TABSHELL_STRESS_SEED         replay a resize or random-key run (printed by each run)
##   TABSHELL_STRESS_SCREENS      resize only these screens, e.g. help,photos (for replays)
##   TABSHELL_STRESS_DUMP_SIZES   write the resize sequence to this file (to replay it by hand)
stress: build
	TABSHELL_STRESS_RESIZES=1000 TABSHELL_STRESS_KEYS_SECONDS=240 TABSHELL_STRESS_SUSPENDS=20 \
		$(SWIFT) test --filter 'ResizeStressEndToEndTests|RandomKeysEndToEndTests|SuspendEndToEndTests'
