#!/bin/sh
# How ubench6.csv was measured on a lent H100 (simtgrid issue 22).
# OUT is the folder for the results.
set -u
OUT=${OUT:-.}
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv >"$OUT/smi6.txt" 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/ubench6 ubench6.cu || exit 1
cuobjdump -sass /tmp/ubench6 >"$OUT/ubench6.sass"
/tmp/ubench6 header >"$OUT/ubench6.csv"
for s in lsweep lbase; do
    timeout 150 /tmp/ubench6 $s >>"$OUT/ubench6.csv" 2>>"$OUT/log6.txt"
    echo "$s rc=$?" >>"$OUT/log6.txt"
done
cat "$OUT/log6.txt" "$OUT/ubench6.csv"
