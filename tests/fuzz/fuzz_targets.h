#pragma once
// The fuzz targets: each feeds arbitrary bytes to one reader of untrusted input. They are plain
// functions so that the same code runs under libFuzzer (libfuzzer_main.cpp, MPSREADY_FUZZ=ON) and
// in the ordinary test suite, which replays every committed regression input
// (regressions_test.cpp). A target must never crash, hang or leak on any input.
#include <string_view>
#include <vector>

namespace mpsready::fuzz {

struct FuzzTarget {
  const char* name;  // also the folder of its regression inputs: tests/fuzz/regressions/<name>/
  void (*run)(std::string_view bytes);
};

// Every target, in a fixed order (scripts/fuzz runs them all).
const std::vector<FuzzTarget>& fuzz_targets();
const FuzzTarget* find_fuzz_target(std::string_view name);

// Front ends and readers, one entry point each (fuzz_targets.cpp registers them).
void fuzz_python_source(std::string_view bytes);
void fuzz_notebook(std::string_view bytes);
void fuzz_cpp_source(std::string_view bytes);
void fuzz_cpp_isolated(std::string_view bytes);  // in the supervised child process
void fuzz_cython_source(std::string_view bytes);
void fuzz_extension_binary(std::string_view bytes);  // an ELF file's dynamic section
void fuzz_manifest(std::string_view file_name, std::string_view bytes);
void fuzz_config(std::string_view bytes);
void fuzz_rule_files(std::string_view bytes);
void fuzz_fix_write(std::string_view bytes);  // `fix --write` in a root full of links out of it
void fuzz_scan_cache(std::string_view bytes);  // a file in the --cache directory

}  // namespace mpsready::fuzz
