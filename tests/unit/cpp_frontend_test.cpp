// The C++/CUDA front end with real Clang, on files a lab would have, with no CUDA SDK and no
// PyTorch headers installed.
#include <gtest/gtest.h>

#include "support/test_support.h"

namespace mpsready::testing {
namespace {

std::vector<std::string> sites(const ScanResult& r, const std::string& rule) {
  std::vector<std::string> out;
  for (const auto& f : r.findings)
    if (f.rule == rule) out.push_back(f.path + ":" + std::to_string(f.location.line) + ":" + std::string(to_string(f.impact)));
  return out;
}

const FileNote* error_of(const ScanResult& r, const std::string& path) {
  for (const auto& e : r.errors)
    if (e.path == path) return &e;
  return nullptr;
}

}  // namespace

TEST(CppFrontend, SyntaxErrorsDoNotHideLaterFindings) {
  TempDir dir;
  dir.write("k.cu",
            "#include <torch/extension.h>\n"                      // 1
            "void broken( {{ int ;; ]] }\n"                       // 2: garbage
            "template <typename T>\n"                             // 3
            "__global__ void scale(T* x, int n) { x[0] *= 2; }\n"  // 4
            "void run(float* p) {\n"
            "  scale<float><<<1, 32>>>(p, 1);\n"                  // 6
            "}\n");
  const ScanResult r = scan(dir.path());
  EXPECT_EQ(sites(r, "cu-cuda-kernel"), (std::vector<std::string>{"k.cu:4:blocker"}));
  EXPECT_EQ(sites(r, "cu-kernel-launch"), (std::vector<std::string>{"k.cu:6:blocker"}));
  const FileNote* e = error_of(r, "k.cu");
  ASSERT_NE(e, nullptr);
  EXPECT_NE(e->reason.find("parse error"), std::string::npos);
  EXPECT_NE(e->reason.find("tolerant mode"), std::string::npos);
  for (const auto& f : r.findings) EXPECT_EQ(f.mode, "tolerant");
}

// A driver-API file that never spells "cuda" still reaches the rule: every name the rule's
// pattern accepts starts with one of its needles.
TEST(CppFrontend, DriverLibraryAndKernelCallsPassThePrefilter) {
  TempDir dir;
  dir.write("loader.cpp",
            "void load(CUlibrary* lib, const void* image) {\n"
            "  cuLibraryLoadData(lib, image, 0, 0, 0, 0, 0, 0);\n"  // 2
            "}\n"
            "void get(CUkernel* k, CUlibrary lib) { cuKernelGetFunction(0, *k); }\n");  // 4
  const ScanResult r = scan(dir.path(), {"cu-cuda-runtime-api"});
  EXPECT_EQ(sites(r, "cu-cuda-runtime-api"),
            (std::vector<std::string>{"loader.cpp:2:blocker", "loader.cpp:4:blocker"}));
}

TEST(CppFrontend, MissingIncludesAreListedAndTheFileIsStillRead) {
  TempDir dir;
  dir.write("ops.cu",
            "#include \"local/helpers.cuh\"\n"
            "#include <cublas_v2.h>\n"
            "#include <thrust/sort.h>\n"
            "__global__ void k(float* x) { x[threadIdx.x] = 0; }\n"
            "void go(float* x) { k<<<1, 1>>>(x); }\n");
  const ScanResult r = scan(dir.path());
  EXPECT_EQ(sites(r, "cu-cuda-kernel").size(), 1u);
  EXPECT_EQ(sites(r, "cu-kernel-launch").size(), 1u);
  EXPECT_EQ(sites(r, "cu-cuda-library").size(), 2u);  // cuBLAS and Thrust includes
  // Missing headers alone are expected in tolerant mode and are not errors; with parse errors,
  // the file's entry lists what was not resolved.
  dir.write("broken.cu", "#include \"local/helpers.cuh\"\nvoid f( {\n__global__ void k(float* x) {}\n");
  const ScanResult r2 = scan(dir.path());
  const FileNote* e = error_of(r2, "broken.cu");
  ASSERT_NE(e, nullptr);
  EXPECT_NE(e->reason.find("not resolved: local/helpers.cuh"), std::string::npos) << e->reason;
  EXPECT_EQ(error_of(r2, "ops.cu"), nullptr);
}

TEST(CppFrontend, LaunchesInsideMacrosAndDispatchLambdas) {
  TempDir dir;
  dir.write("m.cu",
            "#define LAUNCH(kernel, n) kernel<<<(n + 255) / 256, 256>>>(n)\n"  // 1 (the macro body)
            "__global__ void fill(int n) {}\n"
            "template <typename scalar_t> __global__ void add(scalar_t* x) {}\n"
            "void run(at::Tensor x) {\n"
            "  LAUNCH(fill, 1024);\n"                                           // 5 (the use)
            "  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), \"add\", [&] {\n"
            "    add<scalar_t><<<1, 32>>>(x.data_ptr<scalar_t>());\n"           // 7
            "  });\n"
            "}\n");
  const ScanResult r = scan(dir.path(), {"cu-kernel-launch"});
  EXPECT_EQ(sites(r, "cu-kernel-launch"),
            (std::vector<std::string>{"m.cu:1:blocker", "m.cu:5:blocker", "m.cu:7:blocker"}));
}

TEST(CppFrontend, CheckCudaMacroIdiom) {
  TempDir dir;
  dir.write("b.cpp",
            "#include <torch/extension.h>\n"
            "#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x \" must be a CUDA tensor\")\n"  // 2
            "torch::Tensor f(torch::Tensor x) {\n"
            "  CHECK_CUDA(x);\n"                                                             // 4
            "  if (x.is_cuda()) { return x; }\n"                                              // 5: a dispatch
            "  return x;\n"
            "}\n");
  const ScanResult r = scan(dir.path(), {"cu-requires-cuda-tensor"});
  EXPECT_EQ(sites(r, "cu-requires-cuda-tensor"),
            (std::vector<std::string>{"b.cpp:2:portable", "b.cpp:4:portable"}));
}

TEST(CppFrontend, LibTorchApplicationDevices) {
  TempDir dir;
  dir.write("app/main.cpp",
            "#include <torch/script.h>\n"
            "int main() {\n"
            "  auto module = torch::jit::load(\"model.pt\");\n"
            "  module.to(torch::kCUDA);\n"                          // 4
            "  torch::Device device(\"cuda:0\");\n"                   // 5: a declaration, not a call
            "  auto d2 = torch::Device(\"cuda\");\n"                  // 6
            "  auto cpu = torch::Device(torch::kCPU);\n"
            "  return 0;\n"
            "}\n");
  const ScanResult r = scan(dir.path(), {"cu-libtorch-cuda-device"});
  const auto found = sites(r, "cu-libtorch-cuda-device");
  EXPECT_NE(std::find(found.begin(), found.end(), "app/main.cpp:4:portable"), found.end());
  EXPECT_NE(std::find(found.begin(), found.end(), "app/main.cpp:6:portable"), found.end());
  EXPECT_EQ(std::count_if(found.begin(), found.end(), [](const std::string& s) { return s.find(":7:") != std::string::npos; }), 0);
  EXPECT_EQ(r.summary.verdict, Verdict::partial);
}

TEST(CppFrontend, CompileCommandsModeUsesTheRealFlags) {
  TempDir dir;
  dir.write("include/fake_cuda_runtime.h", "int cudaMalloc(void** p, unsigned long n);\n");
  dir.write("src/alloc.cpp", "#include \"fake_cuda_runtime.h\"\nvoid f() { void* p; cudaMalloc(&p, 16); }\n");
  const std::string root = dir.path().string();
  dir.write("compile_commands.json",
            "[{\"directory\": \"" + root + "\", \"file\": \"" + root + "/src/alloc.cpp\", "
            "\"command\": \"c++ -std=c++17 -I" + root + "/include -c " + root + "/src/alloc.cpp -o alloc.o\"}]");
  const ScanResult r = scan(dir.path(), {"cu-cuda-runtime-api"});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].location.line, 2);
  EXPECT_EQ(r.findings[0].mode, "compile-commands");
  EXPECT_EQ(error_of(r, "src/alloc.cpp"), nullptr) << "the header resolves with the real flags";
}

