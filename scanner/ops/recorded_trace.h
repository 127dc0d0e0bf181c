#pragma once
// A trace recorded elsewhere: the tab-separated lines `mpsready-trace-ops` prints (op, caller,
// count; caller "-" for the model's own code) under the header naming the LibTorch that ran it.
// A lab records it on the machine that has its PyTorch release; `mpsready ops --trace FILE` gives
// those calls their MPS status here, without loading the model again.
#include <string>
#include <vector>

#include "ops/op_trace_report.h"

namespace mpsready {

struct RecordedTrace {
  std::vector<TracedCall> calls;
  std::string torch_version;  // from the header ("2.11.0"), "" when it names none
  std::string error;          // non-empty: not a trace; says which line and why
};

RecordedTrace parse_recorded_trace(const std::string& text);

}  // namespace mpsready
