// Ground-truth microbenchmarks for the H100 model, third set (simtgrid issue
// 22): the mechanisms that whole kernels lean on and the first two sets touch
// only lightly. Same CSV format: bench,case,param,value,unit. In-kernel
// timings are SM cycles from clock64(); rates use CUDA events.
//   ldst      L1-resident warp loads: broadcast, k distinct words of one line,
//             k distinct lines; W warps on one SM; SM cycles per warp load
//   hist      global-atomic histogram of 16M formula keys, 1..65536 bins,
//             and the shared-memory privatised version; G elements/s
//   satom     shared-memory atomics of one warp instruction with address and
//             bank conflicts; W warps on one SM; SM cycles per warp atomic
//   transpose naive 8192x8192 float transpose (coalesced read, strided write
//             and the reverse) and a plain copy; GB/s read+written
//   chase     dependent chases by many warps: per-warp and per-thread chains,
//             64 KiB (L1) and 4 GiB (beyond L2) footprints; W warps per SM on
//             all SMs; cycles per dependent load and G loads/s
//   reduce    shared-memory tree reductions (a barrier per level), block size
//             B, 1 or full occupancy; cycles per block reduction; and a whole
//             64M-float sum; GB/s
//   loopocc   lane l iterates 256 + l*skew dependent FMAs, W warps on one SM
//   l2lat     L2-hit latency of each of 4096 consecutive lines from three SMs
//   rw        streaming reads with a fraction of the lines also written
//             elsewhere, and in-place read-modify-write; GB/s
//   tlbsm     random 4 B gathers pinned to chosen SMs (by %smid): one SM vs
//             footprint; 1 GiB on n consecutive vs spread SMs; SM 0 beside
//             SM j for every j
//   cpc       the same pinned gather: pair maps from SMs 2, 6, 20, 60; the
//             SMs that slow SM 0 down, filled one by one
//   place     the SM of every block of a launch (CTA dispatch order)
//   gsms      ubench2.cu's gather_sms kernel with each block's SM and cycles
//   clock     SM clock (clock64 over event time)
// Build: nvcc -O3 -arch=sm_90 -o ubench5 ubench5.cu ; run: ubench5 SECTION
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static int g_sms;

__host__ __device__ static inline unsigned mix32(unsigned x) {
    x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16; return x;
}

__device__ static inline unsigned smid() {
    unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r;
}

template <typename F>
static double time_ms(F launch, int reps) {
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    launch();                                   // warm-up
    CK(cudaEventRecord(a));
    for (int r = 0; r < reps; r++) launch();
    CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float ms; CK(cudaEventElapsedTime(&ms, a, b));
    CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
    return ms / reps;
}

// ------------------------------------------------------------------ ldst
// 32 KiB (256 lines) L1-resident. Each iteration 8 independent loads; line
// of load u = (it*8 + u + warp*3) & 255. mode 0: lane l reads word l%k of
// that line (k = 1 is a broadcast); mode 1: lane l reads word l/k of line
// (line + l%k) & 255, i.e. k distinct lines.
__global__ void k_ldst(const unsigned *p, int mode, int k, int iters,
                       unsigned long long *cyc, unsigned *sink) {
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned acc = 0;
    for (int i = threadIdx.x; i < 8192; i += blockDim.x) acc += __ldca(p + i);
    int lo = mode == 0 ? (lane % k) : (lane / k);
    int lofs = mode == 0 ? 0 : (lane % k);
    __syncthreads();
    long long t0 = clock64();
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int u = 0; u < 8; u++) {
            int line = (it * 8 + u + warp * 3 + lofs) & 255;
            acc += __ldca(p + line * 32 + lo);
        }
    }
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) *cyc = (unsigned long long)(t1 - t0);
    sink[threadIdx.x] = acc;
}

