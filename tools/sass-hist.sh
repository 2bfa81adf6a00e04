#!/usr/bin/env bash
# sass-hist.sh OBJ PATTERN -- histogram of the SASS opcodes of the sm_90
# kernels of OBJ whose mangled name contains PATTERN (needs cuobjdump, on
# the GPU machine). Example: tools/sass-hist.sh src/cuda/ldlt.o IfLi32ELi16E
obj=${1:?object}; pat=${2:?pattern}
cuobjdump -sass -arch sm_90 "$obj" | awk -v pat="$pat" '
    /Function :/ { on = index($0, pat) > 0; if (on) print "==", $3; next }
    on && /\/\*[0-9a-f]+\*\// { for (i = 1; i <= NF; i++) if ($i ~ /^[A-Z][A-Z0-9_.]+$/) { split($i, p, "."); c[p[1]]++; total++; break } }
    END { for (k in c) printf "%7d %s\n", c[k], k | "sort -rn | head -25"; printf "%7d total\n", total }'
