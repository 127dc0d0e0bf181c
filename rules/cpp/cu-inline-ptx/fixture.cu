// Fixture for cu-inline-ptx: PTX helpers from a lab's csrc/ptx_utils.cuh.
// Comments may mention asm volatile("mov.u32 %0, %%laneid;") freely.
// ok: cu-inline-ptx
// asm: the helpers below are the only inline PTX in the project.
#include <torch/extension.h>

__device__ __forceinline__ unsigned lane_id() {
  unsigned lane;
  // expect: cu-inline-ptx
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ __forceinline__ unsigned warp_id() {
  unsigned warp;
  // expect: cu-inline-ptx
  asm("mov.u32 %0, %%warpid;" : "=r"(warp));
  return warp;
}

__device__ __forceinline__ float ld_nc(const float* ptr) {
  float v;
  // expect: cu-inline-ptx
  __asm__ __volatile__("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(ptr));
  return v;
}

__device__ __forceinline__ void cp_async_commit() {
  // expect: cu-inline-ptx
  asm volatile("cp.async.commit_group;\n" ::);
}

__device__ __forceinline__ unsigned long long global_timer() {
  unsigned long long t;
  // expect: cu-inline-ptx
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void mma_m16n8k16(float* d, const unsigned* a, const unsigned* b) {
  // expect: cu-inline-ptx
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Host-side spin wait with x86 assembly: Apple silicon is arm64, so it fails there too.
inline void cpu_relax() {
  // expect: cu-inline-ptx
  __asm__ __volatile__("pause" ::: "memory");
}

// Host code that only talks about assembly.
int shared_bytes(int tile) {
  // ok: cu-inline-ptx
  const int asm_size = tile * tile * 4;
  // ok: cu-inline-ptx
  const char* backend = "asm";
  // ok: cu-inline-ptx
  const char* note = "asm volatile(\"mov.u32 %0, %%laneid;\") needs sm_70";
  (void)backend;
  (void)note;
  return asm_size;
}

// A portable lane index on the CPU reference path.
// ok: cu-inline-ptx
inline unsigned lane_of(unsigned linear_index) { return linear_index & 31u; }
