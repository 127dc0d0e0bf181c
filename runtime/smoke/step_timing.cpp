#include "smoke/step_timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "env/device.h"

namespace mpsready {

double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
  return values[std::min(values.size(), std::max<size_t>(rank, 1)) - 1];
}

StepTimes time_steps(const std::function<void()>& step, const torch::Device& device, int warmup, int iterations,
                     const std::function<void()>& after_step) {
  for (int i = 0; i < warmup; ++i) {
    step();
    if (after_step) after_step();
  }
  synchronize(device);
  StepTimes t;
  for (int i = 0; i < iterations; ++i) {
    const auto start = std::chrono::steady_clock::now();
    step();
    synchronize(device);
    t.ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    if (after_step) after_step();
  }
  t.p50 = percentile(t.ms, 0.50);
  t.p95 = percentile(t.ms, 0.95);
  return t;
}

}  // namespace mpsready
