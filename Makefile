# tabshell — the two commands in README.md are `make run` and `make test`.
SWIFT ?= swift
PREFIX ?= /usr/local

.PHONY: deps build run demo test release clean

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

## Performance benchmark (issue #5): release build, data sets, tabshell vs a bare curses program.
.PHONY: bench bench-data
bench:
	@./scripts/bench $(ARGS)

## Generates the benchmark's data sets (empty, 10k, 1M records) under .build-bench/data.
bench-data:
	@./scripts/bench-data
