# Makefile -- the developer's and the user's commands.
#
#   make demo     install what is missing, build, install the R package, run the demos
#                 (100 000 SPD solves, then a short CVA regression experiment)
#   make test     install what is missing, build, run the C, R and Octave tests
#                 (Octave twice: from octave/, and as the installed package);
#                 the last line is "N passed, N failed" over all of them
#   make lib      the core (and CUDA kernels) as src/libbatchsym.a
#   make octave   the Octave MEX file, so that addpath('<repo>/octave') works
#   make octave-pkg  the Octave package build/batchsym-<version>.tar.gz, for
#                 pkg install (see octave/make-pkg.sh)
#   make test-octave-pkg  install that package under build/octave-pkg and run the
#                 Octave tests against it (a CPU-only build unless BSYM_CUDA is set
#                 and not 0)
#   make vignette render vignettes/cva-regression.Rmd and pde-pricing.Rmd with the
#                 installed package into build/vignettes/*.html, their figures also kept
#                 there as PNG files (BSYM_CVA_M0=100 for a quick, smaller run)
#   make bench    the device-resident benchmark (needs a GPU)
#   make check    R CMD build, then R CMD check --as-cran of the tarball, CPU-only
#   make clean
#
# BSYM_CUDA=0 forces a CPU-only build; BSYM_CUDA_HOME and BSYM_CUDA_ARCH are
# read by ./configure.
SHELL = /bin/bash
CC ?= cc
CFLAGS_CORE = -O2 -std=gnu11 -fopenmp -Wall -Wextra
R_LIB ?= $(CURDIR)/build/rlib
DEBIAN_PACKAGES = r-base-dev r-cran-testthat octave liboctave-dev g++
DEBIAN_PACKAGES += pandoc r-cran-knitr r-cran-rmarkdown
# qpdf and checkbashisms (devscripts): R CMD check --as-cran (make check) uses them
DEBIAN_PACKAGES += qpdf devscripts
# the future framework: the test and the example of chunks on workers
DEBIAN_PACKAGES += r-cran-future r-cran-future.apply
# progressr: progress of long calls (suggested; tested)
DEBIAN_PACKAGES += r-cran-progressr
# withr: the tests' temporary options (suggested; testthat needs it too)
DEBIAN_PACKAGES += r-cran-withr
VIGNETTE_OUT = $(CURDIR)/build/vignettes

.PHONY: all deps configure lib install octave octave-pkg test test-c test-r test-octave test-octave-pkg demo vignette bench clean

all: lib install octave

# Debian packages the build and tests need, installed when missing (as root).
deps:
	@missing=""; \
	for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "run as root (or install:$$missing)"; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# configure rewrites src/bsym-config.mk only when the choice changes, and
# every object depends on that file, so a changed choice rebuilds them.
configure:
	@./configure

# Link flags of the current configuration, read when a recipe runs.
CUDA_LIBS_NOW = $$(sed -n 's/^CUDA_LIBS = //p' src/bsym-config.mk)

lib: configure
	@$(MAKE) --no-print-directory -C src -f lib.mk CC="$(CC)" libbatchsym.a

install: lib
	@mkdir -p $(R_LIB) build
	R CMD INSTALL --no-test-load -l $(R_LIB) . >build/install.log 2>&1 || { cat build/install.log; exit 1; }
	@echo "installed batchsym into $(R_LIB)"

octave: lib
	@$(MAKE) --no-print-directory -C octave LIB=$(CURDIR)/src/libbatchsym.a

test-c: lib
	@mkdir -p build
	$(CC) $(CFLAGS_CORE) -Isrc/core tests/c/test_core.c src/libbatchsym.a $(CUDA_LIBS_NOW) -lm -o build/test_core
	build/test_core --counts build/counts-c
	$(CXX) -O2 -std=c++17 tests/c/test_ql.cpp -o build/test_ql
	build/test_ql --counts build/counts-ql
	$(CXX) -O2 -std=c++17 tests/c/test_pack.cpp -o build/test_pack
	build/test_pack --counts build/counts-pack

