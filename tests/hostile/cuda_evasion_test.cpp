// CUDA that nvcc or Python reads but a token matcher would miss (issue 26, item 6): kernels
// spelled `__attribute__((global))`, split by a line splice or made by a macro, with and without a
// compile database; a prebuilt extension binary whose dynamic section names CUDA libraries; a
// Cython source calling the CUDA runtime. One test per case, each on a generated repository.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "support/cli_runner.h"
#include "support/minimal_elf.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

std::set<std::string> sites(const nlohmann::json& doc) {
  std::set<std::string> out;
  for (const auto& f : doc["findings"])
    out.insert(f["path"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()) + ":" +
               f["rule"].get<std::string>());
  return out;
}

std::string dump(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += "  " + x + "\n";
  return out;
}

std::map<std::string, std::string> notes_of(const nlohmann::json& list) {
  std::map<std::string, std::string> out;
  for (const auto& n : list) {
    std::string& reasons = out[n["path"].get<std::string>()];
    reasons += (reasons.empty() ? "" : " | ") + n["reason"].get<std::string>();
  }
  return out;
}

nlohmann::json scan_json(const fs::path& root) {
  const CliRun run = mpsready("scan " + quote(root.string()) + " --format json", false);
  EXPECT_EQ(run.code, 0) << run.out.substr(0, 2000);
  nlohmann::json doc = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << run.out.substr(0, 2000);
  return doc.is_discarded() ? nlohmann::json::object({{"errors", nlohmann::json::array()},
                                                      {"skipped", nlohmann::json::array()},
                                                      {"findings", nlohmann::json::array()},
                                                      {"verdict", ""}})
                            : doc;
}

// `files` scanned twice: in tolerant mode and with a compile_commands.json naming each .cu file.
// `expected`: the sites that must be found both times; `absent`: those that must not.
void expect_kernels(const std::map<std::string, std::string>& files, const std::set<std::string>& expected,
                    const std::set<std::string>& absent = {}) {
  for (const bool with_database : {false, true}) {
    TempDir dir;
    std::string commands = "[";
    for (const auto& [name, text] : files) {
      dir.write(name, text);
      if (!name.ends_with(".cu")) continue;
      commands += std::string(commands.size() > 1 ? "," : "") + "{\"directory\": \"" + dir.path().string() +
                  "\", \"file\": \"" + name + "\", \"command\": \"clang++ -std=c++17 -c " + name + "\"}";
    }
    if (with_database) dir.write("compile_commands.json", commands + "]");
    const auto found = sites(scan_json(dir.path()));
    const std::string mode = with_database ? " (compile database)" : " (tolerant)";
    for (const std::string& site : expected) EXPECT_TRUE(found.count(site)) << site << mode << "\n" << dump(found);
    for (const std::string& site : absent) EXPECT_FALSE(found.count(site)) << site << mode << "\n" << dump(found);
  }
}

}  // namespace

// `__attribute__((global))` is `__global__` to nvcc and Clang; the file held no `__global__` token.
TEST(CudaEvasion, KernelSpelledAsAnAttribute) {
  expect_kernels({{"ops.cu", "__attribute__((global)) void scale(float* x) { x[0] *= 2.0f; }\n"
                             "__attribute__((device)) float twice(float v) { return 2 * v; }\n"},
                  {"attr.cuh", "__attribute__((global)) void shift(float* x) { x[0] += 1.0f; }\n"}},
                 {"ops.cu:1:cu-cuda-kernel", "attr.cuh:1:cu-cuda-kernel"});
}

// A backslash-newline splice inside `__global__` is removed before the compiler tokenizes.
TEST(CudaEvasion, KernelSplitByALineSplice) {
  expect_kernels({{"ops.cu", "__glo\\\nbal__ void scale(float* x) { x[0] *= 2.0f; }\n"}}, {"ops.cu:2:cu-cuda-kernel"});
}

// `__global__` from an object-like macro, pasted together by a function-like one (the file never
// spells it), and a whole declaration from a function-like one; a macro that expands to nothing
// makes no kernel.
TEST(CudaEvasion, KernelMadeByAMacro) {
  expect_kernels({{"qualifier.cu", "#define KERNEL __global__\n"
                                   "KERNEL void scale(float* x) { x[0] *= 2.0f; }\n"},
                  {"pasted.cu", "#define PASTE(a, b) a##b\n"
                                "PASTE(__glo, bal__) void twice(float* x) { x[0] *= 2.0f; }\n"},
                  {"declaration.cu", "#define DECLARE_KERNEL(name) __global__ void name(float* x)\n"
                                     "DECLARE_KERNEL(shift) { x[0] += 1.0f; }\n"},
                  {"host.cu", "#define KERNEL\n"
                              "KERNEL void plain(float* x) { x[0] = 0.0f; }\n"}},
                 {"qualifier.cu:2:cu-cuda-kernel", "pasted.cu:2:cu-cuda-kernel", "declaration.cu:2:cu-cuda-kernel"},
                 {"host.cu:2:cu-cuda-kernel"});
}