static void bench_ldst() {
    unsigned *p, *ds; unsigned long long *dc;
    CK(cudaMalloc(&p, 32768)); CK(cudaMemset(p, 0, 32768));
    CK(cudaMalloc(&ds, 1024 * 4)); CK(cudaMalloc(&dc, 8));
    int ws[] = {1, 4, 16, 32};
    int ks[] = {1, 2, 4, 8, 16, 32};
    const int iters = 256;
    for (int mode = 0; mode < 2; mode++)
        for (int W : ws)
            for (int k : ks) {
                if (mode == 1 && k == 1) continue;      // same as the broadcast
                unsigned long long c = 0;
                for (int rep = 0; rep < 2; rep++) {
                    k_ldst<<<1, 32 * W>>>(p, mode, k, iters, dc, ds);
                    CK(cudaDeviceSynchronize());
                    CK(cudaMemcpy(&c, dc, 8, cudaMemcpyDeviceToHost));
                }
                printf("ldst,%s_w%d,%d,%.3f,cycles_per_warp_load\n",
                       mode == 0 ? "words" : "lines", W, k, (double)c / (W * iters * 8.0));
                fflush(stdout);
            }
    CK(cudaFree(p)); CK(cudaFree(ds)); CK(cudaFree(dc));
}

// ------------------------------------------------------------------ hist
__global__ void k_keys(unsigned *keys, unsigned n, unsigned bins) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        keys[i] = mix32(i) % bins;
}
__global__ void k_hist_global(const unsigned *keys, unsigned n, unsigned *h) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[keys[i]], 1u);
}
__global__ void k_hist_shared(const unsigned *keys, unsigned n, unsigned bins, unsigned *h) {
    extern __shared__ unsigned s[];
    for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) s[b] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&s[keys[i]], 1u);
    __syncthreads();
    for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) atomicAdd(&h[b], s[b]);
}

static void bench_hist() {
    const unsigned n = 1u << 24;
    unsigned *keys, *h;
    CK(cudaMalloc(&keys, (size_t)n * 4)); CK(cudaMalloc(&h, 65536 * 4));
    unsigned bins_l[] = {1, 32, 256, 1024, 4096, 65536};
    for (unsigned bins : bins_l) {
        k_keys<<<g_sms * 8, 256>>>(keys, n, bins);
        CK(cudaDeviceSynchronize());
        CK(cudaMemset(h, 0, 65536 * 4));
        double ms = time_ms([&] { k_hist_global<<<g_sms * 8, 256>>>(keys, n, h); }, 3);
        printf("hist,global,%u,%.3f,Gelems_per_s\n", bins, n / (ms * 1e6));
        if (bins <= 8192) {
            ms = time_ms([&] { k_hist_shared<<<g_sms * 8, 256, bins * 4>>>(keys, n, bins, h); }, 3);
            printf("hist,shared,%u,%.3f,Gelems_per_s\n", bins, n / (ms * 1e6));
        }
        // Check the global histogram's total, so a broken run is visible.
        std::vector<unsigned> hh(bins);
        CK(cudaMemset(h, 0, 65536 * 4));
        k_hist_global<<<g_sms * 8, 256>>>(keys, n, h);
        CK(cudaMemcpy(hh.data(), h, bins * 4, cudaMemcpyDeviceToHost));
        unsigned long long tot = 0; for (unsigned v : hh) tot += v;
        if (tot != n) printf("# hist check failed: bins %u total %llu\n", bins, tot);
        fflush(stdout);
    }
    CK(cudaFree(keys)); CK(cudaFree(h));
}

// ----------------------------------------------------------------- satom
// Lane l adds to word a(l) of 4096 shared words; 4 atomics per iteration.
// pat 0: all lanes one word; 1: l (distinct banks); 2: 2l (2-way bank
// conflict); 32: 32l (one bank, 32 words); 3: l/2 (pairs share a word);
// 4: mix32(l + 32*it) & 4095 (random).
__global__ void k_satom(int pat, int iters, unsigned long long *cyc, unsigned *sink) {
    __shared__ unsigned s[4096];
    for (int i = threadIdx.x; i < 4096; i += blockDim.x) s[i] = 0;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();
    long long t0 = clock64();
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int u = 0; u < 4; u++) {
            unsigned a;
            switch (pat) {
            case 0: a = (it * 4 + u + warp) & 4095; break;
            case 1: a = (lane + 32 * (u + warp)) & 4095; break;
            case 2: a = (2 * lane + 64 * (u + warp)) & 4095; break;
            case 32: a = (32 * lane + u + warp) & 4095; break;
            case 3: a = (lane / 2 + 32 * (u + warp)) & 4095; break;
            default: a = mix32(lane + 32 * (it * 4 + u) + 7919 * warp) & 4095; break;
            }
            atomicAdd(&s[a], 1u);
        }
    }
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) *cyc = (unsigned long long)(t1 - t0);
    sink[threadIdx.x] = s[threadIdx.x];
}

