// The libFuzzer entry point for every target: MPSREADY_FUZZ_TARGET=<name> picks one
// (scripts/fuzz runs them all; `mpsready-fuzz -help=1` lists libFuzzer's own flags).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "fuzz/fuzz_targets.h"

namespace {
const mpsready::fuzz::FuzzTarget* target = nullptr;
}

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  const char* name = std::getenv("MPSREADY_FUZZ_TARGET");
  target = name ? mpsready::fuzz::find_fuzz_target(name) : nullptr;
  if (!target) {
    std::fprintf(stderr, "mpsready-fuzz: set MPSREADY_FUZZ_TARGET to one of:");
    for (const auto& t : mpsready::fuzz::fuzz_targets()) std::fprintf(stderr, " %s", t.name);
    std::fprintf(stderr, "\n");
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  target->run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
