# hatelab: `make lab` to work in the notebooks, `make test` to check everything.
# See README.md. Every target first runs scripts/setup.sh, which installs
# only what is missing (a second or two when nothing is).

SHELL := /bin/bash
export GOTOOLCHAIN := local
# -trimpath: compiled packages do not depend on the clone's folder, so that a
# fresh clone (CI's) reuses the build cache of another: a warm make test
# compiles nothing (without it every package of the repository, for each
# system vet checks, is compiled again). The notebooks' kernels inherit it.
export GOFLAGS := $(strip $(filter-out -trimpath,$(shell go env GOFLAGS 2>/dev/null)) -trimpath)
PY := /usr/bin/python3
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
# make test's runs, one file a part (go tests, the Beam module, notebooks),
# for its last line.
COUNTS := .cache/test-counts
# PORT=9000 make lab; TOKEN=secret make lab (the token in the environment:
# `make lab TOKEN=...` would put it on make's command line, which ps shows).
PORT ?= 8888
TOKEN ?=
export PORT TOKEN

.PHONY: browsercheck-test nbcomplete all setup lab test vet gotest bfs-kill nnue-kill nbtest notebooks nbcheck nbsync browsercheck hatelab-beam beamtest beamfetch

all: test

setup:
	@[[ -n "$(SETUP_DONE)" ]] || bash scripts/setup.sh

## lab: set up what is missing, then start the classic Jupyter Notebook on
## 127.0.0.1:$(PORT) with a token, opened on notebooks/, terminals disabled
## (scripts/lab.sh: a busy port is refused; the token never reaches a
## command line).
## The terminal stays quiet: set-up output goes to .cache/setup.log (its path and
## last lines are printed on a failure), Jupyter's and the kernels' log to
## .cache/lab.log; the URL to open is printed last.
## HATELAB_QUICK=1 make lab: the notebooks run in quick mode (small parameters,
## figures to a temporary folder, never figures/).
lab:
	@mkdir -p .cache; if ! bash scripts/setup.sh --lab >.cache/setup.log 2>&1; then \
		echo "lab: set-up failed; its log, $(CURDIR)/.cache/setup.log, ends:" >&2; \
		tail -n 15 .cache/setup.log | sed 's/^/    /' >&2; exit 1; fi
	@bash scripts/lab.sh

## test: set up (no gopls: that is make lab's), then vet, go test, the Beam
## module and every notebook run headless in quick mode (the executed copies
## stay in .cache/nbquick for `make browsercheck`), two at a time (make -j2:
## the notebooks beside the rest, whose parts follow each other; lines of the
## two interleave, each whole); ends with one line: the tests and notebooks
## passed, failed and skipped, each run's share, and the skipped tests by name
## (.cache/test-counts/ holds the runs).
test: setup
	@rm -rf $(COUNTS)
	@$(MAKE) --no-print-directory -j2 SETUP_DONE=1 nbtest vet gotest beamtest
	@$(PY) scripts/gotest.py --summary $(COUNTS)

## vet: gofmt, go vet, the same for Windows, macOS, arm64 and -tags purego on
## the packages written for a system or build (scripts/crossvet.py finds them:
## their files or system imports differ), staticcheck, then check that every
## notebook matches its text source in notebooks/src, that its citations exist,
## and that the numbers its prose quotes from its own cells (marked
## `<!-- quotes *HEADING*: "..." -->`) are what the committed, full-mode
## notebook prints (scripts/quotecheck.py; quick runs are never read).
vet: setup
	@files=$$(gofmt -l .); if [ -n "$$files" ]; then echo "gofmt: not formatted: $$files" >&2; exit 1; fi
	go vet ./...
	$(PY) scripts/crossvet.py
	bin/staticcheck ./...
	$(PY) scripts/mknb.py --check
	$(PY) scripts/citecheck.py
	$(PY) scripts/quotecheck.py

## gotest: every package's tests, and the NNUE package again with its Go loops
## in place of the AVX2 kernels (-tags purego), as on machines without them
## (scripts/gotest.py: each package's result, failures in full, skipped tests
## with their reasons, and a line of counts, added to $(COUNTS) for make test).
gotest:
	@mkdir -p $(COUNTS); rm -f $(COUNTS)/1-go.json
	$(PY) scripts/gotest.py --counts $(COUNTS)/1-go.json --label "go tests" ./...
	$(PY) scripts/gotest.py --counts $(COUNTS)/1-go.json --label "engine/nnue again with -tags purego" -tags purego ./engine/nnue/

## beamfetch: download the Beam module's dependencies (dist/go.mod: Apache
## Beam's Go SDK, kept out of the core module), each try bounded by a timeout
## and retried (the module proxy can stall).
beamfetch:
	@cd dist && for i in 1 2 3; do timeout 600 go list -deps -test ./... >/dev/null && exit 0; \
		echo "beamfetch: try $$i failed or stalled; retrying" >&2; done; exit 1

