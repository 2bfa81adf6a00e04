#!/bin/bash
# probe.sh -- packs the C tests and chosen benchmarks for a device run in one
# small archive: the library as ONE shared object (every object of
# src/libbatchsym.a is built -fPIC), test_core and the benchmarks linked
# against it (rpath $ORIGIN). About 7 MB of xz instead of 6 MB per
# statically linked binary, so the R runtime, the R package and the probe fit
# one device call's carry (64 MiB).
#
#   make lib && tools/probe.sh bench_ldlt bench_auto      -> .probe/sh.tar.xz
# On the device: mkdir -p /tmp/sh && tar -xJf .probe/sh.tar.xz -C /tmp/sh &&
#   /tmp/sh/test_core [--only FAMILY] ; /tmp/sh/bench_ldlt --help
set -e
cd "$(dirname "$0")/.."
cuda_libs=$(grep '^CUDA_LIBS' src/bsym-config.mk | cut -d= -f2-)
arch=$(grep '^NVCC_ARCH' src/bsym-config.mk | cut -d= -f2-)
out=$(mktemp -d)
g++ -shared -o "$out/libbsym.so" -Wl,--whole-archive src/libbatchsym.a -Wl,--no-whole-archive $cuda_libs -fopenmp -lm
cc -O2 -std=gnu11 -fopenmp -DBSYM_WITH_CUDA -Isrc/core tests/c/test_core.c -L"$out" -lbsym -Wl,-rpath,'$ORIGIN' -lm \
    -o "$out/test_core"
for b in "$@"; do
    /usr/local/cuda/bin/nvcc -O3 -std=c++17 $arch -Isrc/cuda -Isrc/core "inst/bench/$b.cu" -o "$out/$b" -L"$out" -lbsym \
        -L/usr/local/cuda/lib64 -lcusolver -lcublas -lcusparse -lgomp -Xlinker -rpath='$ORIGIN' \
        -Xlinker -rpath=/usr/local/cuda/lib64
done
strip "$out"/*
mkdir -p .probe
tar -C "$out" -cJf .probe/sh.tar.xz .
rm -rf "$out"
ls -l .probe/sh.tar.xz
