#include "ops/op_status.h"

namespace mpsready {

std::string_view to_string(OpStatus status) {
  switch (status) {
    case OpStatus::kernel: return "kernel";
    case OpStatus::composite: return "composite";
    case OpStatus::generic: return "generic";
    case OpStatus::missing: return "missing";
    case OpStatus::unknown: break;
  }
  return "unknown";
}

std::optional<OpStatus> parse_op_status(std::string_view word) {
  for (OpStatus s : {OpStatus::unknown, OpStatus::missing, OpStatus::composite, OpStatus::generic,
                     OpStatus::kernel})
    if (to_string(s) == word) return s;
  return std::nullopt;
}

int op_status_rank(OpStatus status) {
  switch (status) {
    case OpStatus::kernel: return 4;
    case OpStatus::generic: return 3;
    case OpStatus::composite: return 2;
    case OpStatus::missing: return 1;
    case OpStatus::unknown: break;
  }
  return 0;
}

}  // namespace mpsready