// Where Clang does not run (a file over 2 MiB is read token by token), the token fallback still
// reads the spliced keyword, the attribute and the object-like macro; an empty macro is no kernel.
TEST(CudaEvasion, KernelSpellingsInTheTokenFallback) {
  TempDir dir;
  dir.write("big.cu", "// " + std::string(2u << 20, 'x') + "\n" +            // line 1
                          "__attribute__((global)) void scale(float* x) { x[0] *= 2.0f; }\n"  // line 2
                          "__glo\\\nbal__ void shift(float* x) { x[0] += 1.0f; }\n"         // lines 3-4
                          "#define KERNEL __global__\n"                                       // line 5
                          "KERNEL void zero(float* x) { x[0] = 0.0f; }\n"                     // line 6
                          "#define HOST\n"                                                    // line 7
                          "HOST void plain(float* x) { x[0] = 1.0f; }\n");                   // line 8
  const nlohmann::json doc = scan_json(dir.path());
  const auto found = sites(doc);
  for (const char* site : {"big.cu:2:cu-cuda-kernel", "big.cu:4:cu-cuda-kernel", "big.cu:6:cu-cuda-kernel"})
    EXPECT_TRUE(found.count(site)) << site << "\n" << dump(found);
  EXPECT_FALSE(found.count("big.cu:8:cu-cuda-kernel")) << dump(found);
  const auto errors = notes_of(doc["errors"]);
  ASSERT_TRUE(errors.count("big.cu"));
  EXPECT_NE(errors.at("big.cu").find("token by token"), std::string::npos) << errors.at("big.cu");
}

// A committed extension binary that links the CUDA runtime, imported by the package, keeps the
// repository on Linux; one that links only the C library does not count; a malformed one costs
// that file alone.
TEST(CudaEvasion, PrebuiltExtensionLinkingCudaIsABlocker) {
  TempDir dir;
  dir.write("pyproject.toml", "[project]\nname = \"pkg\"\nversion = \"0.1\"\n");
  dir.write("pkg/__init__.py", "from . import _fast\nfrom . import _plain\n");
  // A string in the binary that reads as a suppression comment (here a library name, with the
  // newlines that would make it a line of the report's text) suppresses nothing.
  dir.write("pkg/_fast.cpython-311-x86_64-linux-gnu.so",
            minimal_shared_object({"libcudart.so.12", "\n# mpsready: ignore-file[*]\n", "libc.so.6"}));
  dir.write("pkg/_plain.cpython-311-x86_64-linux-gnu.so", minimal_shared_object({"libm.so.6", "libc.so.6"}));
  dir.write("pkg/_broken.so", std::string("\x7f" "ELF\x02\x01\x01", 7) + std::string(200, '\xff'));
  const nlohmann::json doc = scan_json(dir.path());
  const auto found = sites(doc);
  EXPECT_TRUE(found.count("pkg/_fast.cpython-311-x86_64-linux-gnu.so:1:bin-links-cuda-library")) << dump(found);
  EXPECT_TRUE(found.count("pkg/__init__.py:1:py-cuda-extension-import")) << dump(found);
  EXPECT_FALSE(found.count("pkg/_plain.cpython-311-x86_64-linux-gnu.so:1:bin-links-cuda-library")) << dump(found);
  EXPECT_FALSE(found.count("pkg/__init__.py:2:py-cuda-extension-import")) << dump(found);
  EXPECT_EQ(doc["verdict"], "stay-on-linux") << dump(found);
  const auto errors = notes_of(doc["errors"]);
  ASSERT_TRUE(errors.count("pkg/_broken.so")) << doc["errors"].dump();
  EXPECT_NE(errors.at("pkg/_broken.so").find("ELF"), std::string::npos) << errors.at("pkg/_broken.so");
}

// A Cython source that calls the CUDA runtime, imported by the package, keeps the repository on
// Linux; a Cython source without CUDA does not count.
TEST(CudaEvasion, CythonCallingTheCudaRuntimeIsABlocker) {
  TempDir dir;
  dir.write("pyproject.toml", "[project]\nname = \"pkg\"\nversion = \"0.1\"\n");
  dir.write("pkg/__init__.py", "from ._alloc import device_buffer\nfrom ._plain import add\n");
  dir.write("pkg/_alloc.pyx", "cdef extern from \"cuda_runtime.h\":\n"
                              "    int cudaMalloc(void** ptr, size_t size)\n"
                              "\n"
                              "def device_buffer(size_t n):\n"
                              "    cdef void* p\n"
                              "    # cudaFree is named in this comment only\n"
                              "    cudaMalloc(&p, n)\n"
                              "    return <size_t>p\n");
  dir.write("pkg/_driver.pxd", "from cuda.bindings cimport cydriver\n");
  dir.write("pkg/_plain.pyx", "def add(int a, int b):\n    return a + b  # not cudaMalloc\n");
  const nlohmann::json doc = scan_json(dir.path());
  const auto found = sites(doc);
  EXPECT_TRUE(found.count("pkg/_alloc.pyx:1:cy-cuda-api")) << dump(found);
  EXPECT_TRUE(found.count("pkg/_alloc.pyx:7:cy-cuda-api")) << dump(found);
  EXPECT_FALSE(found.count("pkg/_alloc.pyx:6:cy-cuda-api")) << dump(found);
  EXPECT_TRUE(found.count("pkg/_driver.pxd:1:cy-cuda-api")) << dump(found);
  EXPECT_TRUE(found.count("pkg/__init__.py:1:py-cuda-extension-import")) << dump(found);
  EXPECT_FALSE(found.count("pkg/__init__.py:2:py-cuda-extension-import")) << dump(found);
  for (const std::string& s : found) EXPECT_EQ(s.find("_plain"), std::string::npos) << s;
  EXPECT_EQ(doc["verdict"], "stay-on-linux") << dump(found);
}

}  // namespace mpsready::testing