static void bench_satom() {
    unsigned long long *dc; unsigned *ds;
    CK(cudaMalloc(&dc, 8)); CK(cudaMalloc(&ds, 1024 * 4));
    int pats[] = {0, 1, 2, 3, 32, 4};
    const char *names[] = {"same_word", "distinct_banks", "bank2way", "pairs", "one_bank", "random4096"};
    int ws[] = {1, 8, 32};
    const int iters = 256;
    for (int pi = 0; pi < 6; pi++)
        for (int W : ws) {
            unsigned long long c = 0;
            for (int rep = 0; rep < 2; rep++) {
                k_satom<<<1, 32 * W>>>(pats[pi], iters, dc, ds);
                CK(cudaDeviceSynchronize());
                CK(cudaMemcpy(&c, dc, 8, cudaMemcpyDeviceToHost));
            }
            printf("satom,%s,%d,%.3f,cycles_per_warp_atomic\n", names[pi], W,
                   (double)c / (W * iters * 4.0));
            fflush(stdout);
        }
    CK(cudaFree(dc)); CK(cudaFree(ds));
}

// ------------------------------------------------------------- transpose
__global__ void k_tr_rowread(const float *in, float *out, int n) {
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(size_t)x * n + y + j] = in[(size_t)(y + j) * n + x];
}
__global__ void k_tr_colread(const float *in, float *out, int n) {
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(size_t)(y + j) * n + x] = in[(size_t)x * n + y + j];
}
__global__ void k_copy2d(const float *in, float *out, int n) {
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(size_t)(y + j) * n + x] = in[(size_t)(y + j) * n + x];
}

static void bench_transpose() {
    int ns[] = {2048, 8192};
    for (int n : ns) {
        size_t bytes = (size_t)n * n * 4;
        float *a, *b;
        CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes));
        CK(cudaMemset(a, 0, bytes)); CK(cudaMemset(b, 0, bytes));
        dim3 grid(n / 32, n / 32), block(32, 8);
        double ms = time_ms([&] { k_copy2d<<<grid, block>>>(a, b, n); }, 5);
        printf("transpose,copy,%d,%.1f,GB_per_s\n", n, 2.0 * bytes / (ms * 1e6));
        ms = time_ms([&] { k_tr_rowread<<<grid, block>>>(a, b, n); }, 5);
        printf("transpose,naive_strided_write,%d,%.1f,GB_per_s\n", n, 2.0 * bytes / (ms * 1e6));
        ms = time_ms([&] { k_tr_colread<<<grid, block>>>(a, b, n); }, 5);
        printf("transpose,naive_strided_read,%d,%.1f,GB_per_s\n", n, 2.0 * bytes / (ms * 1e6));
        fflush(stdout);
        CK(cudaFree(a)); CK(cudaFree(b));
    }
}

// ----------------------------------------------------------------- chase
// A random cyclic order of N nodes 128 B apart: node k of the cycle is
// perm(k), a bijection on [0, 2^bits); next[perm(k)*32] = perm(k+1)*32.
__device__ static inline unsigned long long perm(unsigned long long x, int bits) {
    unsigned long long m = (1ull << bits) - 1;
    x = (x * 0x9E3779B97F4A7C15ull) & m;
    x ^= x >> (bits / 2 + 1);
    x = (x * 0xBF58476D1CE4E5B9ull) & m;
    x ^= x >> (bits / 3 + 1);
    x = (x * 0x94D049BB133111EBull) & m;
    x ^= x >> (bits / 2);
    return x;
}
__global__ void k_chain(unsigned long long *next, int bits) {
    unsigned long long n = 1ull << bits;
    for (unsigned long long k = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; k < n;
         k += (unsigned long long)gridDim.x * blockDim.x)
        next[perm(k, bits) * 16] = perm((k + 1) & (n - 1), bits) * 16;
}
// per_warp: the lanes of a warp follow one chain (one line per warp load);
// else every thread its own start. Starts spread evenly over the cycle.
__global__ void k_chase_many(const unsigned long long *next, int bits, int per_warp, int l1,
                             int iters, unsigned long long *sink) {
    unsigned long long tid = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    unsigned long long total = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long who = per_warp ? tid / 32 : tid, of = per_warp ? total / 32 : total;
    unsigned long long n = 1ull << bits;
    unsigned long long j = perm((who * (n / of + 1)) & (n - 1), bits) * 16;
    if (l1)
        for (int i = 0; i < iters; i++) j = __ldca(next + j);
    else
        for (int i = 0; i < iters; i++) j = __ldcg(next + j);
    if (j == 0xdeadbeefull) sink[0] = j;
}

