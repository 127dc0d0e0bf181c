#include "report/confirmation.h"

#include <cmath>

namespace mpsready {

namespace {

std::string join(const std::set<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

std::vector<std::string> mps_problems(const SmokeResult& r, bool* failed_outright) {
  std::vector<std::string> p;
  bool failed = false;
  if (!r.mps_blockers.empty()) {
    p.push_back(std::to_string(r.mps_blockers.size()) + " tensor(s) MPS cannot hold, e.g. " +
                r.mps_blockers.front().where + " (" + r.mps_blockers.front().reason + ")");
    failed = true;
  }
  if (!r.fallbacks.unimplemented_ops.empty()) {
    p.push_back("ops not implemented for MPS: " + join(r.fallbacks.unimplemented_ops));
    failed = true;
  }
  if (!r.forward_ran) {
    p.push_back("the forward pass failed on MPS: " + r.forward_error.substr(0, r.forward_error.find('\n')));
    failed = true;
  }
  if (r.train && !r.train->ran) {
    p.push_back("the training step failed on MPS: " + r.train->error.substr(0, r.train->error.find('\n')));
    failed = true;
  }
  if (!r.fallbacks.fallback_ops.empty())
    p.push_back("ops fell back to the CPU: " + join(r.fallbacks.fallback_ops));
  if (r.nonfinite_outputs) p.push_back("the outputs hold NaN or infinity");
  if (r.train && r.train->ran && !r.train->gradients_finite) p.push_back("the gradients hold NaN or infinity");
  if (r.reference.ran && !r.reference.comparison.within_tolerance)
    p.push_back("outputs differ from the " + r.reference.device + " reference: " + r.reference.comparison.mismatch);
  if (failed_outright) *failed_outright = failed;
  return p;
}

Confirmation confirm(const SmokeResult& r, const std::optional<std::string>& verdict) {
  Confirmation c;
  if (r.device.used != "mps") {
    c.status = "unconfirmed";
    const std::string why = mps_unavailable_reason(r.environment);
    c.reasons.push_back("no MPS device: " + (why.empty() ? "MPS was not requested" : why) + "; the run used " +
                        r.device.used + ", which says nothing about MPS");
    return c;
  }
  bool failed = false;
  const std::vector<std::string> problems = mps_problems(r, &failed);
  const bool clean = problems.empty();
  if (!verdict || *verdict == "mps-ready") {
    c.status = clean ? "confirmed" : "contradicted";
    if (clean) c.reasons.push_back("ran entirely on MPS, finite, within tolerance of the " + r.reference.device + " reference");
    c.reasons.insert(c.reasons.end(), problems.begin(), problems.end());
  } else if (*verdict == "partial") {
    // partial predicts a model that runs on MPS after mechanical changes: CPU fallbacks are
    // allowed, failures, non-finite values and wrong numbers are not.
    std::vector<std::string> serious;
    for (const auto& s : problems)
      if (s.rfind("ops fell back", 0) != 0) serious.push_back(s);
    c.status = serious.empty() ? "confirmed" : "contradicted";
    if (serious.empty()) c.reasons.push_back("the model runs on MPS" + std::string(problems.empty() ? "" : " (with CPU fallbacks)") +
                                             "; the scan's portable findings are in the code around it");
    c.reasons.insert(c.reasons.end(), problems.begin(), problems.end());
  } else {  // stay-on-linux
    c.status = failed || !clean ? "confirmed" : "contradicted";
    if (c.status == "contradicted")
      c.reasons.push_back("the model ran cleanly on MPS although the scan found blockers; they may be outside the "
                          "exported model (training scripts, extensions, data loading): check the findings");
    c.reasons.insert(c.reasons.end(), problems.begin(), problems.end());
  }
  return c;
}

bool smoke_failed(const SmokeResult& r, const Confirmation& c) {
  if (!r.forward_ran || r.nonfinite_outputs) return true;
  if (r.train && (!r.train->ran || !r.train->gradients_finite || !std::isfinite(r.train->loss))) return true;
  if (r.reference.ran && !r.reference.comparison.within_tolerance) return true;
  if (r.golden && !r.golden->compared.empty() && r.golden->error.empty() && !r.golden->comparison.within_tolerance)
    return true;
  return c.status == "contradicted";
}

}  // namespace mpsready
