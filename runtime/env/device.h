#pragma once
// Choosing the device, and what only the device knows: how to wait for it, and how much memory
// it holds. Every timing waits for the device, since MPS and CUDA run asynchronously.
#include <cstdint>
#include <string>

#include <torch/script.h>
#include <torch/utils.h>

#include "env/environment.h"

namespace mpsready {

struct DeviceChoice {
  bool ok = false;
  std::string error;       // when !ok: the requested device is not usable here, and why
  std::string requested;   // auto, mps, cuda, cpu
  std::string used;        // mps, cuda, cpu
  torch::Device device = torch::kCPU;
};

// auto prefers mps, then cuda, then cpu.
DeviceChoice choose_device(const std::string& requested, const Environment& env);
std::optional<torch::Device> parse_reference_device(const std::string& name, const Environment& env, std::string& error);

void synchronize(const torch::Device& device);

struct MemorySample {
  uint64_t current = 0;  // bytes in use now (MPS/CUDA: allocator; CPU: resident set)
  // sample_memory: CUDA max allocated since the last reset; MPS driver-allocated; CPU the
  // process's lifetime peak RSS. A measurement's peak comes from PeakMemoryMeter instead
  // (env/peak_memory.h), which never reports less than `current`.
  uint64_t peak = 0;
  std::string kind;         // what the numbers measure, for the record
  std::string peak_method;  // how `peak` was bounded to the measurement (PeakMemoryMeter)
};

void reset_peak_memory(const torch::Device& device);
MemorySample sample_memory(const torch::Device& device);

// The device a matmul's result actually lives on, as LibTorch reports it ("cuda:0"), or the error.
std::string matmul_check(const torch::Device& device);

}  // namespace mpsready
