// Ground-truth microbenchmarks for the H100 model, fourth set (simtgrid
// issue 22): the DRAM address map. Same CSV format as ubench.cu:
// bench,case,param,value,unit; rates from CUDA events.
//   lsweep  ubench.cu's k_lstride (264 x 1024 threads, 32 whole 128 B lines
//           per warp, line (gw + i nw) S mod (2^25 - 1), __ldcg) at every
//           stride S of 1..160 lines, S = 64 m for m = 1..64, and S = 2^j,
//           3 2^j, 5 2^j up to 65536: which strides collapse onto few
//           channels or banks. Median of 3 timed second launches; GB/s.
//   lbase   stride 64 lines from 16 base offsets (b lines added to every
//           line): whether the collapse depends on the low address bits.
// Build: nvcc -O3 -arch=sm_90 -o ubench6 ubench6.cu
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static int g_sms;

// ubench.cu's k_lstride plus a base line offset (0 gives the original).
__global__ void k_lstride(const unsigned *p, unsigned nlines, unsigned stride_lines, int per_warp,
                          unsigned base, unsigned *sink) {
    unsigned lane = threadIdx.x & 31;
    unsigned gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    unsigned nw = (gridDim.x * blockDim.x) >> 5;
    unsigned acc = 0;
    for (int i = 0; i < per_warp; i++) {
        unsigned line = (unsigned)(((unsigned long long)(gw + (unsigned)i * nw) * stride_lines + base)
                                   % nlines);
        acc += __ldcg(p + (size_t)line * 32 + lane);
    }
    if (acc == 0xdeadbeef) sink[0] = acc;
}

static unsigned *g_d, *g_ds;
static const unsigned NLINES = (unsigned)((4ull << 30) / 128) - 1;

static double one(unsigned s, unsigned base) {
    int blocks = g_sms * 2, threads = 1024, per = 32;
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    std::vector<double> v;
    for (int r = 0; r < 3; r++) {
        k_lstride<<<blocks, threads>>>(g_d, NLINES, s, per, base, g_ds);
        CK(cudaEventRecord(a));
        k_lstride<<<blocks, threads>>>(g_d, NLINES, s, per, base, g_ds);
        CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b));
        v.push_back((double)blocks * threads / 32 * per * 128 / (ms * 1e6));
    }
    std::sort(v.begin(), v.end());
    CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
    return v[1];
}

int main(int argc, char **argv) {
    const char *which = argc > 1 ? argv[1] : "all";
    bool all = !strcmp(which, "all");
    cudaDeviceProp pr; CK(cudaGetDeviceProperties(&pr, 0));
    g_sms = pr.multiProcessorCount;
    if (!strcmp(which, "header")) {
        printf("# device=%s sms=%d l2=%d\nbench,case,param,value,unit\n", pr.name, g_sms,
               pr.l2CacheSize);
        return 0;
    }
    CK(cudaMalloc(&g_d, 4ull << 30)); CK(cudaMemset(g_d, 0, 4ull << 30));
    CK(cudaMalloc(&g_ds, 4));
    if (all || !strcmp(which, "lsweep")) {
        std::vector<unsigned> ss;
        for (unsigned s = 1; s <= 160; s++) ss.push_back(s);
        for (unsigned m = 1; m <= 64; m++) ss.push_back(64 * m);
        for (unsigned s = 1; s <= 65536; s *= 2) { ss.push_back(s); ss.push_back(3 * s); ss.push_back(5 * s); }
        std::sort(ss.begin(), ss.end());
        ss.erase(std::unique(ss.begin(), ss.end()), ss.end());
        for (unsigned s : ss) {
            if (s > 65536 * 5) continue;
            printf("lsweep,dram_lines,%u,%.1f,GBps\n", s, one(s, 0));
            fflush(stdout);
        }
    }
    if (all || !strcmp(which, "lbase")) {
        for (unsigned b = 0; b < 64; b += 4) {
            printf("lbase,stride64_base,%u,%.1f,GBps\n", b, one(64, b));
            fflush(stdout);
        }
    }
    return 0;
}
