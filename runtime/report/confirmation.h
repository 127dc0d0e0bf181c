#pragma once
// Whether a smoke run confirms, contradicts or cannot speak to a prediction. Only a run on a real
// MPS device can confirm or contradict anything about MPS: on any other device the answer is
// always `unconfirmed`.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "smoke/smoke_result.h"

namespace mpsready {

struct Confirmation {
  std::string status;  // confirmed | contradicted | unconfirmed
  std::vector<std::string> reasons;
};

// What the run saw on MPS that matters for portability (failures, fallbacks, non-finite values,
// outputs out of tolerance); empty when it ran cleanly and entirely on MPS.
std::vector<std::string> mps_problems(const SmokeResult& result, bool* failed_outright = nullptr);

// `static_verdict`: the scan's verdict (stay-on-linux, partial, mps-ready), or nullopt for a
// smoke run on its own, whose implied prediction is "this model runs on MPS". The rules are in
// docs/smoke-record.md.
Confirmation confirm(const SmokeResult& result, const std::optional<std::string>& static_verdict);

// Exit status 1 of `mpsready smoke`: the model failed to run (forward or training step), produced
// NaN or infinity, differs from the reference or the golden record beyond tolerance, or the run
// contradicts the prediction. Flags (memory growth, speed-up) and repeatability are reported, not
// failed on.
bool smoke_failed(const SmokeResult& result, const Confirmation& confirmation);

}  // namespace mpsready