static void bench_chase() {
    unsigned long long *next, *ds;
    int bitsl[] = {9, 25};          // 512 nodes = 64 KiB, 32M nodes = 4 GiB
    CK(cudaMalloc(&ds, 8));
    for (int bits : bitsl) {
        size_t bytes = ((size_t)1 << bits) * 128;
        CK(cudaMalloc(&next, bytes));
        k_chain<<<g_sms * 8, 256>>>(next, bits);
        CK(cudaDeviceSynchronize());
        int l1 = bits < 12;
        int iters = l1 ? 2048 : 256;
        int ws[] = {1, 4, 16, 32, 64};
        for (int per_warp = 1; per_warp >= 0; per_warp--)
            for (int W : ws) {
                int block = W >= 32 ? 1024 : 32 * W, grid = g_sms * (W > 32 ? 2 : 1);
                double ms = time_ms([&] {
                    k_chase_many<<<grid, block>>>(next, bits, per_warp, l1, iters, ds); }, 2);
                double loads = (double)grid * block * iters;
                printf("chase,%s_%s_gloads,%d,%.3f,Gloads_per_s\n", l1 ? "l1_64KiB" : "dram_4GiB",
                       per_warp ? "warp" : "thread", W, loads / (ms * 1e6));
                printf("chase,%s_%s_us,%d,%.3f,us_per_%d_loads\n", l1 ? "l1_64KiB" : "dram_4GiB",
                       per_warp ? "warp" : "thread", W, ms * 1e3, iters);
                fflush(stdout);
            }
        CK(cudaFree(next));
    }
    CK(cudaFree(ds));
}

// ---------------------------------------------------------------- reduce
__global__ void k_tree(int reps, unsigned long long *cyc, float *sink) {
    extern __shared__ float sh[];
    float v = threadIdx.x * 0.5f;
    __syncthreads();
    long long t0 = clock64();
    for (int r = 0; r < reps; r++) {
        sh[threadIdx.x] = v;
        __syncthreads();
        for (int s = blockDim.x / 2; s > 0; s >>= 1) {
            if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
            __syncthreads();
        }
        v = sh[0] * 1e-3f + threadIdx.x;
        __syncthreads();
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) cyc[blockIdx.x] = (unsigned long long)(t1 - t0);
    sink[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
__global__ void k_sum(const float *x, size_t n, float *out) {
    extern __shared__ float sh[];
    float v = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) v += x[i];
    sh[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, sh[0]);
}

static void bench_reduce() {
    int bs[] = {128, 256, 512, 1024};
    unsigned long long *dc; float *ds;
    CK(cudaMalloc(&dc, 8 * 132 * 16)); CK(cudaMalloc(&ds, 4 * 132 * 2048 * 2));
    const int reps = 256;
    for (int B : bs) {
        int per_sm_l[] = {1, 2048 / B};
        for (int per_sm : per_sm_l) {
            int grid = g_sms * per_sm;
            k_tree<<<grid, B, B * 4>>>(reps, dc, ds);
            k_tree<<<grid, B, B * 4>>>(reps, dc, ds);
            CK(cudaDeviceSynchronize());
            std::vector<unsigned long long> c(grid);
            CK(cudaMemcpy(c.data(), dc, 8 * grid, cudaMemcpyDeviceToHost));
            double m = 0; for (auto x : c) m += x; m /= grid;
            printf("reduce,tree_b%d,%d,%.2f,cycles_per_block_reduction\n", B, per_sm, m / reps);
            fflush(stdout);
        }
    }
    size_t n = (size_t)64 << 20;
    float *x, *out; CK(cudaMalloc(&x, n * 4)); CK(cudaMalloc(&out, 4));
    CK(cudaMemset(x, 0, n * 4));
    for (int B : bs) {
        double ms = time_ms([&] { k_sum<<<g_sms * (2048 / B), B, B * 4>>>(x, n, out); }, 5);
        printf("reduce,sum64M_b%d,%d,%.1f,GB_per_s\n", B, 2048 / B, n * 4.0 / (ms * 1e6));
        fflush(stdout);
    }
    CK(cudaFree(x)); CK(cudaFree(out)); CK(cudaFree(dc)); CK(cudaFree(ds));
}

// --------------------------------------------------------------- loopocc
__global__ void k_loopdiv(int base, int skew, float a, float b, unsigned long long *cyc,
                          float *sink) {
    int lane = threadIdx.x & 31;
    float x = (float)threadIdx.x;
    int trips = base + lane * skew;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < trips; i++) x = fmaf(x, a, b);
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) *cyc = (unsigned long long)(t1 - t0);
    sink[threadIdx.x] = x;
}

