// The `cpp-isolated` fuzz target: C++/CUDA text through the tolerant Clang path in the
// supervised child process, exactly as `mpsready scan` runs it (cli/scan_supervisor.h). Whatever
// the input does to Clang, the parent must end up with a complete report: the file's findings,
// or the file in `errors` when the child crashed or hung. (The child's coverage does not reach
// libFuzzer, which mutates the seeds blindly here; the in-process `cpp` target covers Clang.)
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "assess/assess.h"
#include "cli/scan_supervisor.h"
#include "cpp/cpp_frontend.h"
#include "engine/scanner.h"
#include "fuzz/fuzz_targets.h"
#include "report/scan_report.h"

namespace mpsready::fuzz {

namespace fs = std::filesystem;

namespace {

// A root with one file, kernel.cu, rewritten for each input; and the report's path beside it.
struct Workspace {
  fs::path dir;
  fs::path root;
  fs::path report;
  Workspace() {
    std::string name = (fs::temp_directory_path() / "mpsready-fuzz-isolated-XXXXXX").string();
    if (!mkdtemp(name.data())) throw std::runtime_error("cannot create a temporary directory");
    dir = name;
    root = dir / "root";
    report = dir / "report.json";
    fs::create_directories(root);
  }
};

const Workspace& workspace() {
  static const Workspace w;
  return w;
}

const RuleSet& cpp_rules() {
  static const RuleSet set = RuleSet::load(fs::path(MPSREADY_SOURCE_DIR) / "rules");
  return set;
}

}  // namespace

void fuzz_cpp_isolated(std::string_view bytes) {
  const Workspace& w = workspace();
  std::ofstream(w.root / "kernel.cu", std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(bytes.size()));
  fs::remove(w.report);
  static const CppFrontend frontend(cpp_rules());
  const auto attempt = [&] {
    ScanOptions options;
    options.jobs = 1;
    ScanResult result = run_scan(w.root, {&frontend}, {}, options);
    // The assessment writes the summary the report reads, as in every scan (pipeline.cpp).
    assess(result, cpp_rules(), AssessOptions{});
    std::ofstream out(w.report, std::ios::binary);
    ReportContext ctx{"repo", "0.0.0-fuzz", nullptr};
    write_json_report(out, result, ctx);
    return out ? 0 : 2;
  };
  // A short limit: a parse that takes this long is itself worth a look, and libFuzzer's own
  // -timeout (10 s in scripts/fuzz) must not fire first.
  if (run_supervised(attempt, 5, ChildExit::without_exit_handlers) != 0) std::abort();
  std::ifstream in(w.report, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  // No complete report: the supervisor lost it. (A crash of the child on this input is no failure here: the
  // file is then in `errors`, and the in-process `cpp` target is the one that reports it.)
  if (doc.is_discarded() || !doc.contains("findings") || !doc.contains("errors")) std::abort();
}

}  // namespace mpsready::fuzz