// Streams are category `stream`: the stream rule supersedes the generic ATen and runtime rules on
// the sites it covers, and only when it is enabled.
TEST(CppFrontend, StreamsAndEventsAreCategoryStream) {
  TempDir dir;
  dir.write("s.cu",
            "#include <ATen/cuda/CUDAContext.h>\n"                             // 1
            "void f(at::Tensor& x) {\n"                                        // 2
            "  cudaStream_t stream = at::cuda::getCurrentCUDAStream();\n"      // 3
            "  cudaStreamSynchronize(stream);\n"                              // 4
            "  cudaMalloc(nullptr, 16);\n"                                     // 5
            "  const at::cuda::OptionalCUDAGuard guard(x.device());\n"        // 6
            "}\n");
  const ScanResult r = scan(dir.path());
  std::vector<std::string> got;
  for (const auto& f : r.findings)
    if (f.rule.rfind("cu-", 0) == 0 && f.rule != "cu-cuda-kernel")
      got.push_back(std::to_string(f.location.line) + ":" + f.rule + ":" + f.category);
  EXPECT_EQ(got, (std::vector<std::string>{"1:cu-aten-cuda-api:cuda-api", "3:cu-cuda-stream:stream",
                                           "4:cu-cuda-stream:stream", "5:cu-cuda-runtime-api:cuda-api",
                                           "6:cu-aten-cuda-api:cuda-api"}));
  // Without the stream rule the same lines stay with the generic rules.
  const ScanResult alone = scan(dir.path(), {"cu-aten-cuda-api", "cu-cuda-runtime-api"});
  EXPECT_EQ(sites(alone, "cu-aten-cuda-api"),
            (std::vector<std::string>{"s.cu:1:blocker", "s.cu:3:blocker", "s.cu:6:blocker"}));
  EXPECT_EQ(sites(alone, "cu-cuda-runtime-api"), (std::vector<std::string>{"s.cu:4:blocker", "s.cu:5:blocker"}));
}