static void bench_loopocc() {
    unsigned long long *dc; float *ds;
    CK(cudaMalloc(&dc, 8)); CK(cudaMalloc(&ds, 1024 * 4));
    int ws[] = {1, 4, 16, 32};
    int skews[] = {0, 1, 4, 16};
    for (int W : ws)
        for (int s : skews) {
            unsigned long long c = 0;
            for (int rep = 0; rep < 2; rep++) {
                k_loopdiv<<<1, 32 * W>>>(256, s, 1.0001f, 0.5f, dc, ds);
                CK(cudaDeviceSynchronize());
                CK(cudaMemcpy(&c, dc, 8, cudaMemcpyDeviceToHost));
            }
            printf("loopocc,w%d,%d,%llu,cycles\n", W, s, c);
            fflush(stdout);
        }
    CK(cudaFree(dc)); CK(cudaFree(ds));
}

// ----------------------------------------------------------------- l2lat
// The one block that lands first on SM `target` (claimed with an atomic)
// times 32 dependent .cg loads of each line (the words hold 0, so the
// address never moves): L2-hit latency per line.
__global__ void k_l2lat(const unsigned *p, int lines, unsigned target, int *claim,
                        unsigned *out) {
    if (smid() != target || atomicCAS(claim, 0, 1) != 0) return;
    unsigned j = 0;
    for (int l = 0; l < lines; l++) j += __ldcg(p + l * 32);   // warm the L2
    for (int l = 0; l < lines; l++) {
        const unsigned *q = p + l * 32;
        long long t0 = clock64();
#pragma unroll 1
        for (int r = 0; r < 32; r++) j = __ldcg(q + j);
        unsigned used;                    // waits for the last load before t1
        asm volatile("add.u32 %0, %1, 1;" : "=r"(used) : "r"(j));
        long long t1 = clock64();
        out[l] = (unsigned)(t1 - t0) + (used & 0x80000000u);
    }
}

static void bench_l2lat() {
    const int lines = 4096;
    unsigned *p, *out; int *claim;
    CK(cudaMalloc(&p, lines * 128)); CK(cudaMemset(p, 0, lines * 128));
    CK(cudaMalloc(&out, lines * 4)); CK(cudaMalloc(&claim, 4));
    unsigned targets[] = {0, 66, 131};
    std::vector<unsigned> h(lines);
    for (unsigned t : targets) {
        CK(cudaMemset(out, 0, lines * 4)); CK(cudaMemset(claim, 0, 4));
        k_l2lat<<<g_sms * 4, 32>>>(p, lines, t, claim, out);
        CK(cudaDeviceSynchronize());
        int got; CK(cudaMemcpy(&got, claim, 4, cudaMemcpyDeviceToHost));
        if (!got) { printf("# l2lat: no block reached SM %u\n", t); continue; }
        CK(cudaMemcpy(h.data(), out, lines * 4, cudaMemcpyDeviceToHost));
        for (int l = 0; l < lines; l++)
            printf("l2lat,sm%u,%d,%.2f,cycles_per_load\n", t, l, h[l] / 32.0);
        fflush(stdout);
    }
    CK(cudaFree(p)); CK(cudaFree(out)); CK(cudaFree(claim));
}

// -------------------------------------------------------------------- rw
// Thread i reads a[i] (float4, .cg); if (i & 3) < q it also writes b[i].
__global__ void k_rw(const float4 *a, float4 *b, size_t n4, int q, float *sink) {
    float acc = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 v = __ldcg(a + i);
        acc += v.x;
        if ((int)(i & 3) < q) __stcg(b + i, make_float4(v.y, v.x, v.w, v.z));
    }
    if (acc == 12345.f) sink[0] = acc;
}
__global__ void k_rmw(float4 *a, size_t n4) {
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 v = __ldcg(a + i);
        __stcg(a + i, make_float4(v.x + 1, v.y, v.z, v.w));
    }
}

