#!/bin/sh
# How ubench5.csv was measured on a lent H100 (simtgrid issue 22): build,
# machine code, clocks, then each section with its own time limit so that a
# failing section cannot cost the others. OUT is the folder for the results.
set -u
OUT=${OUT:-.}
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv >"$OUT/smi.txt" 2>&1
nvcc --version >>"$OUT/smi.txt" 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/ubench5 ubench5.cu || exit 1
cuobjdump -sass /tmp/ubench5 >"$OUT/ubench5.sass"
/tmp/ubench5 header >"$OUT/ubench5.csv"
for s in ${SECTIONS:-clock ldst satom loopocc hist transpose reduce chase rw l2lat tlbsm cpc place gsms clock}; do
    start=$(date +%s)
    timeout 90 /tmp/ubench5 $s >>"$OUT/ubench5.csv" 2>>"$OUT/log.txt"
    echo "$s rc=$? $(( $(date +%s) - start )) s" >>"$OUT/log.txt"
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >>"$OUT/smi.txt" 2>&1
cat "$OUT/log.txt"
grep -v '^l2lat' "$OUT/ubench5.csv"
