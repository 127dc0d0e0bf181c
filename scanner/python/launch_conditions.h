#pragma once
// Tests about a distributed launch, read under Mac assumptions: a Mac runs one process that no
// launcher started, so the variables a launcher sets (RANK, WORLD_SIZE, LOCAL_RANK,
// LOCAL_WORLD_SIZE, SLURM_PROCID) are unset, no process group is initialized and the world size
// is 1. `"RANK" in os.environ` is false there, `world_size == 1` true, `not dist.is_initialized()`
// true. Everything else is left to the CUDA and MPS checks, or undecided.
#include <string_view>

#include <tree_sitter/api.h>

namespace mpsready {

// 0 false on a Mac, 1 true, 2 not a launch test (or one this cannot decide). `expr` is one
// operand: no `not`, `and` or `or` around it.
int launch_test_on_mac(std::string_view source, TSNode expr);

}  // namespace mpsready
