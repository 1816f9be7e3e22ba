// Ground-truth microbenchmarks for the H100 model, fourth set (simtgrid
// issue 22): the DRAM address map. CSV rows bench,case,param,value,unit;
// rates from CUDA events. This is the exact source that produced
// ubench6.csv (sent to the lent H100 as one command, hence compact).
//   lsweep  ubench.cu's k_lstride (264 x 1024 threads, 32 whole 128 B lines
//           per warp, line (gw + i nw) S mod (2^25 - 1), __ldcg, 4 GiB) at
//           every stride S of 1..160 lines, S = 64 m for m = 1..64, and
//           S = 2^j, 3 2^j, 5 2^j up to 327680: which strides collapse onto
//           few channels or banks. Median of 3 timed second launches; GB/s.
//   lbase   stride 64 lines with b lines added to every line (b = 0..60):
//           whether a collapse at 64 depends on the low address bits.
// Build: nvcc -O3 -arch=sm_90 -o ubench6 ubench6.cu
#include <cstdio>
#include <vector>
#include <algorithm>
__global__ void k(const unsigned*p,unsigned n,unsigned s,int per,unsigned b,unsigned*o){unsigned l=threadIdx.x&31,g=(blockIdx.x*blockDim.x+threadIdx.x)>>5,w=(gridDim.x*blockDim.x)>>5,a=0;
for(int i=0;i<per;i++){unsigned x=(unsigned)(((unsigned long long)(g+(unsigned)i*w)*s+b)%n);a+=__ldcg(p+(size_t)x*32+l);}if(a==0xdeadbeef)o[0]=a;}
unsigned*D,*S;unsigned N=(unsigned)((4ull<<30)/128)-1;
double one(unsigned s,unsigned b){cudaEvent_t x,y;cudaEventCreate(&x);cudaEventCreate(&y);std::vector<double>v;
for(int r=0;r<3;r++){k<<<264,1024>>>(D,N,s,32,b,S);cudaEventRecord(x);k<<<264,1024>>>(D,N,s,32,b,S);cudaEventRecord(y);cudaEventSynchronize(y);float ms;cudaEventElapsedTime(&ms,x,y);v.push_back(264.0*32*32*128/(ms*1e6));}
std::sort(v.begin(),v.end());return v[1];}
int main(){cudaMalloc(&D,4ull<<30);cudaMemset(D,0,4ull<<30);cudaMalloc(&S,4);std::vector<unsigned>ss;
for(unsigned s=1;s<=160;s++)ss.push_back(s);for(unsigned m=1;m<=64;m++)ss.push_back(64*m);
for(unsigned s=1;s<=65536;s*=2){ss.push_back(s);ss.push_back(3*s);ss.push_back(5*s);}
std::sort(ss.begin(),ss.end());ss.erase(std::unique(ss.begin(),ss.end()),ss.end());
for(unsigned s:ss)printf("lsweep,dram_lines,%u,%.1f,GBps\n",s,one(s,0));
for(unsigned b=0;b<64;b+=4)printf("lbase,stride64_base,%u,%.1f,GBps\n",b,one(64,b));
if(cudaGetLastError())printf("err\n");}
