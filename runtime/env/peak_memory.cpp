#include "env/peak_memory.h"

#include <algorithm>
#include <fstream>

namespace mpsready {

namespace {

#if defined(__linux__)
// Resets the kernel's resident-set high-water mark (VmHWM) of this process. Containers and
// hardened kernels may refuse the write; the caller then falls back to sampling.
bool reset_vmhwm() {
  std::ofstream out("/proc/self/clear_refs");
  if (!out) return false;
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

uint64_t vmhwm_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // "VmHWM:   1234 kB"
  return 0;
}
#endif

}  // namespace

PeakMemoryMeter::PeakMemoryMeter(const torch::Device& device) : device_(device) {
  if (device.is_cuda()) {
    reset_peak_memory(device);
    method_ = "allocator-peak-since-reset";
  }
#if defined(__linux__)
  else if (device.is_cpu() && reset_vmhwm()) {
    method_ = "vmhwm-since-reset";
  }
#endif
  if (method_.empty()) method_ = "sampled-after-each-step";
  sampled_peak_ = sample_memory(device_).current;
}

void PeakMemoryMeter::after_step() {
  if (method_ == "sampled-after-each-step") sampled_peak_ = std::max(sampled_peak_, sample_memory(device_).current);
}

MemorySample PeakMemoryMeter::finish() const {
  MemorySample s = sample_memory(device_);
  uint64_t peak = sampled_peak_;
  if (method_ == "allocator-peak-since-reset") peak = std::max(peak, s.peak);
#if defined(__linux__)
  if (method_ == "vmhwm-since-reset") peak = std::max(peak, vmhwm_bytes());
#endif
  s.peak = std::max(peak, s.current);
  s.peak_method = method_;
  return s;
}

}  // namespace mpsready
