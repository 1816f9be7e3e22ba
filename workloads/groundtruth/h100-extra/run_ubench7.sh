#!/bin/sh
# How ubench7.csv was measured on a lent H100 (simtgrid issue 22). OUT is
# the folder for the results.
set -u
OUT=${OUT:-.}
cd "$(dirname "$0")"
nvcc -O3 -arch=sm_90 -o /tmp/ubench7 ubench7.cu || exit 1
cuobjdump -sass /tmp/ubench7 >"$OUT/ubench7.sass"
/tmp/ubench7 >"$OUT/ubench7.csv"
