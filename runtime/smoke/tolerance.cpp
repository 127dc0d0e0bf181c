#include "smoke/tolerance.h"

#include <algorithm>
#include <limits>

#include "smoke/input_spec.h"

namespace mpsready {

Tolerance default_tolerance(c10::ScalarType dtype) {
  switch (dtype) {
    case c10::kFloat: case c10::kComplexFloat: return {1e-4, 1e-3};
    case c10::kHalf: case c10::kComplexHalf: return {1e-3, 1e-2};
    case c10::kBFloat16: return {1e-2, 5e-2};
    case c10::kDouble: case c10::kComplexDouble: return {1e-7, 1e-7};
    default: return {0, 0};
  }
}

Tolerance ToleranceTable::lookup(c10::ScalarType dtype) const {
  auto it = overrides_.find(dtype);
  return it != overrides_.end() ? it->second : default_tolerance(dtype);
}

std::string ToleranceTable::override_from(const std::string& text) {
  const auto eq = text.find('=');
  const auto comma = text.find(',', eq == std::string::npos ? 0 : eq);
  if (eq == std::string::npos || comma == std::string::npos)
    return "--tolerance " + text + ": expected DTYPE=ATOL,RTOL, e.g. float32=1e-3,1e-2";
  auto dtype = parse_dtype(text.substr(0, eq));
  if (!dtype) return "--tolerance " + text + ": unknown dtype \"" + text.substr(0, eq) + "\"";
  try {
    size_t used = 0;
    Tolerance t;
    const std::string a = text.substr(eq + 1, comma - eq - 1), r = text.substr(comma + 1);
    t.atol = std::stod(a, &used);
    if (used != a.size()) throw std::invalid_argument(a);
    t.rtol = std::stod(r, &used);
    if (used != r.size()) throw std::invalid_argument(r);
    if (t.atol < 0 || t.rtol < 0) return "--tolerance " + text + ": tolerances cannot be negative";
    overrides_[*dtype] = t;
  } catch (const std::exception&) {
    return "--tolerance " + text + ": ATOL and RTOL must be numbers, e.g. float32=1e-3,1e-2";
  }
  return "";
}

Comparison compare_outputs(const std::vector<torch::Tensor>& actual, const std::vector<torch::Tensor>& reference,
                           const ToleranceTable& table) {
  Comparison c;
  if (actual.size() != reference.size()) {
    c.within_tolerance = false;
    c.mismatch = "the model returned " + std::to_string(actual.size()) + " outputs here and " +
                 std::to_string(reference.size()) + " on the reference";
    return c;
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    const std::string label = "output " + std::to_string(i);
    auto a = actual[i].detach().to(torch::kCPU);
    auto r = reference[i].detach().to(torch::kCPU);
    if (a.sizes() != r.sizes()) {
      c.within_tolerance = false;
      if (c.mismatch.empty()) c.mismatch = label + " has a different shape";
      continue;
    }
    if (a.scalar_type() != r.scalar_type()) {
      c.within_tolerance = false;
      if (c.mismatch.empty())
        c.mismatch = label + " is " + dtype_name(a.scalar_type()) + " here and " + dtype_name(r.scalar_type()) +
                     " on the reference";
      continue;
    }
    if (a.numel() == 0) continue;
    const Tolerance tol = table.lookup(r.scalar_type());
    const bool complex = a.is_complex();
    const auto wide = complex ? torch::kComplexDouble : torch::kDouble;
    auto ad = a.to(wide), rd = r.to(wide);
    // Positions where both are the same non-finite value count as equal; they are reported as
    // non-finite elsewhere.
    auto same_nonfinite = (torch::isnan(ad) & torch::isnan(rd)) | (ad == rd);
    auto diff = torch::where(same_nonfinite, torch::zeros_like(ad), ad - rd).abs();
    auto ref_abs = rd.abs();  // real, also for complex outputs
    diff = torch::nan_to_num(diff, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity());
    const double max_abs = diff.max().item<double>();
    auto nonzero = ref_abs > 0;
    double max_rel = 0;
    if (nonzero.any().item<bool>())
      max_rel = (diff.masked_select(nonzero) / ref_abs.masked_select(nonzero)).max().item<double>();
    c.max_abs_err = std::max(c.max_abs_err, max_abs);
    c.max_rel_err = std::max(c.max_rel_err, max_rel);
    const bool ok = (diff <= tol.atol + tol.rtol * torch::nan_to_num(ref_abs, 0, 0)).all().item<bool>();
    if (!ok) {
      c.within_tolerance = false;
      if (c.mismatch.empty())
        c.mismatch = label + " differs by up to " + std::to_string(max_abs) + " (tolerance for " +
                     dtype_name(r.scalar_type()) + ": atol " + std::to_string(tol.atol) + ", rtol " +
                     std::to_string(tol.rtol) + ")";
    }
  }
  return c;
}

}  // namespace mpsready
