#!/usr/bin/env bash
# gpu-check.sh -- everything that needs the GPU, in one call on the GPU
# machine: CUDA build, C core tests on the GPU, the same tests' GPU subset
# (test_core --subset: every kernel and launch shape) under compute-sanitizer
# memcheck, racecheck and synccheck (each must report 0 errors), the R
# package and its testthat suite with options(batchsym.device = "gpu"), the
# Octave suite with the default device set to the GPU (BSYM_OCTAVE_DEVICE=gpu),
# the host-array calls of inst/bench/host_calls.R and .m, then the benchmarks
# (bench_ldlt, bench_tridiag, bench_eigen, bench_auto, bench_pde,
# bench_indef, bench_r.R); a short table last, with each step's seconds.
# Logs and tables go to ${OUT:-build/gpu-check}: ldlt.md, tridiag.md,
# eigen.md, auto.md, pde.md, indef.md, r.md (and the .csv twins of the first
# three and of pde.md).
#
# R there: pack this machine's R first (see DEVELOPERS' guide):
#   ../shared/tools/pack-r-runtime.sh .rt/r-runtime.tar.xz
# and carry .rt; this script unpacks it when it is there. Octave likewise:
#   tools/pack-octave-lean.sh   (.ot/octave-runtime.tar.xz and .ot/mex.tar.xz,
# the MEX built here with CUDA; 53 MB, under one call's carry of 64 MiB,
# where the shared pack-octave-runtime.sh alone is 52 MB) and carry .ot;
# R and Octave do not fit one call's carry together.
#   SANITIZE=0  skip compute-sanitizer;  SANITIZERS="racecheck", FAMILIES="eig"
#   only those;  BUILD=0  use the library already built there
#   BENCH=0   skip the benchmarks;  QUICK=1  shorter benchmark runs;
#   BENCHES="auto r"  only those benchmarks (default: ldlt tridiag eigen auto pde indef r);
#   R_ARGS="--eigen=0 ..."  more options of bench_r.R
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-build/gpu-check}
benches=${BENCHES:-ldlt tridiag eigen auto pde indef r}
mkdir -p "$out" build
status=0
summary=()
step() { # name, command...: runs, logs, records pass/fail and seconds
    local name=$1; shift
    echo "=== $name"
    local t0=$SECONDS
    if "$@" >"$out/$name.log" 2>&1; then summary+=("ok    $name ($((SECONDS - t0)) s)")
    else summary+=("FAIL  $name ($((SECONDS - t0)) s)"); status=1; fi
    tail -n 5 "$out/$name.log"
}

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
if [ -f .rt/r-runtime.tar.xz ] && ! command -v Rscript >/dev/null; then
    tar -xJf .rt/r-runtime.tar.xz -C / && source /opt/rlib/env.sh
fi
if [ -f .ot/octave-runtime.tar.xz ] && ! command -v octave-cli >/dev/null; then
    tar -xJf .ot/octave-runtime.tar.xz -C / && source /opt/octlib/env.sh
    # the MEX (and the oct-file beside it) built here travel xz-compressed
    # (the carry limit)
    [ -f .ot/mex.tar.xz ] && tar -xJf .ot/mex.tar.xz
fi

# R works here (its runtime carried and unpacked in this call)
have_r() { Rscript -e 0 >/dev/null 2>&1; }

# compute-sanitizer TOOL over one family of the C tests' GPU subset (ldlt,
# tridiag, eig, strategy, indef, csolve, ceig): passes on 0 errors and 0
# failed tests, each run within SANITIZE_TIMEOUT seconds
sanitize() {
    timeout "${SANITIZE_TIMEOUT:-300}" compute-sanitizer --tool "$1" --error-exitcode 97 \
        build/test_core --subset --only "$2" && echo "compute-sanitizer $1 on $2: 0 errors"
}

if [ "${BUILD:-1}" = 1 ]; then
    step build make lib
    step c-tests make test-c
fi
if [ "${SANITIZE:-1}" = 1 ] && [ -x build/test_core ]; then
    for tool in ${SANITIZERS:-memcheck racecheck synccheck}; do
        for family in ${FAMILIES:-ldlt tridiag eig strategy indef csolve ceig}; do step "sanitize-$tool-$family" sanitize "$tool" "$family"; done
    done
fi
if command -v octave-cli >/dev/null && ls octave/private/*.mex >/dev/null 2>&1; then
    oct="addpath('$PWD/octave'); addpath('$PWD/tests/octave'); addpath('$PWD/inst/bench');"
    step octave-tests-gpu env BSYM_OCTAVE_DEVICE=gpu octave-cli --eval "$oct run_octave_tests('$PWD/build/counts-octave-gpu')"
    step octave-host-calls bash -c "octave-cli --eval \"$oct host_calls('gpu')\" > $out/octave-calls.md"
fi
if have_r; then
    step r-install make install
    step r-tests-gpu env R_LIBS="$PWD/build/rlib" Rscript tests/run-testthat.R build/counts-r-gpu gpu
    step r-host-calls bash -c "R_LIBS=$PWD/build/rlib Rscript inst/bench/host_calls.R gpu > $out/r-calls.md"
else
    summary+=("skip  R (no R runtime carried)")
fi
if [ "${BENCH:-1}" = 1 ]; then
    has() { [[ " $benches " == *" $1 "* ]]; }
    step bench-build make -j2 -C inst/bench LIB="$PWD/src/libbatchsym.a"
    has ldlt && step bench-ldlt make -C inst/bench run OUT="$PWD/$out/ldlt.md" ${QUICK:+QUICK=1}
    has tridiag && step bench-tridiag make -C inst/bench run-tridiag TRIDIAG_OUT="$PWD/$out/tridiag.md" ${QUICK:+QUICK=1}
    has eigen && step bench-eigen make -C inst/bench run-eigen EIGEN_OUT="$PWD/$out/eigen.md" ${QUICK:+QUICK=1}
    has auto && step bench-auto make -C inst/bench run-auto AUTO_OUT="$PWD/$out/auto.md" ${QUICK:+QUICK=1}
    has pde && step bench-pde make -C inst/bench run-pde PDE_OUT="$PWD/$out/pde.md" ${QUICK:+QUICK=1}
    has indef && step bench-indef make -C inst/bench run-indef INDEF_OUT="$PWD/$out/indef.md" ${QUICK:+QUICK=1}
    if have_r && has r; then
        # shellcheck disable=SC2086
        step bench-r env R_LIBS="$PWD/build/rlib" Rscript inst/bench/bench_r.R ${QUICK:+--quick} ${R_ARGS:-} --out="$PWD/$out/r.md"
    fi
fi

echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
echo "total: $SECONDS s"
for f in build/counts-c build/counts-r-gpu build/counts-octave-gpu; do [ -f "$f" ] && echo "$f: $(cat "$f") (passed failed)"; done
for f in r-calls octave-calls; do [ -f "$out/$f.md" ] && cat "$out/$f.md"; done
[ -f "$out/ldlt.md" ] && cat "$out/ldlt.md"
[ -f "$out/tridiag.md" ] && cat "$out/tridiag.md"
[ -f "$out/eigen.md" ] && cat "$out/eigen.md"
[ -f "$out/auto.md" ] && cat "$out/auto.md"
[ -f "$out/pde.md" ] && cat "$out/pde.md"
[ -f "$out/indef.md" ] && cat "$out/indef.md"
[ -f "$out/r.md" ] && cat "$out/r.md"
exit $status
