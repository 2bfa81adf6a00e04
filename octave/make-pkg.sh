#!/bin/sh
# make-pkg.sh -- writes the Octave package of batchsym, OUTDIR/batchsym-<version>.tar.gz,
# in Octave's pkg format (`make octave-pkg` runs it):
#
#   batchsym/DESCRIPTION  Name, Version, Date, Author, Maintainer, Title,
#                         Description, License: from the top-level DESCRIPTION
#   batchsym/COPYING      the MIT license, its year and holder from LICENSE
#   batchsym/INDEX        every function, from octave/bsym_*.m
#   batchsym/inst/        octave/bsym_*.m (help text and tests)
#   batchsym/src/         the gateways (octave/*.c, *.h), octave/Makefile as
#                         octave.mk, octave/pkg/Makefile as Makefile, and lib/:
#                         the core's configure and src/ (lib.mk, sources.mk,
#                         Makevars.in, core/, cuda/), the same files `make lib` uses
#
#   usage: octave/make-pkg.sh OUTDIR
set -eu
outdir=${1:?usage: make-pkg.sh OUTDIR}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
cd "$(dirname "$0")/.."

# The value of a field of the top-level DESCRIPTION (a DCF file: continuation
# lines start with blanks), on one line.
field() {
    awk -v name="$1" '
        /^[^ \t]/ { on = index($0, name ":") == 1; if (on) { sub("^[^:]*: *", ""); v = $0 }; next }
        on        { sub("^[ \t]+", " "); v = v $0 }
        END       { print v }' DESCRIPTION
}
version=$(field Version)
[ -n "$version" ] || { echo "make-pkg.sh: no Version in DESCRIPTION" >&2; exit 1; }
# Authors@R: person("given", "family", ..., email = "address")
authors=$(field 'Authors@R')
who=$(echo "$authors" | sed -n 's/.*person( *"\([^"]*\)", *"\([^"]*\)".*/\1 \2/p')
email=$(echo "$authors" | sed -n 's/.*email *= *"\([^"]*\)".*/\1/p')
license=$(field License | sed 's/ *+ *file LICENSE//')

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
pkg=$stage/batchsym
mkdir -p "$pkg/inst" "$pkg/src/lib/src"

cat > "$pkg/DESCRIPTION" <<EOF
Name: batchsym
Version: $version
Date: $(date +%Y-%m-%d)
Author: $who <$email>
Maintainer: $who <$email>
Title: $(field Title)
Description: $(field Description)
License: $license
EOF

year=$(sed -n 's/^YEAR: *//p' LICENSE)
holder=$(sed -n 's/^COPYRIGHT HOLDER: *//p' LICENSE)
cat > "$pkg/COPYING" <<EOF
MIT License

Copyright (c) $year $holder

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
EOF

{
    echo "batchsym >> $(field Title)"
    echo "Functions"
    for f in octave/bsym_*.m; do echo " $(basename "$f" .m)"; done
} > "$pkg/INDEX"

cp octave/bsym_*.m "$pkg/inst/"
cp octave/*.c octave/*.cc octave/*.h "$pkg/src/"
cp octave/Makefile "$pkg/src/octave.mk"
cp octave/pkg/Makefile "$pkg/src/Makefile"
cp configure "$pkg/src/lib/"
cp src/lib.mk src/sources.mk src/Makevars.in "$pkg/src/lib/src/"
# the core's and the kernels' sources, without what a build left there
tar -C src --exclude='*.o' --exclude='*.a' --exclude='*.so' -cf - core cuda | tar -C "$pkg/src/lib/src" -xf -

out=$outdir/batchsym-$version.tar.gz
tar -C "$stage" -czf "$out" batchsym
echo "wrote $out"
