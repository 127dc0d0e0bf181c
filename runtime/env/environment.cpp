#include "env/environment.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include <ATen/Context.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/cuda.h>
#include <torch/script.h>
#include <torch/version.h>

#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif

namespace mpsready {

namespace {

#if defined(__APPLE__)
std::string sysctl_string(const char* name) {
  size_t size = 0;
  if (sysctlbyname(name, nullptr, &size, nullptr, 0) != 0 || size == 0) return "";
  std::string value(size, '\0');
  if (sysctlbyname(name, value.data(), &size, nullptr, 0) != 0) return "";
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}
#endif

std::string proc_field(const char* file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) == 0) {
      auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      auto start = line.find_first_not_of(" \t", colon + 1);
      return start == std::string::npos ? "" : line.substr(start);
    }
  }
  return "";
}

// MPS is built when the dispatcher has MPS kernels: true for macOS LibTorch builds that include
// the MPS backend, false everywhere else, whatever the version.
bool has_mps_kernels() {
  auto op = c10::Dispatcher::singleton().findSchema({"aten::add", "Tensor"});
  return op && op->hasKernelForDispatchKey(c10::DispatchKey::MPS);
}

}  // namespace

std::optional<std::string> os_release_pretty_name(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PRETTY_NAME=", 0) != 0) continue;
    std::string value = line.substr(12);
    // Shell-style quoting (os-release(5)): strip one pair of quotes and backslash escapes.
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    std::string out;
    for (size_t i = 0; i < value.size(); ++i) {
      if (value[i] == '\\' && i + 1 < value.size()) ++i;
      out += value[i];
    }
    return out;
  }
  return std::nullopt;
}

Environment probe_environment() {
  Environment env;
  struct utsname u {};
  if (uname(&u) == 0) {
    env.os = u.sysname;
    env.os_version = u.release;
    env.arch = u.machine;
  }
#if defined(__APPLE__)
  if (auto v = sysctl_string("kern.osproductversion"); !v.empty()) env.os_version = v;
  env.cpu_model = sysctl_string("machdep.cpu.brand_string");
  int translated = 0;
  size_t size = sizeof translated;
  // ENOENT means a Mac without Rosetta (an Intel Mac): not translated.
  env.rosetta = sysctlbyname("sysctl.proc_translated", &translated, &size, nullptr, 0) == 0 && translated == 1;
  uint64_t mem = 0;
  size = sizeof mem;
  if (sysctlbyname("hw.memsize", &mem, &size, nullptr, 0) == 0) env.memory_bytes = mem;
#else
  // The distribution says more about the libraries a run used than the kernel release does.
#if defined(__linux__)
  env.distribution = os_release_pretty_name("/etc/os-release");
  if (!env.distribution) env.distribution = os_release_pretty_name("/usr/lib/os-release");
#endif
  env.cpu_model = proc_field("/proc/cpuinfo", "model name");
  if (env.cpu_model.empty()) env.cpu_model = proc_field("/proc/cpuinfo", "Model");
  const std::string mem = proc_field("/proc/meminfo", "MemTotal");
  if (!mem.empty()) env.memory_bytes = std::stoull(mem) * 1024;  // "32859736 kB"
#endif
  env.cores = std::thread::hardware_concurrency();
  env.libtorch_version = TORCH_VERSION;
  env.libtorch_build = probe_torch_build();
  env.mps_built = has_mps_kernels();
  env.mps_available = env.mps_built && at::hasMPS();
  env.cuda_available = torch::cuda::is_available();
  env.cuda_device_count = env.cuda_available ? static_cast<int>(torch::cuda::device_count()) : 0;
  return env;
}

std::string mps_unavailable_reason(const Environment& env) {
  if (env.mps_available) return "";
  if (env.os != "Darwin")
    return "this is not a Mac (" + env.os + "): MPS exists only on macOS with Apple Silicon";
  if (env.rosetta.value_or(false))
    return "this process is x86_64 running under Rosetta: an x86 process cannot use MPS; build mpsready and "
           "LibTorch for arm64";
  if (env.arch == "x86_64") return "this is an Intel Mac: MPS needs Apple Silicon";
  if (!env.mps_built) return "the linked LibTorch " + env.libtorch_version + " was built without MPS";
  return "LibTorch has MPS, but no MPS device is usable (macOS too old for this LibTorch, or no Metal device)";
}

}  // namespace mpsready
