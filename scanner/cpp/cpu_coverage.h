#pragma once
// What a C++ file offers a CPU build of an extension, read from the raw tokens with `WITH_CUDA`
// (and every other macro naming CUDA) undefined:
//   - the operators it exports: pybind `m.def("name", &fn)` in `PYBIND11_MODULE`, `m.def` /
//     `m.impl` in `TORCH_LIBRARY`, `TORCH_LIBRARY_FRAGMENT` and `TORCH_LIBRARY_IMPL(ns, KEY, m)`;
//   - the functions it defines, and whether each reaches CPU code: a body whose path without
//     CUDA (outside `#ifdef WITH_CUDA` and runtime CUDA checks) ends in `AT_ERROR(...)`,
//     `TORCH_CHECK(false, ...)`, `throw`, or an assertion that an input is a CUDA tensor, does not;
//     with the registry key it dispatches on and the functions it always calls;
//   - the implementations it registers per device in the extension's own registry
//     (`REGISTER_DEVICE_IMPL(nms_impl, CPU, nms_cpu)`), read by the key `DISPATCH_DEVICE_IMPL`
//     dispatches on.
#include <string>
#include <string_view>
#include <vector>

#include "core/repo_facts.h"
#include "cpp_guards.h"
#include "token_scanner.h"

namespace mpsready {

struct CpuCoverage {
  std::vector<CppOpFact> ops;
  std::vector<CppFunctionFact> functions;
  std::vector<CppDeviceImplFact> device_impls;
};

CpuCoverage read_cpu_coverage(const std::vector<CppToken>& tokens, std::string_view text, const CppGuards& guards);

}  // namespace mpsready
