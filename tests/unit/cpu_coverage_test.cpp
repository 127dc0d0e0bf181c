// What a C++ file offers a CPU build of an extension (scanner/cpp/cpu_coverage.h): the operators
// it exports and whether each function bound to them reaches CPU code with WITH_CUDA undefined.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "cpp/cpp_guards.h"
#include "cpp/cpu_coverage.h"
#include "cpp/token_scanner.h"

namespace mpsready::testing {
namespace {

CpuCoverage coverage_of(const std::string& text) {
  const std::vector<CppToken> tokens = lex_cpp(text, false);
  return read_cpu_coverage(tokens, text, find_cuda_guards(tokens, text));
}

std::map<std::string, bool> cpu_of_functions(const CpuCoverage& c) {
  std::map<std::string, bool> out;
  for (const CppFunctionFact& f : c.functions) out[f.name] = f.cpu;
  return out;
}

}  // namespace

TEST(CpuCoverage, PybindOpsAndFunctionsWhoseCpuPathOnlyErrors) {
  const CpuCoverage c = coverage_of(
      "#include <torch/extension.h>\n"
      "at::Tensor nms(const at::Tensor& boxes, double iou) {\n"
      "  if (boxes.is_cuda()) {\n"
      "#ifdef WITH_CUDA\n"
      "    return nms_cuda(boxes, iou);\n"
      "#else\n"
      "    AT_ERROR(\"not compiled with GPU support\");\n"
      "#endif\n"
      "  }\n"
      "  return nms_cpu(boxes, iou);\n"
      "}\n"
      "at::Tensor roi_pool(const at::Tensor& x) {\n"
      "  if (x.is_cuda()) {\n"
      "#ifdef WITH_CUDA\n"
      "    return roi_pool_cuda(x);\n"
      "#endif\n"
      "  }\n"
      "  AT_ERROR(\"roi_pool is not implemented on the CPU\");\n"
      "}\n"
      "at::Tensor deform(const at::Tensor& x) {\n"
      "  TORCH_CHECK(false, \"deform needs CUDA\");\n"
      "}\n"
      "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n"
      "  m.def(\"nms\", &nms, \"NMS\");\n"
      "  m.def(\"roi_pool\", &roi_pool);\n"
      "  m.def(\"deform\", &deform);\n"
      "}\n");
  ASSERT_EQ(c.ops.size(), 3u);
  EXPECT_EQ(c.ops[0].name, "nms");
  EXPECT_EQ(c.ops[0].function, "nms");
  EXPECT_EQ(c.ops[2].name, "deform");
  const auto cpu = cpu_of_functions(c);
  EXPECT_TRUE(cpu.at("nms"));        // falls through to a CPU implementation
  EXPECT_FALSE(cpu.at("roi_pool"));  // the path without CUDA ends in AT_ERROR
  EXPECT_FALSE(cpu.at("deform"));    // TORCH_CHECK(false, ...)
}

TEST(CpuCoverage, TorchLibraryDefsAndCpuImplsWithTheirKeys) {
  const CpuCoverage c = coverage_of(
      "TORCH_LIBRARY(myops, m) {\n"
      "  m.def(\"scale(Tensor x, float s) -> Tensor\");\n"
      "}\n"
      "TORCH_LIBRARY_IMPL(myops, CPU, m) {\n"
      "  m.impl(\"scale\", &scale_cpu);\n"
      "}\n"
      "TORCH_LIBRARY_IMPL(myops, CUDA, m) {\n"
      "  m.impl(\"scale\", &scale_cuda);\n"
      "}\n");
  ASSERT_EQ(c.ops.size(), 3u);
  EXPECT_EQ(c.ops[0].name, "scale");
  EXPECT_TRUE(c.ops[0].schema_only);
  EXPECT_EQ(c.ops[1].key, "CPU");
  EXPECT_EQ(c.ops[1].function, "scale_cpu");
  EXPECT_EQ(c.ops[2].key, "CUDA");
}

TEST(CpuCoverage, DeviceRegistryImplementationsAndTheKeyAFunctionDispatchesOn) {
  const CpuCoverage c = coverage_of(
      "#include \"device_registry.h\"\n"
      "#define REGISTER_DEVICE_IMPL(key, device, value) registry<key>().add(device, value)\n"
      "at::Tensor nms_impl(at::Tensor boxes, double iou);\n"
      "REGISTER_DEVICE_IMPL(nms_impl, CPU, nms_cpu);\n"
      "REGISTER_DEVICE_IMPL(nms_impl, MPS, ops::nms_mps);\n"
      "#ifdef WITH_CUDA\n"
      "REGISTER_DEVICE_IMPL(nms_impl, CUDA, nms_cuda);\n"
      "#endif\n"
      "REGISTER_BAD_IMPL(nms_impl, CPU);\n"
      "at::Tensor nms_impl(at::Tensor boxes, double iou) {\n"
      "  return DISPATCH_DEVICE_IMPL(nms_impl, boxes, iou);\n"
      "}\n"
      "at::Tensor nms(at::Tensor boxes, double iou) {\n"
      "  check_boxes(boxes);\n"
      "  auto keep = ops::nms_impl(boxes, iou);\n"
      "  if (keep.numel() == 0) return empty_result(boxes);\n"
      "  else log_kept(keep);\n"
      "  for (int i = 0; i < 2; ++i) { refine(keep); }\n"
      "  return keep.to(boxes.device());\n"
      "}\n");
  ASSERT_EQ(c.device_impls.size(), 3u);  // REGISTER_BAD_IMPL has two arguments, not three
  EXPECT_EQ(c.device_impls[0].key, "nms_impl");
  EXPECT_EQ(c.device_impls[0].device, "CPU");
  EXPECT_EQ(c.device_impls[0].function, "nms_cpu");
  EXPECT_EQ(c.device_impls[0].line, 4);
  EXPECT_FALSE(c.device_impls[0].cuda_only);
  EXPECT_EQ(c.device_impls[1].device, "MPS");
  EXPECT_EQ(c.device_impls[1].function, "nms_mps");
  EXPECT_EQ(c.device_impls[2].device, "CUDA");
  EXPECT_TRUE(c.device_impls[2].cuda_only);
  ASSERT_EQ(c.functions.size(), 2u);
  EXPECT_EQ(c.functions[0].name, "nms_impl");
  EXPECT_EQ(c.functions[0].dispatches, "nms_impl");
  EXPECT_TRUE(c.functions[0].calls.empty());
  EXPECT_EQ(c.functions[1].name, "nms");
  EXPECT_EQ(c.functions[1].dispatches, "");
  // Whole statements only: not the call after `if (…)`, after `else`, in a loop's block, or
  // a method call.
  EXPECT_EQ(c.functions[1].calls, (std::vector<std::string>{"check_boxes", "nms_impl"}));
}

}  // namespace mpsready::testing