static void bench_rw() {
    size_t bytes = (size_t)2 << 30, n4 = bytes / 16;
    float4 *a, *b; float *ds;
    CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes)); CK(cudaMalloc(&ds, 4));
    CK(cudaMemset(a, 0, bytes)); CK(cudaMemset(b, 0, bytes));
    for (int q = 0; q <= 4; q++) {
        double ms = time_ms([&] { k_rw<<<g_sms * 2, 1024>>>(a, b, n4, q, ds); }, 3);
        double moved = bytes + bytes * q / 4.0;
        printf("rw,read_plus_write_quarters,%d,%.1f,GB_per_s\n", q, moved / (ms * 1e6));
        fflush(stdout);
    }
    double ms = time_ms([&] { k_rmw<<<g_sms * 2, 1024>>>(a, n4); }, 3);
    printf("rw,rmw_in_place,4,%.1f,GB_per_s\n", 2.0 * bytes / (ms * 1e6));
    CK(cudaFree(a)); CK(cudaFree(b)); CK(cudaFree(ds));
}

// ----------------------------------------------------------------- tlbsm
// Only the first block to reach each SM listed in want[] runs (one block of
// 1024 threads per chosen SM); it does `per` random 4 B loads per thread
// over a power-of-two footprint and records its own cycles.
__global__ void k_gather_pin(const unsigned *p, unsigned long long mask, int per,
                             const int *want, int *claim, unsigned long long *cyc,
                             unsigned *sink) {
    __shared__ int go;
    unsigned s = smid();
    if (threadIdx.x == 0) go = want[s] && atomicCAS(claim + s, 0, 1) == 0;
    __syncthreads();
    if (!go) return;
    unsigned long long x = 0x9E3779B97F4A7C15ull ^ ((unsigned long long)(s * 1024 + threadIdx.x) << 20);
    unsigned acc = 0;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < per; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        acc += __ldcg(p + (x & mask));
    }
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) cyc[s] = (unsigned long long)(t1 - t0);
    if (acc == 0xdeadbeef) sink[0] = acc;
}

struct Pin {
    int *want, *claim; unsigned long long *cyc; unsigned *sink;
    std::vector<int> hw; std::vector<unsigned long long> hc;
};

// Runs the pinned gather on the SMs in `sms`; returns the mean over those
// SMs of loads per SM cycle (1024 threads x per loads / own cycles), or -1.
static double pin_run(Pin &P, const unsigned *p, unsigned long long mask, int per,
                      const std::vector<int> &sms) {
    std::fill(P.hw.begin(), P.hw.end(), 0);
    for (int s : sms) P.hw[s] = 1;
    CK(cudaMemcpy(P.want, P.hw.data(), 4 * P.hw.size(), cudaMemcpyHostToDevice));
    double sum = 0;
    for (int rep = 0; rep < 2; rep++) {              // second run measured
        CK(cudaMemset(P.claim, 0, 4 * P.hw.size()));
        CK(cudaMemset(P.cyc, 0, 8 * P.hw.size()));
        k_gather_pin<<<g_sms * 2, 1024>>>(p, mask, per, P.want, P.claim, P.cyc, P.sink);
        CK(cudaDeviceSynchronize());
    }
    CK(cudaMemcpy(P.hc.data(), P.cyc, 8 * P.hc.size(), cudaMemcpyDeviceToHost));
    for (int s : sms) {
        if (P.hc[s] == 0) return -1;                 // no block reached it
        sum += 1024.0 * per / P.hc[s];
    }
    return sum / sms.size();
}