## hatelab-beam: build bin/hatelab-beam, the Beam engine's binary
## (go build ./cmd/hatelab-beam in dist/): bfs, beam, classic sweep and nnue
## targets on Apache Beam, in process on Prism or on a cluster (README:
## "Scale-out with Apache Beam").
hatelab-beam: setup beamfetch
	cd dist && go build -o ../bin/hatelab-beam ./cmd/hatelab-beam

## beamtest: vet, staticcheck and test the Beam module (byte-identical levels
## and the same games as the native engines), then submit searches to a
## standalone Prism job server with a separate Go worker pool.
beamtest: hatelab-beam
	cd dist && go vet ./... && ../bin/staticcheck ./...
	@mkdir -p $(COUNTS); rm -f $(COUNTS)/2-beam.json
	cd dist && HATELAB_BEAM_BIN=$(CURDIR)/bin/hatelab-beam $(PY) ../scripts/gotest.py --counts ../$(COUNTS)/2-beam.json --label "the Beam module" ./...
	bash dist/scripts/jobserver-check.sh bin/hatelab-beam

## nnue-kill: kill -9 a small nnue cycle at random moments and during checkpoint writes, resume, compare
nnue-kill:
	HATELAB_NNUE_KILL=12 go test ./cmd/hatelab/ -run TestNNUECycleKill9 -count=1 -v

## bfs-kill: kill -9 a compressed 10x6 search at random moments, resume, compare with datasets/bfs
bfs-kill:
	HATELAB_BFS_KILL=10x6 go test ./cmd/hatelab/ -run TestBFSCompressKill9 -count=1 -v

## nbcomplete: ask GoNB's gopls for a completion and for help, as Tab and
## Shift-Tab in a notebook do (scripts/nbcomplete.py; not part of make test:
## it starts a kernel and gopls, a minute or two on a fresh clone).
nbcomplete:
	@bash scripts/setup.sh --lab >/dev/null
	$(PY) scripts/nbcomplete.py

## nbtest: every notebook in quick mode (the kernels link the cells' programs
## without DWARF debugging data, -ldflags=-w: a sixth less CPU; they run the same).
nbtest: export GOFLAGS := $(GOFLAGS) -ldflags=-w
nbtest:
	@mkdir -p $(COUNTS); rm -f $(COUNTS)/3-notebooks.json
	rm -rf .cache/nbquick
	$(PY) scripts/nbrun.py --quick --jobs 2 --out .cache/nbquick --counts $(COUNTS)/3-notebooks.json $(NOTEBOOKS)

## browsercheck: open every notebook executed in quick mode (those of the last
## `make test`, or run again when stale) in the classic Notebook in headless
## Chromium and check what a reader sees (tools/browsercheck/check.js): no
## error output, nothing wider than its cell, no code line cut, no NaN, Inf or
## float noise in tables and text, no DOT or JSON dump, no character drawn as
## a box (no glyph, a fallback font's hex-code box, a dashed box), no SVG text
## clipped, overlapping or wider than its box, no chart crammed into a corner,
## no cited repository path that does not exist, at most one progress bar per
## finished cell. Viewport tiles (1200x1000) go
## to the folder it names (BROWSERCHECK_OUT to choose it). Installs chromium,
## Node and the pinned playwright-core (tools/browsercheck) when missing.
browsercheck:
	@bash scripts/setup.sh --browser
	@bash scripts/browsercheck.sh

## browsercheck-test: the check's own tests: a clean made-up notebook passes,
## and each planted defect of another (an overflowing line, a number split
## across lines or cut from its comparison sign, a verdict beside an interval
## that says otherwise, and the rest of the list above) is reported
## (scripts/browsercheck_test.go).
browsercheck-test:
	@bash scripts/setup.sh --browser
	go test ./scripts -run TestBrowserCheckSees -count=1 -v

## nbsync: write each notebook's cells from its source in notebooks/src
## (outputs kept until the notebook is executed again).
nbsync:
	@for s in notebooks/src/*.md; do n=notebooks/$$(basename $${s%.md}).ipynb; \
		echo "$$s -> $$n"; $(PY) scripts/mknb.py --sync $$s $$n || exit 1; done

## notebooks: re-execute every notebook in full mode, in place, and refresh figures/.
notebooks: setup
	$(PY) scripts/nbrun.py --inplace $(NOTEBOOKS)

## nbcheck: check that the committed notebooks carry their plots and no errors.
nbcheck:
	$(PY) scripts/nbrun.py --check-only $(NOTEBOOKS)
