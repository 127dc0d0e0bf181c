#pragma once
// Step times with the device synchronized after every step (MPS and CUDA queue work and return
// at once, so an unsynchronized time measures the launch, not the work), after a warm-up.
#include <functional>
#include <vector>

#include <torch/script.h>
#include <torch/utils.h>

namespace mpsready {

struct StepTimes {
  std::vector<double> ms;  // one per timed step
  double p50 = 0;
  double p95 = 0;
};

// Nearest-rank percentile of `values` (0 < q <= 1); 0 for none.
double percentile(std::vector<double> values, double q);

// `after_step`, when given, runs after every step (warm-up included) outside the timed span: the
// memory meter samples there.
StepTimes time_steps(const std::function<void()>& step, const torch::Device& device, int warmup, int iterations,
                     const std::function<void()>& after_step = {});

}  // namespace mpsready
