#include "docs/docs_frontend.h"

#include <cctype>
#include <map>

#include <re2/re2.h>

#include "core/source_text.h"
#include "docs/readme_commands.h"
#include "engine/repo_walker.h"

namespace mpsready {
namespace {

constexpr size_t kPerKind = 3;
constexpr size_t kTextBytes = 120;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_workflow(std::string_view path) {
  return path.rfind(".github/workflows/", 0) == 0 &&
         (path.size() > 4 && (path.substr(path.size() - 4) == ".yml" || path.substr(path.size() - 5) == ".yaml"));
}

class DocsWorker final : public FrontendWorker {
 public:
  void analyze(const WalkedFile& file, std::string_view bytes, FileOutcome& out) override {
    out.scanned = true;
    for (auto& e : scan_docs_evidence(file.path, bytes)) out.facts.evidence.push_back(std::move(e));
    for (auto& e : readme_commands(file.path, bytes)) out.facts.entry_points.push_back(std::move(e));
  }
};

}  // namespace

bool DocsFrontend::wants(std::string_view path) const {
  if (is_workflow(path)) return true;
  const size_t slash = path.rfind('/');
  const std::string name = lower(path.substr(slash == std::string_view::npos ? 0 : slash + 1));
  const bool prose = name.size() > 3 && (name.substr(name.size() - 3) == ".md" || name.substr(name.size() - 4) == ".rst" ||
                                         name.substr(name.size() - 4) == ".txt");
  // The README and install guide at the root, and the documentation folder's pages.
  if (slash == std::string_view::npos)
    return (name.rfind("readme", 0) == 0 || name.rfind("install", 0) == 0) && (prose || name == "readme");
  const std::string top = lower(path.substr(0, path.find('/')));
  return (top == "docs" || top == "doc") && prose && name.substr(name.size() - 4) != ".txt";
}

std::unique_ptr<FrontendWorker> DocsFrontend::make_worker() const { return std::make_unique<DocsWorker>(); }

std::vector<EvidenceFact> scan_docs_evidence(const std::string& path, std::string_view text) {
  // Said in prose: runs on MPS / Apple Silicon; requires CUDA / an NVIDIA GPU.
  static const RE2 mps(R"((?i)(\bmps\b|apple silicon|metal performance shaders|\bm[1-4] (?:mac|chip|pro|max)))");
  static const RE2 requires_cuda(
      R"((?i)(requires?|needs?|must have|only (?:works|runs|supports?)|supported only)\b.{0,60}\b(cuda|nvidia gpu|nvidia graphics))");
  // A requirements list says it too, without a verb: `* CUDA: 12.1+`, `- CUDA >= 11.8`, `CUDA
  // 11.8 or newer`; and an operating-system entry that names Linux and no Mac (`**OS:** Linux
  // (official), WSL2`). A line that also names macOS or MPS says the opposite and is no such entry.
  static const RE2 cuda_version_entry(
      R"((?i)^[\s*\-|]*(?:\*\*)?(?:cuda|cuda toolkit)(?:\*\*)?\s*(?::\s*(?:\*\*)?\s*|>=\s*|\s)v?(?:1[0-3]|[7-9])\.[0-9]+\s*(?:\+|or (?:newer|later|above|higher)|\(|,|$))");
  static const RE2 linux_only_entry(
      R"((?i)^[\s*\-|]*(?:\*\*)?(?:os|operating systems?|platforms?)(?:\*\*)?\s*:\s*(?:\*\*)?\s*linux\b)");
  static const RE2 names_a_mac(R"((?i)mac|darwin|osx|apple|\bmps\b)");
  static const RE2 macos_runner(R"((?i)runs-on:.*\bmacos|\bmacos-(?:latest|1[0-9]))");
  std::vector<EvidenceFact> out;
  std::map<std::string, size_t> per_kind;
  const bool workflow = is_workflow(path);
  int number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    ++number;
    start = end + 1;
    std::string kind;
    if (workflow) {
      if (RE2::PartialMatch(line, macos_runner)) kind = "ci-macos";
    } else if (RE2::PartialMatch(line, requires_cuda) || RE2::PartialMatch(line, cuda_version_entry)) {
      kind = "docs-requires-cuda";
    } else if (RE2::PartialMatch(line, linux_only_entry) && !RE2::PartialMatch(line, names_a_mac)) {
      kind = "docs-linux-only";
    } else if (RE2::PartialMatch(line, mps)) {
      kind = "docs-mps";
    }
    if (kind.empty() || per_kind[kind] >= kPerKind) continue;
    ++per_kind[kind];
    const size_t first = line.find_first_not_of(" \t#*->");
    out.push_back({path, number, 0, kind, shorten_utf8(first == std::string_view::npos ? line : line.substr(first), kTextBytes)});
  }
  return out;
}

}  // namespace mpsready
