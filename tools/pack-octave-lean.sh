#!/bin/bash
# pack-octave-lean.sh -- Octave and the MEX for ONE device call: the shared
# ../shared/tools/pack-octave-runtime.sh packs the whole of Octave (52 MB),
# which with the MEX built for the GPU (13 MB of xz) exceeds a call's carry
# (64 MiB). This packs the same Octave without the oct-files of graphics
# toolkits, audio, ODE solvers, linear programming and computational
# geometry (none of which the tests touch), so without the libraries they
# pull in (FLTK, OpenGL, PortAudio, SUNDIALS, GLPK, Qhull): 39 MB. Then it
# builds the MEX (`make octave`, with the library as configured: build it
# for the device's architecture, e.g. BSYM_CUDA_ARCH=90 make lib) and packs
# a stripped copy:
#
#   tools/pack-octave-lean.sh       -> .ot/octave-runtime.tar.xz, .ot/mex.tar.xz
#
# On the device (carry [".ot"]; tools/gpu-check.sh unpacks both the same way):
#   tar -xJf .ot/octave-runtime.tar.xz -C / && source /opt/octlib/env.sh &&
#   tar -xJf .ot/mex.tar.xz && BSYM_OCTAVE_DEVICE=gpu octave-cli --eval \
#     "addpath('$PWD/octave'); addpath('$PWD/tests/octave'); run_octave_tests('$OUT/counts')"
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared/tools/pack-octave-runtime.sh
[ -f "$shared" ] || { echo "no $shared" >&2; exit 1; }
drop="__init_fltk__ __fltk_uigetfile__ __init_gnuplot__ __ode15__ __glpk__ audiodevinfo audioread __delaunayn__ __voronoi__ convhulln"
script=$(mktemp)
stage=$(mktemp -d)
trap 'rm -rf "$script" "$stage"' EXIT
# After the copy of Octave's library tree: the oct-files go, and so do the
# lines of PKG_ADD that name them or register their graphics toolkits; the
# shared libraries are then looked up from what is left (ldd of the staged
# tree instead of the installed one).
sed -e "/^cp -a \/usr\/lib\/x86_64-linux-gnu\/octave /a oct=\$(echo \"\$stage\"/usr/lib/x86_64-linux-gnu/octave/\"\$ver\"/oct/*); for f in $drop; do rm -f \"\$oct/\$f.oct\"; sed -i \"/\$f/d\" \"\$oct/PKG_ADD\"; done; sed -i -e '/gnuplot/d' -e '/fltk/d' \"\$oct/PKG_ADD\"" \
    -e 's|find /usr/lib/x86_64-linux-gnu/octave -name|find "$stage"/usr/lib/x86_64-linux-gnu/octave -name|' \
    "$shared" >"$script"
grep -q 'rm -f "$oct/$f.oct"' "$script" || { echo "the shared packer changed: the lean edits do not apply" >&2; exit 1; }
mkdir -p .ot
bash "$script" .ot/octave-runtime.tar.xz
make octave
mkdir -p "$stage/octave/private"
cp octave/private/__bsym__.mex octave/private/__bsym_empty__.oct "$stage/octave/private/"
strip --strip-unneeded "$stage"/octave/private/*
tar -C "$stage" -cJf .ot/mex.tar.xz octave/private/__bsym__.mex octave/private/__bsym_empty__.oct
ls -l .ot/
