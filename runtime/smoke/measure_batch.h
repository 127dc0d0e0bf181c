#pragma once
// One measurement of a step at one batch: step times after a warm-up, throughput, and the peak
// memory of this measurement alone. The sweep makes one per batch size; every run makes one for
// the inputs as given.
#include <cstdint>
#include <functional>
#include <optional>

#include <torch/script.h>
#include <torch/utils.h>

#include "smoke/smoke_result.h"

namespace mpsready {

// Fills the timings and memory of `m`. `samples` is the batch size, for the throughput (nullopt:
// no throughput). Throws what the step throws; `m` is then left without timings.
void measure_batch(Measurement& m, const std::function<void()>& step, const torch::Device& device,
                   std::optional<int64_t> samples, int warmup, int iterations);

// The leading dimension of the first input that has one: the batch size of the inputs as given.
std::optional<int64_t> leading_batch_size(const std::vector<torch::Tensor>& inputs);

}  // namespace mpsready
