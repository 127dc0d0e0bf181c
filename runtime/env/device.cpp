#include "env/device.h"

#include "util/error_text.h"

#include <fstream>
#include <sstream>

#include <sys/resource.h>

#include <torch/cuda.h>
#include <torch/version.h>

#if defined(__APPLE__)
#include <mach/mach.h>
#endif

#if __has_include(<ATen/detail/MPSHooksInterface.h>)
#include <ATen/detail/MPSHooksInterface.h>
#define MPSREADY_HAVE_MPS_HOOKS 1
#endif
#if defined(MPSREADY_TORCH_CUDA) && __has_include(<c10/cuda/CUDACachingAllocator.h>)
#include <c10/cuda/CUDACachingAllocator.h>
#define MPSREADY_HAVE_CUDA_ALLOCATOR 1
#endif

namespace mpsready {

namespace {

#if !defined(__APPLE__)
uint64_t status_kib(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string k(key);
  while (std::getline(in, line))
    if (line.compare(0, k.size(), k) == 0) return std::stoull(line.substr(k.size())) * 1024;
  return 0;
}
#endif

}  // namespace

DeviceChoice choose_device(const std::string& requested, const Environment& env) {
  DeviceChoice c;
  c.requested = requested;
  if (requested == "auto") c.used = env.mps_available ? "mps" : env.cuda_available ? "cuda" : "cpu";
  else c.used = requested;
  if (c.used == "mps") {
    if (!env.mps_available) {
      c.error = "--device mps: MPS is not available: " + mps_unavailable_reason(env);
      return c;
    }
    c.device = torch::Device(torch::kMPS);
  } else if (c.used == "cuda") {
    if (!env.cuda_available) {
      c.error = "--device cuda: CUDA is not available (the linked LibTorch " + env.libtorch_version +
                " has no CUDA, or no NVIDIA GPU is visible)";
      return c;
    }
    c.device = torch::Device(torch::kCUDA, 0);
  } else if (c.used == "cpu") {
    c.device = torch::kCPU;
  } else {
    c.error = "--device " + requested + ": expected auto, mps, cuda or cpu";
    return c;
  }
  c.ok = true;
  return c;
}

std::optional<torch::Device> parse_reference_device(const std::string& name, const Environment& env, std::string& error) {
  DeviceChoice c = choose_device(name == "auto" ? "cpu" : name, env);
  if (!c.ok) {
    error = "--reference " + c.error.substr(c.error.find(' ') + 1);
    return std::nullopt;
  }
  return c.device;
}

void synchronize(const torch::Device& device) {
  if (device.is_cuda()) {
    torch::cuda::synchronize();
  } else if (device.is_mps()) {
#if defined(MPSREADY_HAVE_MPS_HOOKS)
    at::detail::getMPSHooks().deviceSynchronize();
#else
    // Without the hooks header, copying a scalar back waits for the queue.
    (void)torch::zeros({1}, torch::TensorOptions().device(device)).cpu();
#endif
  }
}

void reset_peak_memory(const torch::Device& device) {
#if defined(MPSREADY_HAVE_CUDA_ALLOCATOR)
  if (device.is_cuda()) c10::cuda::CUDACachingAllocator::resetPeakStats(device.index());
#else
  (void)device;
#endif
}

MemorySample sample_memory(const torch::Device& device) {
  MemorySample s;
  if (device.is_cuda()) {
#if defined(MPSREADY_HAVE_CUDA_ALLOCATOR)
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(device.index());
    s.current = static_cast<uint64_t>(stats.allocated_bytes[0].current);
    s.peak = static_cast<uint64_t>(stats.allocated_bytes[0].peak);
    s.kind = "cuda-max-allocated";
#else
    s.kind = "unavailable (built without the CUDA allocator headers)";
#endif
    return s;
  }
  if (device.is_mps()) {
#if defined(MPSREADY_HAVE_MPS_HOOKS) && (TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 1))
    s.current = at::detail::getMPSHooks().getCurrentAllocatedMemory();
    s.peak = at::detail::getMPSHooks().getDriverAllocatedMemory();
    s.kind = "mps-current-and-driver-allocated";
#else
    s.kind = "unavailable (LibTorch older than 2.1 reports no MPS memory)";
#endif
    return s;
  }
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
#if defined(__APPLE__)
  s.peak = static_cast<uint64_t>(usage.ru_maxrss);  // bytes on macOS
  mach_task_basic_info_data_t info{};
  mach_msg_type_number_t count = MACH_TASK_BASIC_INFO_COUNT;
  if (task_info(mach_task_self(), MACH_TASK_BASIC_INFO, reinterpret_cast<task_info_t>(&info), &count) == KERN_SUCCESS)
    s.current = info.resident_size;
#else
  s.peak = static_cast<uint64_t>(usage.ru_maxrss) * 1024;  // KiB on Linux
  s.current = status_kib("VmRSS:");
#endif
  s.kind = "cpu-rss";
  return s;
}

std::string matmul_check(const torch::Device& device) {
  try {
    auto a = torch::ones({64, 64}, torch::TensorOptions().device(device));
    auto c = torch::matmul(a, a);
    synchronize(device);
    const double v = c[0][0].item<double>();
    std::ostringstream out;
    out << c.device();
    if (v != 64.0) return "wrong result on " + out.str();
    return out.str();
  } catch (const std::exception& e) {
    return std::string("failed: ") + exception_text(e);
  }
}

}  // namespace mpsready
