#pragma once
// The peak memory of one measurement (one batch size of the sweep, the single step time), not
// of the process's life: a sweep's small batch must not inherit the peak of an earlier large one,
// and a peak below the memory in use at the end is a contradiction a ledger cannot accept.
#include <cstdint>
#include <string>

#include <torch/script.h>
#include <torch/utils.h>

#include "env/device.h"

namespace mpsready {

// How the peak is bounded to the measurement (the record's `peak_method`):
//   "allocator-peak-since-reset"  CUDA: the caching allocator's peak, reset at the start;
//   "vmhwm-since-reset"           Linux CPU: VmHWM, reset by writing 5 to /proc/self/clear_refs;
//   "sampled-after-each-step"     elsewhere (MPS, macOS, a kernel that refuses the reset): the
//                                 largest value seen after every step, a lower bound of the true peak.
// Whichever it is, the reported peak is at least the current value at the end.
class PeakMemoryMeter {
 public:
  explicit PeakMemoryMeter(const torch::Device& device);  // starts the measurement: resets the peak
  void after_step();                                      // call after every step, warm-up included
  MemorySample finish() const;                            // current and peak at the end

 private:
  torch::Device device_;
  std::string method_;
  uint64_t sampled_peak_ = 0;
};

}  // namespace mpsready