// `c10::cuda::CUDAGuard` in a LibTorch application has a one-line fix (`c10::DeviceGuard`); in an
// extension, or next to device code, it stays a blocker.
TEST(CppFrontend, CudaGuardInALibTorchApplicationIsMechanical) {
  const std::string guard_code =
      "#include <c10/cuda/CUDAGuard.h>\n"                   // 2
      "void run(const torch::Tensor& x) {\n"
      "  c10::cuda::CUDAGuard guard(x.device());\n"         // 4
      "  at::cuda::OptionalCUDAGuard maybe(x.device());\n"  // 5
      "}\n";
  const auto impacts = [](const ScanResult& r, const std::string& path) {
    std::vector<std::string> out;
    for (const auto& f : r.findings)
      if (f.rule == "cu-aten-cuda-api" && f.path == path)
        out.push_back(std::to_string(f.location.line) + ":" + std::string(to_string(f.impact)) +
                      (f.mechanical ? ":mechanical" : ""));
    return out;
  };
  TempDir app;
  app.write("src/main.cpp", "#include <torch/torch.h>\n" + guard_code + "int main() { run(torch::ones({2})); }\n");
  app.write("src/runner.cpp", "#include <torch/script.h>\n" + guard_code);
  const ScanResult a = scan(app.path(), {"cu-aten-cuda-api"});
  const std::vector<std::string> portable = {"2:portable:mechanical", "4:portable:mechanical", "5:portable:mechanical"};
  EXPECT_EQ(impacts(a, "src/main.cpp"), portable);
  EXPECT_EQ(impacts(a, "src/runner.cpp"), portable);
  EXPECT_EQ(a.summary.verdict, Verdict::partial);

  // The same lines in an extension's sources, or in a file with device code, are blockers.
  TempDir ext;
  ext.write("csrc/ops.cpp", "#include <torch/extension.h>\n" + guard_code +
                                "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def(\"run\", &run); }\n");
  ext.write("csrc/lib.cpp", "#include <torch/torch.h>\n" + guard_code + "TORCH_LIBRARY(ops, m) {}\n");
  ext.write("csrc/kern.cpp", "#include <torch/torch.h>\n" + guard_code + "__global__ void k() {}\nint main() {}\n");
  ext.write("csrc/helper.cpp", "#include <ATen/ATen.h>\n" + guard_code);  // no sign of an application
  const ScanResult e = scan(ext.path(), {"cu-aten-cuda-api"});
  const std::vector<std::string> blocker = {"2:blocker", "4:blocker", "5:blocker"};
  for (const char* path : {"csrc/ops.cpp", "csrc/lib.cpp", "csrc/kern.cpp", "csrc/helper.cpp"})
    EXPECT_EQ(impacts(e, path), blocker) << path;
}

