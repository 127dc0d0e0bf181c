#pragma once
// Op coverage from a trace: the ops one forward pass dispatched (with the op that called each),
// looked up in an op-status table, so a composite or generic op whose callees include a missing
// one is reported with the chain that leads there
// (aten::linalg_svd → aten::_linalg_svd → aten::_linalg_svd.U: missing).
// Needs no LibTorch: runtime/ops/op_trace.h collects the calls.
#include <string>
#include <vector>

#include "ops/op_coverage_report.h"

namespace mpsready {

// One (op, caller) pair of a trace; names qualified ("aten::kthvalue.values"), caller "" when the
// model's own code made the call.
struct TracedCall {
  std::string op;
  std::string caller;
  size_t count = 0;
};

// Which traced ops are dispatched for MPS: those the model calls, and those called by a composite
// or generic op that is (its one kernel runs on MPS and calls them with MPS tensors). The callees
// of a kernel or of a missing op are the CPU kernel's own business and are not followed. Each
// dispatched missing op falls back; each dispatched composite or generic op that reaches one
// becomes missing, with the chains (shortest first, one per missing op reached).
OpCoverageReport report_from_trace(const std::vector<TracedCall>& calls, const std::vector<const NativeFunctions*>& tables,
                                   size_t target);

}  // namespace mpsready
