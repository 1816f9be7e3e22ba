// Extra ground-truth microbenchmarks for the H100 model (simtgrid issue 6):
// latencies and throughputs the original set (ubench.cu, ubench2.cu) does not
// measure. Same CSV format: bench,case,param,value,unit. In-kernel timings are
// SM cycles from clock64(); bandwidths use CUDA events and 1e9 bytes/s.
// Build: nvcc -O3 -arch=sm_90 -o ubench3 ubench3.cu
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

// ------------------------------------------------------- dependent latency
// One warp, a chain of N dependent operations of one kind; cycles per op.
// op: 0 iadd, 1 imad, 2 fmul, 3 sin (MUFU.SIN), 4 ex2 (MUFU.EX2),
//     5 rsqrt (MUFU.RSQ), 6 int->float->int conversion pair
__global__ void k_op_dep(int op, int n, unsigned a, float f, unsigned long long *cyc,
                         unsigned *sink) {
    unsigned x = threadIdx.x + a;
    float y = f + threadIdx.x * 1e-3f;
    long long t0 = clock64();
    switch (op) {
    case 0: for (int i = 0; i < n; i++) x = x + a; break;
    case 1: for (int i = 0; i < n; i++) x = x * a + 7u; break;
    case 2: for (int i = 0; i < n; i++) y = y * f; break;
    case 3: for (int i = 0; i < n; i++) y = __sinf(y); break;
    case 4: for (int i = 0; i < n; i++) y = exp2f(y) * 1e-3f; break;
    case 5: for (int i = 0; i < n; i++) y = rsqrtf(y) + 1.0f; break;
    case 6: for (int i = 0; i < n; i++) x = (unsigned)(float)x + a; break;
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) *cyc = (unsigned long long)(t1 - t0);
    sink[threadIdx.x] = x + __float_as_uint(y);
}

// --------------------------------------------------------- SFU throughput
// W warps on one SM, 4 independent __sinf chains each: warp-SFU-ops per cycle.
__global__ void k_sfu_thr(int n, float f, unsigned long long *cyc, float *sink) {
    float a = f + threadIdx.x, b = a + 1, c = a + 2, d = a + 3;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < n; i++) { a = __sinf(a); b = __sinf(b); c = __sinf(c); d = __sinf(d); }
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) *cyc = (unsigned long long)(t1 - t0);
    sink[threadIdx.x] = a + b + c + d;
}

// ------------------------------------------------------- atomic latency
// One thread, atomicAdd chain whose returned value feeds the next address
// (value always 0 + k*0), so each atomic waits for the previous one.
__global__ void k_atom_lat(unsigned *p, int n, int shared, unsigned long long *cyc,
                           unsigned *sink) {
    __shared__ unsigned s[64];
    if (shared) s[threadIdx.x] = 0;
    __syncthreads();
    unsigned j = 0;
    long long t0 = clock64();
    if (shared)
        for (int i = 0; i < n; i++) j = atomicAdd(&s[j & 31], 0u);
    else
        for (int i = 0; i < n; i++) j = atomicAdd(&p[j & 31], 0u);
    long long t1 = clock64();
    *cyc = (unsigned long long)(t1 - t0);
    *sink = j;
}

// ------------------------------------------------------- L1 hit bandwidth
// One block of 32*W threads re-reads a 16 KiB region with float4 loads
// (L1 hits after the first pass): bytes per SM cycle.
__global__ void k_l1_bw(const float4 *p, int reps, unsigned long long *cyc, float *sink) {
    float acc = 0;
    const int n4 = 16384 / 16;
    for (int i = threadIdx.x; i < n4; i += blockDim.x) acc += p[i].x;  // warm
    __syncthreads();
    long long t0 = clock64();
    for (int r = 0; r < reps; r++)
        for (int i = threadIdx.x; i < n4; i += blockDim.x) {
            float4 v = p[i];
            acc += v.x + v.y + v.z + v.w;
        }
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) *cyc = (unsigned long long)(t1 - t0);
    sink[threadIdx.x] = acc;
}

// ---------------------------------------------------- store bandwidth
__global__ void k_store(float4 *p, size_t n4) {
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += stride)
        p[i] = make_float4(1, 2, 3, (float)i);
}

int main() {
    unsigned long long *dc; unsigned *ds, *dp; float *df;
    CK(cudaMalloc(&dc, 8)); CK(cudaMalloc(&ds, 4096 * 4)); CK(cudaMalloc(&dp, 4096));
    CK(cudaMalloc(&df, 4096 * 4)); CK(cudaMemset(dp, 0, 4096));
    cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
    printf("# device=%s sms=%d\n", prop.name, prop.multiProcessorCount);
    printf("bench,case,param,value,unit\n");
    const char *ops[] = {"iadd", "imad", "fmul", "sin", "ex2", "rsqrt", "i2f2i"};
    const int n = 4096;
    for (int op = 0; op < 7; op++) {
        unsigned long long c = 0;
        for (int rep = 0; rep < 2; rep++) {   // the second run is the measured one
            k_op_dep<<<1, 32>>>(op, n, 3u, 1.0001f, dc, ds);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(&c, dc, 8, cudaMemcpyDeviceToHost));
        }
        printf("oplat,%s,1,%.3f,cycles_per_op\n", ops[op], (double)c / n);
    }
    int ws[] = {1, 2, 4, 8, 16, 32};
    for (int w : ws) {
        unsigned long long c = 0;
        for (int rep = 0; rep < 2; rep++) {
            k_sfu_thr<<<1, 32 * w>>>(1024, 0.5f, dc, df);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(&c, dc, 8, cudaMemcpyDeviceToHost));
        }
        printf("sfu,ilp4,%d,%.4f,warp_sfu_per_cycle_per_sm\n", w, 4.0 * 1024 * w / c);
    }
    for (int shared = 0; shared < 2; shared++) {
        unsigned long long c = 0;
        for (int rep = 0; rep < 2; rep++) {
            k_atom_lat<<<1, 1>>>(dp, 4096, shared, dc, ds);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(&c, dc, 8, cudaMemcpyDeviceToHost));
        }
        printf("atomlat,%s,1,%.2f,cycles_per_atomic\n", shared ? "shared" : "global", c / 4096.0);
    }
    float4 *p4; CK(cudaMalloc(&p4, 16384)); CK(cudaMemset(p4, 0, 16384));
    for (int w : ws) {
        unsigned long long c = 0;
        int reps = 64;
        for (int rep = 0; rep < 2; rep++) {
            k_l1_bw<<<1, 32 * w>>>(p4, reps, dc, df);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(&c, dc, 8, cudaMemcpyDeviceToHost));
        }
        printf("l1bw,float4,%d,%.3f,bytes_per_cycle_per_sm\n", w, 16384.0 * reps / c);
    }
    size_t bytes = (size_t)2 << 30;
    float4 *big; CK(cudaMalloc(&big, bytes));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    k_store<<<prop.multiProcessorCount * 2, 1024>>>(big, bytes / 16);
    CK(cudaEventRecord(e0));
    for (int r = 0; r < 5; r++) k_store<<<prop.multiProcessorCount * 2, 1024>>>(big, bytes / 16);
    CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
    printf("stbw,dram_all_sms,%d,%.1f,GB_per_s\n", prop.multiProcessorCount, 5.0 * bytes / (ms * 1e6));
    return 0;
}
