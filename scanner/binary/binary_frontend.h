#pragma once
// The front end for prebuilt extension binaries (`*.so`, `*.pyd`) committed to the repository:
// Python imports them like any module, and one linked against CUDA libraries cannot load on a Mac.
// It reads only what the dynamic loader reads first (elf_dynamic.h), hands its workers that as
// text (one `needed <library>` line per DT_NEEDED entry), and the rules of language `binary`
// (matcher `binary.needed`) decide which libraries are CUDA's. A matched binary is also recorded
// as a CUDA extension named by its path, so the extension passes tie it to its importers.
#include <memory>
#include <string>
#include <vector>

#include "engine/frontend.h"
#include "rules/rule_set.h"

namespace mpsready {

struct CompiledBinaryRule {
  const Rule* rule;
  std::vector<std::string> library_prefixes;  // a needed library whose name starts with one
};

class BinaryFrontend final : public Frontend {
 public:
  explicit BinaryFrontend(const RuleSet& rules);
  bool wants(std::string_view path) const override;
  std::unique_ptr<FrontendWorker> make_worker() const override;
  bool reads_in_part(std::string_view path) const override { return wants(path); }
  ReadResult read_part(const std::filesystem::path& absolute, uintmax_t max_size) const override;

  const std::vector<CompiledBinaryRule>& rules() const { return rules_; }

 private:
  std::vector<CompiledBinaryRule> rules_;
};

// The text a worker reads for an ELF file's dynamic section (exposed for the fuzz target).
std::string describe_dynamic_section(int fd, std::string& error);

}  // namespace mpsready
