#pragma once
// What a PyTorch version offers an aten operator on the MPS device.
#include <optional>
#include <string_view>

namespace mpsready {

enum class OpStatus {
  unknown,    // the op is not in the source that was asked (never guessed)
  missing,    // no MPS kernel: falls back to the CPU with PYTORCH_ENABLE_MPS_FALLBACK=1, else raises
  composite,  // CompositeImplicitAutograd: decomposes into other ops, works if they do
  generic,    // CompositeExplicitAutograd(NonFunctional): one kernel for every device
  kernel,     // an MPS kernel, directly or through a structured delegate
};

// "kernel", "composite", "generic", "missing", "unknown": the words of `ops --format json`.
std::string_view to_string(OpStatus status);
std::optional<OpStatus> parse_op_status(std::string_view word);

// How much of the op runs on MPS, for choosing the best of several overloads:
// kernel > generic > composite > missing > unknown.
int op_status_rank(OpStatus status);

}  // namespace mpsready
