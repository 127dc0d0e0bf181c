#include "smoke/measure_batch.h"

#include "env/peak_memory.h"
#include "smoke/step_timing.h"

namespace mpsready {

void measure_batch(Measurement& m, const std::function<void()>& step, const torch::Device& device,
                   std::optional<int64_t> samples, int warmup, int iterations) {
  // The meter starts after the batch's inputs exist, so the peak is the step's, not the copy's.
  PeakMemoryMeter meter(device);
  const StepTimes t = time_steps(step, device, warmup, iterations, [&] { meter.after_step(); });
  m.memory = meter.finish();
  if (t.ms.empty()) return;  // no timed step: the timings stay null
  m.step_ms_p50 = t.p50;
  m.step_ms_p95 = t.p95;
  if (samples && t.p50 > 0) m.throughput_per_s = static_cast<double>(*samples) * 1000.0 / t.p50;
}

std::optional<int64_t> leading_batch_size(const std::vector<torch::Tensor>& inputs) {
  for (const auto& t : inputs)
    if (t.dim() > 0) return t.size(0);
  return std::nullopt;
}

}  // namespace mpsready