// Runtime checks guard the code they protect, in both modes, and are never findings themselves;
// each guard has a trap of the same shape.
TEST(CppFrontend, RuntimeChecksGuardWhatTheyProtectInBothModes) {
  TempDir dir;
  const std::string code =
      "#include <torch/torch.h>\n"                                                            // 1
      "void seed() {\n"                                                                       // 2
      "  if (torch::cuda::is_available()) {\n"                                                // 3 guard
      "    torch::cuda::manual_seed_all(0);\n"                                                // 4 guarded
      "  }\n"                                                                                 // 5
      "}\n"                                                                                   // 6
      "torch::Tensor run(torch::Tensor t, torch::Device device) {\n"                          // 7
      "  if (t.is_cuda())\n"                                                                  // 8 guard
      "    return t.to(torch::kCUDA);\n"                                                      // 9 guarded
      "  auto d = t.is_cuda() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);\n"  // 10 guarded
      "  if (device.is_cuda()) { t = t.cuda(); }\n"                                           // 11 guarded
      "  if (!device.is_cuda()) { t = t.cpu(); } else { t = t.to(torch::kCUDA); }\n"          // 12 guarded
      "  return t;\n"                                                                         // 13
      "}\n"                                                                                   // 14
      "torch::Tensor traps(torch::Tensor t, bool force) {\n"                                  // 15
      "  TORCH_CHECK(t.is_cuda(), \"t must be a CUDA tensor\");\n"                            // 16 requirement
      "  if (t.is_cuda() || force) t = t.to(torch::kCUDA);\n"                                 // 17
      "  auto d = t.is_cuda() ? torch::Device(torch::kCPU) : torch::Device(torch::kCUDA);\n"  // 18
      "  if (!torch::cuda::is_available()) { t = t.to(torch::kCUDA); }\n"                     // 19
      "  if (validate(t.is_cuda())) t = t.cuda();\n"                                          // 20
      "  bool use_cuda = torch::cuda::is_available();\n"                                      // 21
      "  return t;\n"                                                                         // 22
      "}\n";
  dir.write("src/app.cpp", code);
  const std::vector<std::string> expected = {
      "src/app.cpp:4:info:guarded",     "src/app.cpp:9:info:guarded",   "src/app.cpp:10:info:guarded",
      "src/app.cpp:11:info:guarded",    "src/app.cpp:12:info:guarded",  "src/app.cpp:16:portable",
      "src/app.cpp:17:portable",        "src/app.cpp:18:portable",      "src/app.cpp:19:portable",
      "src/app.cpp:20:portable",        "src/app.cpp:21:portable"};
  const auto guarded_sites = [](const ScanResult& r, const std::string& mode) {
    std::vector<std::string> out;
    for (const auto& f : r.findings) {
      EXPECT_EQ(f.mode, mode);
      out.push_back(f.path + ":" + std::to_string(f.location.line) + ":" + std::string(to_string(f.impact)) +
                    (f.guarded ? ":guarded" : ""));
    }
    return out;
  };
  const std::vector<std::string> rules = {"cu-libtorch-cuda-device", "cu-requires-cuda-tensor"};
  EXPECT_EQ(guarded_sites(scan(dir.path(), rules), "tolerant"), expected);

  const std::string root = dir.path().string();
  dir.write("compile_commands.json", "[{\"directory\": \"" + root + "\", \"file\": \"" + root +
                                         "/src/app.cpp\", \"command\": \"c++ -std=c++17 -c src/app.cpp\"}]");
  EXPECT_EQ(guarded_sites(scan(dir.path(), rules), "compile-commands"), expected);
}

TEST(CppGuards, EarlyReturnGuardsTheRestOfTheBlockAndThrowDoesNot) {
  TempDir dir;
  dir.write("e.cpp",
            "#include <torch/torch.h>\n"
            "torch::Tensor a(torch::Tensor t) {\n"
            "  if (!t.is_cuda()) return t * 2;\n"                            // 3
            "  return t.to(torch::kCUDA);\n"                                 // 4 guarded
            "}\n"
            "torch::Tensor b(torch::Tensor t) {\n"
            "  if (!t.is_cuda()) { throw std::runtime_error(\"CUDA only\"); }\n"  // 7
            "  return t.to(torch::kCUDA);\n"                                 // 8 not guarded
            "}\n"
            "torch::Tensor c(torch::Tensor t) {\n"
            "  if (t.device().type() == torch::kCUDA) { t = t.cuda(); }\n"   // 11: check and guarded body
            "  if (t.is_cuda() == false) { t = t.cuda(); }\n"                // 12: negated, not guarded
            "  return t;\n"
            "}\n");
  EXPECT_EQ(sites(scan(dir.path(), {"cu-libtorch-cuda-device"}), "cu-libtorch-cuda-device"),
            (std::vector<std::string>{"e.cpp:4:info", "e.cpp:8:portable", "e.cpp:11:info", "e.cpp:12:portable"}));
}