static void bench_tlbsm() {
    size_t big = (size_t)16 << 30;
    unsigned *p;
    if (cudaMalloc(&p, big) != cudaSuccess) { big = (size_t)4 << 30; CK(cudaMalloc(&p, big)); }
    CK(cudaMemset(p, 0, big));
    Pin P; int nsm = 256;
    P.hw.assign(nsm, 0); P.hc.assign(nsm, 0);
    CK(cudaMalloc(&P.want, 4 * nsm)); CK(cudaMalloc(&P.claim, 4 * nsm));
    CK(cudaMalloc(&P.cyc, 8 * nsm)); CK(cudaMalloc(&P.sink, 4));
    const int per = 128;
    for (size_t mb = 2; mb <= (big >> 20); mb *= 2) {
        double r = pin_run(P, p, mb * 1024 * 1024 / 4 - 1, per, {0});
        printf("tlbsm,one_sm,%zu,%.4f,loads_per_sm_cycle\n", mb, r);
        fflush(stdout);
    }
    unsigned long long gib = (1ull << 30) / 4 - 1;
    int ns[] = {2, 4, 8, 16, 32};
    for (int n : ns) {
        std::vector<int> cons, spread;
        for (int i = 0; i < n; i++) { cons.push_back(i); spread.push_back(i * g_sms / n); }
        printf("tlbsm,1GiB_consecutive,%d,%.4f,loads_per_sm_cycle\n", n, pin_run(P, p, gib, per, cons));
        printf("tlbsm,1GiB_spread,%d,%.4f,loads_per_sm_cycle\n", n, pin_run(P, p, gib, per, spread));
        fflush(stdout);
    }
    for (int j = 1; j < g_sms; j++) {
        double r = pin_run(P, p, gib, per, {0, j});
        printf("tlbsm,1GiB_pair_sm0_and,%d,%.4f,loads_per_sm_cycle\n", j, r);
        fflush(stdout);
    }
    CK(cudaFree(p)); CK(cudaFree(P.want)); CK(cudaFree(P.claim)); CK(cudaFree(P.cyc));
    CK(cudaFree(P.sink));
}

// Pair maps from other SMs, and the SM group of SM 0 filled one by one.
static void bench_cpc() {
    size_t big = (size_t)1 << 30;
    unsigned *p; CK(cudaMalloc(&p, big)); CK(cudaMemset(p, 0, big));
    Pin P; int nsm = 256;
    P.hw.assign(nsm, 0); P.hc.assign(nsm, 0);
    CK(cudaMalloc(&P.want, 4 * nsm)); CK(cudaMalloc(&P.claim, 4 * nsm));
    CK(cudaMalloc(&P.cyc, 8 * nsm)); CK(cudaMalloc(&P.sink, 4));
    unsigned long long gib = big / 4 - 1;
    const int per = 128;
    int froms[] = {2, 6, 20, 60};
    for (int f : froms)
        for (int j = 0; j < g_sms; j++) {
            if (j == f) continue;
            printf("cpc,1GiB_pair_sm%d_and,%d,%.4f,loads_per_sm_cycle\n", f, j,
                   pin_run(P, p, gib, per, {f, j}));
        }
    std::vector<int> grp = {0, 1, 48, 49, 128, 129}, sel;
    for (int g : grp) {
        sel.push_back(g);
        printf("cpc,1GiB_group_of_sm0,%zu,%.4f,loads_per_sm_cycle\n", sel.size(),
               pin_run(P, p, gib, per, sel));
    }
    std::vector<int> tpc = {0, 1};
    for (int mb : {64, 256, 512}) {
        printf("cpc,tpc_pair_%dMiB,2,%.4f,loads_per_sm_cycle\n", mb,
               pin_run(P, p, (unsigned long long)mb * 262144 - 1, per, tpc));
        printf("cpc,single_%dMiB,1,%.4f,loads_per_sm_cycle\n", mb,
               pin_run(P, p, (unsigned long long)mb * 262144 - 1, per, {0}));
    }
    fflush(stdout);
    CK(cudaFree(p)); CK(cudaFree(P.want)); CK(cudaFree(P.claim)); CK(cudaFree(P.cyc));
    CK(cudaFree(P.sink));
}

// ----------------------------------------------------------------- place
// Which SM each block of a launch lands on (the CTA dispatch order).
__global__ void k_place(unsigned *out) {
    if (threadIdx.x == 0) out[blockIdx.x] = smid();
}
static void bench_place() {
    unsigned *d; CK(cudaMalloc(&d, 4 * 4096));
    int grids[] = {1, 2, 4, 8, 16, 32, 64, 132, 264};
    int blocks[] = {1024, 256};
    std::vector<unsigned> h(4096);
    for (int b : blocks)
        for (int g : grids) {
            k_place<<<g, b>>>(d);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h.data(), d, 4 * g, cudaMemcpyDeviceToHost));
            for (int i = 0; i < g; i++) printf("place,b%d_g%d,%d,%u,smid\n", b, g, i, h[i]);
        }
    fflush(stdout);
    CK(cudaFree(d));
}