test-r: install
	R_LIBS=$(R_LIB) Rscript tests/run-testthat.R build/counts-r

# The Octave tests run with the default device in BSYM_OCTAVE_DEVICE (unset:
# auto); BSYM_OCTAVE_DEVICE=gpu forces the GPU (see bsym_device).
OCTAVE = octave --no-gui --no-window-system --quiet
test-octave: octave
	$(OCTAVE) --eval "addpath('$(CURDIR)/octave'); addpath('$(CURDIR)/tests/octave'); run_octave_tests('$(CURDIR)/build/counts-octave')"

# The Octave package, and its tests: installed (pkg install -local) under
# build/octave-pkg with its own package lists, then loaded in a new Octave
# (pkg load batchsym) with nothing of octave/ on the path. The install
# builds the core again from the tarball's sources, for the CPU only unless
# BSYM_CUDA is set to something else than 0 (nvcc takes minutes).
VERSION = $(shell sed -n 's/^Version: *//p' DESCRIPTION)
OCTAVE_PKG = $(CURDIR)/build/batchsym-$(VERSION).tar.gz
OCTAVE_PKG_DIR = $(CURDIR)/build/octave-pkg
OCTAVE_PKG_LISTS = pkg local_list $(OCTAVE_PKG_DIR)/local_list; pkg global_list $(OCTAVE_PKG_DIR)/global_list
octave-pkg:
	@sh octave/make-pkg.sh build

test-octave-pkg: octave-pkg
	@rm -rf $(OCTAVE_PKG_DIR); mkdir -p $(OCTAVE_PKG_DIR)
	BSYM_CUDA=$${BSYM_CUDA:-0} $(OCTAVE) --eval "$(OCTAVE_PKG_LISTS); pkg prefix $(OCTAVE_PKG_DIR)/inst $(OCTAVE_PKG_DIR)/inst; pkg install -local $(OCTAVE_PKG)"
	$(OCTAVE) --eval "$(OCTAVE_PKG_LISTS); pkg load batchsym; addpath('$(CURDIR)/tests/octave'); run_octave_tests('$(CURDIR)/build/counts-octave-pkg', fileparts(which('bsym_solve')))"

test: deps
	@mkdir -p build; rm -f build/counts-*
	@status=0; \
	$(MAKE) --no-print-directory test-c || status=1; \
	$(MAKE) --no-print-directory test-r || status=1; \
	$(MAKE) --no-print-directory test-octave || status=1; \
	$(MAKE) --no-print-directory test-octave-pkg || status=1; \
	p=0; f=0; \
	for s in c ql pack r octave octave-pkg; do \
	  if [ -f build/counts-$$s ]; then read a b < build/counts-$$s; p=$$((p+a)); f=$$((f+b)); \
	  else echo "the $$s tests did not report their counts"; f=$$((f+1)); fi; \
	done; \
	echo "$$p passed, $$f failed"; \
	[ $$status = 0 ] && [ $$f = 0 ]

demo: deps install
	R_LIBS=$(R_LIB) Rscript demo/solve-spd.R
	R_LIBS=$(R_LIB) Rscript demo/cva-short.R

