#pragma once
// How close this device's outputs must be to the reference's: per-dtype absolute and relative
// tolerances (documented in docs/smoke-record.md; overridable with --tolerance), and the errors
// that were actually seen.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <torch/script.h>
#include <torch/utils.h>

namespace mpsready {

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

// float32 1e-4/1e-3, float16 1e-3/1e-2, bfloat16 1e-2/5e-2, float64 1e-7/1e-7, complex like
// their parts, integers and bool exact.
Tolerance default_tolerance(c10::ScalarType dtype);

class ToleranceTable {
 public:
  Tolerance lookup(c10::ScalarType dtype) const;
  // "float32=1e-3,1e-2"; returns an error message or "".
  std::string override_from(const std::string& text);
  const std::map<c10::ScalarType, Tolerance>& overrides() const { return overrides_; }

 private:
  std::map<c10::ScalarType, Tolerance> overrides_;
};

struct Comparison {
  double max_abs_err = 0;
  double max_rel_err = 0;   // |a - b| / |reference|, over elements whose reference is not 0
  bool within_tolerance = true;
  std::string mismatch;     // first reason it is not within tolerance (shape, dtype, value)
};

// Elementwise |actual - reference| <= atol + rtol * |reference|; NaN matches NaN and an infinity
// matches the same infinity (non-finite values are reported separately). Results are combined
// over every output.
Comparison compare_outputs(const std::vector<torch::Tensor>& actual, const std::vector<torch::Tensor>& reference,
                           const ToleranceTable& table);

}  // namespace mpsready