TEST(ExtensionLinkage, UnguardedImportOfCudaOnlySourcesIsABlocker) {
  TempDir dir;
  dir.write("setup.py",
            "from torch.utils.cpp_extension import CUDAExtension\n"
            "ext = CUDAExtension(name='fastops', sources=['csrc/ops.cpp', 'csrc/ops_kernel.cu'])\n");
  dir.write("csrc/ops.cpp", "#include <torch/extension.h>\nPYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}\n");
  dir.write("csrc/ops_kernel.cu", "__global__ void k(float* x) {}\nvoid go(float* x) { k<<<1, 1>>>(x); }\n");
  dir.write("model.py", "import torch\nimport fastops\n\ndef f(x):\n    return fastops.forward(x)\n");
  const ScanResult r = scan(dir.path());
  EXPECT_EQ(r.summary.verdict, Verdict::stay_on_linux);
  EXPECT_EQ(sites(r, "cu-cuda-kernel"), (std::vector<std::string>{"csrc/ops_kernel.cu:1:blocker"}));
  bool named = false;
  for (const auto& reason : r.summary.reasons)
    named = named || reason.text.find("extension `fastops` (csrc/ops.cpp, csrc/ops_kernel.cu) is imported unguarded by model.py:2") != std::string::npos;
  EXPECT_TRUE(named) << "the verdict's reasons name the extension and its importer";
}

TEST(ExtensionLinkage, CpuKernelsOrAFallbackMakeItPortable) {
  // A mixed extension: CUDA kernels plus a CPU registration in its sources.
  TempDir mixed;
  mixed.write("setup.py",
              "from torch.utils.cpp_extension import CUDAExtension\n"
              "CUDAExtension(name='mixops', sources=['ops_cpu.cpp', 'ops_cuda.cu'])\n");
  mixed.write("ops_cpu.cpp", "#include <torch/library.h>\nTORCH_LIBRARY_IMPL(mixops, CPU, m) { m.impl(\"scale\", 0); }\n");
  mixed.write("ops_cuda.cu", "__global__ void k(float* x) {}\nvoid go(float* x) { k<<<1, 1>>>(x); }\n");
  mixed.write("model.py", "import torch\nimport mixops\n");
  const ScanResult m = scan(mixed.path());
  EXPECT_EQ(m.summary.verdict, Verdict::partial);
  EXPECT_EQ(sites(m, "cu-cuda-kernel"), (std::vector<std::string>{"ops_cuda.cu:1:portable"}));

  // A pure-PyTorch fallback at the import site.
  TempDir fallback;
  fallback.write("setup.py",
                 "from torch.utils.cpp_extension import CUDAExtension\n"
                 "CUDAExtension(name='fastops', sources=['k.cu'])\n");
  fallback.write("k.cu", "__global__ void k(float* x) {}\n");
  fallback.write("model.py",
                 "import torch\ntry:\n    import fastops\nexcept ImportError:\n    fastops = None\n\n"
                 "def scale(x):\n    if fastops is not None:\n        return fastops.scale(x)\n    return x * 2\n");
  const ScanResult f = scan(fallback.path());
  EXPECT_EQ(f.summary.verdict, Verdict::partial);
  // The kernels are reached only behind the fallback: they do not count for the repository.
  for (const Finding& k : f.findings)
    if (k.path == "k.cu") EXPECT_FALSE(k.in_core) << k.rule;

  // The same shape with a sentinel that is then called unguarded: the extension is mandatory.
  TempDir sentinel;
  sentinel.write("setup.py",
                 "from torch.utils.cpp_extension import CUDAExtension\n"
                 "CUDAExtension(name='fastops', sources=['k.cu'])\n");
  sentinel.write("k.cu", "__global__ void k(float* x) {}\n");
  sentinel.write("model.py",
                 "import torch\ntry:\n    import fastops\nexcept ImportError:\n    fastops = None\n\n"
                 "def scale(x):\n    return fastops.scale(x)\n");
  EXPECT_EQ(scan(sentinel.path()).summary.verdict, Verdict::stay_on_linux);
}

}  // namespace mpsready::testing

namespace mpsready::testing {

TEST(LocalModules, ImportsOfTheRepositorysOwnPackagesAreNotThirdPartyImports) {
  TempDir dir;
  // The repository is itself a package whose name is in the NVIDIA-only table.
  dir.write("causal_conv1d/__init__.py", "from causal_conv1d.interface import causal_conv1d_fn\n");
  dir.write("causal_conv1d/interface.py", "import torch\nimport causal_conv1d.cuda_ops as ops\n");
  dir.write("bench.py", "import torch\nimport flash_attn\nfrom causal_conv1d import causal_conv1d_fn\n");
  const ScanResult r = scan(dir.path(), {"py-nvidia-only-import"});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].path, "bench.py");
  EXPECT_EQ(r.findings[0].location.line, 2);
}

}  // namespace mpsready::testing