# The vignettes, rendered with the package installed in $(R_LIB); knitr's
# intermediate files stay under build/vignettes/tmp, the figures are written
# as build/vignettes/<prefix>-*.png and embedded in the HTML.
VIGNETTES = cva-regression pde-pricing
vignette: deps install
	@rm -rf $(VIGNETTE_OUT); mkdir -p $(VIGNETTE_OUT)
	@for v in $(VIGNETTES); do \
	  start=$$(date +%s); mkdir -p $(VIGNETTE_OUT)/tmp; \
	  BSYM_VIGNETTE_FIGS=$(VIGNETTE_OUT) R_LIBS=$(R_LIB) Rscript -e "rmarkdown::render('vignettes/$$v.Rmd', output_dir = '$(VIGNETTE_OUT)', intermediates_dir = '$(VIGNETTE_OUT)/tmp', knit_root_dir = '$(VIGNETTE_OUT)/tmp', quiet = TRUE)" || exit 1; \
	  rm -rf $(VIGNETTE_OUT)/tmp; \
	  echo "wrote $(VIGNETTE_OUT)/$$v.html in $$(( $$(date +%s) - start )) s"; \
	done; \
	echo "$$(ls $(VIGNETTE_OUT)/*.png | wc -l) PNG figures in $(VIGNETTE_OUT)"

bench: lib
	$(MAKE) --no-print-directory -C inst/bench LIB=$(CURDIR)/src/libbatchsym.a

clean:
	./cleanup
	rm -rf build octave/private/*.mex octave/private/*.o octave/private/build-settings
	-$(MAKE) --no-print-directory -C inst/bench clean 2>/dev/null

# ---- make check: R CMD check --as-cran of the built package, CPU-only ----
# Builds the source tarball into build/check and checks it there with
# BSYM_CUDA=0 (the CUDA build is covered by `make test`). Fails on any ERROR or
# WARNING (R CMD check itself exits 0 on a WARNING) and on a check that did not
# finish; prints the check's NOTE/WARNING/ERROR blocks and its Status line.
#  - The vignette is built by R CMD build and again by the check (--as-cran
#    re-builds it); CHECK_CVA_M0 outer paths (default 100) keep that quick.
#    `make check CHECK_CVA_M0=1000` builds and checks it at its full size
#    (about 100 s and 1.3 GB each time).
#  - The C sources are compiled with -Wall -pedantic added (as CRAN does),
#    through a user Makevars in build/check, so that a compiler warning shows
#    up as a WARNING of the install check.
#  - --no-manual only when pdflatex is missing: the PDF manual needs LaTeX.
# NOTEs a machine without network access must give (CRAN incoming
# feasibility, "unable to verify current time") are expected.
CHECK_DIR = $(CURDIR)/build/check
CHECK_CVA_M0 ?= 100
CHECK_MANUAL = $(if $(shell command -v pdflatex 2>/dev/null),,--no-manual)

.PHONY: check
check: deps
	@rm -rf $(CHECK_DIR); mkdir -p $(CHECK_DIR)
	@printf 'CFLAGS += -Wall -pedantic\n' > $(CHECK_DIR)/Makevars
	@start=$$(date +%s); cd $(CHECK_DIR) && \
	export BSYM_CUDA=0 BSYM_CVA_M0=$(CHECK_CVA_M0) R_MAKEVARS_USER=$(CHECK_DIR)/Makevars && \
	echo "R CMD build (log: $(CHECK_DIR)/build.log)" && \
	{ R CMD build $(CURDIR) >build.log 2>&1 || { cat build.log; exit 1; }; } && \
	tarball=$$(ls batchsym_*.tar.gz) && \
	echo "R CMD check --as-cran $(CHECK_MANUAL) $$tarball (log: $(CHECK_DIR)/check.log)" && \
	{ R CMD check --as-cran $(CHECK_MANUAL) $$tarball >check.log 2>&1; \
	  awk 'function flush() { if (blk ~ /(NOTE|WARNING|ERROR)\n/) printf "%s", blk; blk = "" } \
	       /^\* /{ flush() } /^Status:/{ flush(); exit } { blk = blk $$0 "\n" }' check.log; \
	  status=$$(grep '^Status:' check.log); \
	  echo "$${status:-Status: none (the check did not finish; see check.log)} in $$(( $$(date +%s) - start )) s"; \
	  [ -n "$$status" ] && ! echo "$$status" | grep -qE 'ERROR|WARNING'; }
