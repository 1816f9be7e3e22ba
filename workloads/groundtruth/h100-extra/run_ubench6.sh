#!/bin/sh
# How ubench6.csv was measured on a lent H100 (simtgrid issue 22),
# 2026-11-27: build, clocks, one run. OUT is the folder for the results.
set -u
OUT=${OUT:-.}
cd "$(dirname "$0")"
nvcc -O3 -arch=sm_90 -o /tmp/ubench6 ubench6.cu || exit 1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv
timeout 200 /tmp/ubench6 >"$OUT/u6.csv"
