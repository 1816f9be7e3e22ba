// CTA dispatch timing on the H100 (simtgrid issue 22: BFS's small levels
// run 3.6x longer than modelled). Same CSV format: bench,case,param,value,unit.
//   launch  n CTAs of B threads that do nothing but record when they
//           started (%globaltimer, ns) and on which SM: kernel time by CUDA
//           events (us, mean of 20 launches after a warm-up), the spread of
//           the CTA start times (ns), and CTAs started per us over that span
//   empty   the same grid sizes, a kernel with an empty body (events only)
// Build: nvcc -O3 -arch=sm_90 -o ubench7 ubench7.cu ; run: ubench7
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void k_stamp(unsigned long long *t, unsigned *sm) {
    if (threadIdx.x == 0) {
        unsigned long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
        unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
        t[blockIdx.x] = g;
        sm[blockIdx.x] = s;
    }
}
__global__ void k_empty() {}

template <typename F>
static double time_us(F launch, int reps) {
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    launch();
    CK(cudaEventRecord(a));
    for (int r = 0; r < reps; r++) launch();
    CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float ms; CK(cudaEventElapsedTime(&ms, a, b));
    return ms * 1e3 / reps;
}

int main() {
    cudaDeviceProp pr; CK(cudaGetDeviceProperties(&pr, 0));
    printf("# device=%s sms=%d\n", pr.name, pr.multiProcessorCount);
    printf("bench,case,param,value,unit\n");
    const int maxn = 65536;
    unsigned long long *dt; unsigned *ds;
    CK(cudaMalloc(&dt, 8 * maxn)); CK(cudaMalloc(&ds, 4 * maxn));
    std::vector<unsigned long long> t(maxn);
    int ns[] = {1, 8, 32, 132, 264, 528, 1056, 2112, 4096, 8192, 16384, 32768, 65536};
    int bs[] = {32, 256, 1024};
    for (int b : bs)
        for (int n : ns) {
            double us = time_us([&] { k_stamp<<<n, b>>>(dt, ds); }, 20);
            CK(cudaMemcpy(t.data(), dt, 8 * n, cudaMemcpyDeviceToHost));
            unsigned long long lo = *std::min_element(t.begin(), t.begin() + n);
            unsigned long long hi = *std::max_element(t.begin(), t.begin() + n);
            printf("launch,stamp_b%d_us,%d,%.3f,us\n", b, n, us);
            printf("launch,stamp_b%d_spread,%d,%llu,ns\n", b, n, hi - lo);
            if (hi > lo)
                printf("launch,stamp_b%d_rate,%d,%.3f,ctas_per_us\n", b, n, (n - 1) * 1e3 / (hi - lo));
            double ue = time_us([&] { k_empty<<<n, b>>>(); }, 20);
            printf("empty,b%d_us,%d,%.3f,us\n", b, n, ue);
            fflush(stdout);
        }
    return 0;
}