// ------------------------------------------------------------------ gsms
// ubench2.cu's k_gather (gather_sms.csv) again, each block recording its SM
// and its own cycles: where the second set's blocks ran and at what rate.
__global__ void k_gather_rec(const unsigned *p, unsigned nwords_mask, int per_thread,
                             unsigned seed, unsigned *sink, unsigned long long *cyc,
                             unsigned *sm) {
    unsigned x = seed ^ ((blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u);
    unsigned acc = 0;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < per_thread; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        acc += __ldcg(p + (x & nwords_mask));
    }
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) { cyc[blockIdx.x] = (unsigned long long)(t1 - t0); sm[blockIdx.x] = smid(); }
    if (acc == 0xdeadbeef) sink[0] = acc;
}
static void bench_gsms() {
    size_t big = 1ull << 30;
    unsigned *d, *ds, *dsm; unsigned long long *dc;
    CK(cudaMalloc(&d, big)); CK(cudaMemset(d, 1, big)); CK(cudaMalloc(&ds, 4));
    CK(cudaMalloc(&dc, 8 * 132)); CK(cudaMalloc(&dsm, 4 * 132));
    int sm_list[] = {1, 2, 4, 8, 16, 32};
    std::vector<unsigned long long> c(132); std::vector<unsigned> s(132);
    for (int n : sm_list) {
        k_gather_rec<<<n, 1024>>>(d, (unsigned)(big / 4 - 1), 256, 3, ds, dc, dsm);
        k_gather_rec<<<n, 1024>>>(d, (unsigned)(big / 4 - 1), 256, 5, ds, dc, dsm);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(c.data(), dc, 8 * n, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(s.data(), dsm, 4 * n, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++)
            printf("gsms,1GiB_g%d_sm%u,%d,%.4f,loads_per_sm_cycle\n", n, s[i], i, 1024.0 * 256 / c[i]);
    }
    fflush(stdout);
    CK(cudaFree(d)); CK(cudaFree(ds)); CK(cudaFree(dc)); CK(cudaFree(dsm));
}

// ----------------------------------------------------------------- clock
__global__ void k_spin(long long cycles, unsigned long long *out) {
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
    *out = (unsigned long long)(clock64() - t0);
}
static void bench_clock() {
    unsigned long long *d, c; CK(cudaMalloc(&d, 8));
    double ms = time_ms([&] { k_spin<<<1, 1>>>(200000000ll, d); }, 2);
    CK(cudaMemcpy(&c, d, 8, cudaMemcpyDeviceToHost));
    printf("clock,sm,1,%.1f,MHz\n", c / (ms * 1e3));
    CK(cudaFree(d));
}

int main(int argc, char **argv) {
    cudaDeviceProp pr; CK(cudaGetDeviceProperties(&pr, 0));
    g_sms = pr.multiProcessorCount;
    const char *w = argc > 1 ? argv[1] : "all";
    bool all = !strcmp(w, "all");
    if (all || !strcmp(w, "header")) {
        printf("# device=%s sms=%d\n", pr.name, g_sms);
        printf("bench,case,param,value,unit\n");
    }
    if (all || !strcmp(w, "clock")) bench_clock();
    if (all || !strcmp(w, "ldst")) bench_ldst();
    if (all || !strcmp(w, "hist")) bench_hist();
    if (all || !strcmp(w, "satom")) bench_satom();
    if (all || !strcmp(w, "transpose")) bench_transpose();
    if (all || !strcmp(w, "chase")) bench_chase();
    if (all || !strcmp(w, "reduce")) bench_reduce();
    if (all || !strcmp(w, "loopocc")) bench_loopocc();
    if (all || !strcmp(w, "l2lat")) bench_l2lat();
    if (all || !strcmp(w, "rw")) bench_rw();
    if (all || !strcmp(w, "tlbsm")) bench_tlbsm();
    if (all || !strcmp(w, "cpc")) bench_cpc();
    if (all || !strcmp(w, "place")) bench_place();
    if (all || !strcmp(w, "gsms")) bench_gsms();
    return 0;
}
