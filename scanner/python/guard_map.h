#pragma once
// Regions of a file that run only after a CUDA check or that have an import fallback, so that
// findings inside them are reported as guarded.
#include <cstdint>
#include <string_view>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <tree_sitter/api.h>

namespace mpsready {

class ImportMap;

// What a condition says about CUDA.
enum class CudaCheck { none, positive, negative };

class CudaCheckClassifier {
 public:
  CudaCheckClassifier(std::string_view source, const ImportMap& imports,
                      const std::unordered_set<std::string>& availability_flags)
      : source_(source), imports_(imports), flags_(availability_flags) {}
  // Whether `expr` tests for CUDA (positive), tests for its absence (negative) or neither.
  CudaCheck classify(TSNode expr) const;
  // Whether `expr` is only a distributed-launch test (`local_rank != -1`: positive, the code
  // beneath runs under a launcher; `local_rank == -1`: negative) and nothing else.
  CudaCheck classify_rank_check(TSNode expr) const;
  // Whether `expr` tests that the run chose CUDA: a distributed launch (above), or a device the
  // user picked compared with CUDA (`args.device == "cuda"`, `device.type != "cuda"`,
  // `str(device).startswith("cuda")`). Not availability: `torch.cuda.is_available()` is none.
  CudaCheck classify_choice_check(TSNode expr) const;

 private:
  CudaCheck classify_at(TSNode expr, int depth) const;
  bool mentions_cuda(TSNode expr) const;
  // `os.getenv("FORCE_CUDA", "0") == "1"`, `args.force_cuda`: a switch that forces a CUDA build.
  bool is_force_switch(TSNode expr) const;
  bool is_rocm_check(TSNode expr) const;
  std::string_view source_;
  const ImportMap& imports_;
  const std::unordered_set<std::string>& flags_;
};

// What a condition says about the MPS device, read from its text: `x.device.type == "mps"`,
// `x.is_mps`, `torch.backends.mps.is_available()`, `"mps" in str(device)` are positive; `!=`,
// `not ...is_mps` and `"mps" not in ...` negative.
enum class MpsCheck { none, positive, negative };
MpsCheck classify_mps_condition(std::string_view condition);
// The same, where `mps_flags` are names the file assigns an MPS test to (`is_mps = device.type ==
// "mps"`): `if is_mps:` and `if cpu or is_mps:` test for MPS, `if not is_mps:` for its absence.
MpsCheck classify_mps_condition(std::string_view condition, const std::unordered_set<std::string>& mps_flags);

class GuardMap {
 public:
  void add(uint32_t start, uint32_t end);
  // Merges the regions; call once after the last add().
  void finish();
  bool contains(uint32_t byte) const;

 private:
  std::vector<std::pair<uint32_t, uint32_t>> ranges_;
};

}  // namespace mpsready
