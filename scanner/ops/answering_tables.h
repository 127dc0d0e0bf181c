#pragma once
// The op-status sources that answer `mpsready ops`: every table or yaml found (so the answer can
// say from which version on an op runs on MPS), and which of them is the target. Shared by the
// model path (LibTorch) and the recorded-trace path (none).
#include <memory>
#include <string>
#include <vector>

#include "ops/native_functions.h"
#include "ops/op_coverage_source.h"

namespace mpsready {

struct AnsweringTables {
  std::vector<std::unique_ptr<NativeFunctions>> tables;  // oldest first
  std::vector<const NativeFunctions*> views;             // the same, for the report functions
  size_t target = 0;                                      // the one that answers
  std::string error;  // non-empty: nothing answers (no file found, unknown version, malformed file)
};

AnsweringTables load_answering_tables(const OpCoverageSettings& settings);

}  // namespace mpsready
