// Fuzz targets for the front ends: Python source, notebooks, C++/CUDA source and every manifest
// reader, each driven exactly as a scan drives it (one worker, the bundled rules), and every
// report format rendered from what they found.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "binary/binary_frontend.h"
#include "core/source_text.h"
#include "cpp/cpp_frontend.h"
#include "cython/cython_frontend.h"
#include "deps/deps_frontend.h"
#include "engine/repo_walker.h"
#include "fuzz/fuzz_targets.h"
#include "python/python_frontend.h"
#include "report/scan_report.h"

namespace mpsready::fuzz {

namespace fs = std::filesystem;

namespace {

const RuleSet& rules() {
  static const RuleSet set = RuleSet::load(fs::path(MPSREADY_SOURCE_DIR) / "rules");
  return set;
}

// An empty directory standing in for the scanned root (a requirements file's `-r` is resolved
// against it). Created once per process; left behind empty.
const fs::path& fake_root() {
  static const fs::path root = [] {
    std::string name = (fs::temp_directory_path() / "mpsready-fuzz-root-XXXXXX").string();
    if (!mkdtemp(name.data())) throw std::runtime_error("cannot create a temporary directory");
    return fs::path(name);
  }();
  return root;
}

// The reports must render whatever the front ends found, and the JSON ones must stay valid JSON
// (a reporter that lets repository bytes break its syntax fails here).
void render_reports(FileOutcome& outcome) {
  ScanResult result;
  result.findings = std::move(outcome.findings);
  result.errors = std::move(outcome.errors);
  result.skipped = std::move(outcome.skipped);
  sort_findings(result.findings);
  result.summary = summarize(result.findings);
  ReportContext ctx{"repo", "0.0.0-fuzz", nullptr};
  std::ostringstream json, sarif, text, markdown, html;
  write_json_report(json, result, ctx);
  write_sarif_report(sarif, result, ctx);
  write_text_report(text, result, ctx);
  write_markdown_report(markdown, result, ctx);
  write_html_report(html, result, ctx);
  if (!nlohmann::json::accept(json.str())) std::abort();
  if (!nlohmann::json::accept(sarif.str())) std::abort();
}

// Runs one front end on `bytes` as the file `name`, as the engine would (binary files never
// reach a front end).
void analyze(const Frontend& frontend, FrontendWorker& worker, std::string_view name, std::string_view bytes) {
  if (looks_binary(bytes) || !frontend.wants(name)) return;
  const WalkedFile file{std::string(name), fake_root() / std::string(name)};
  FileOutcome outcome;
  worker.analyze(file, bytes, outcome);
  render_reports(outcome);
}

struct Python {
  PythonFrontend frontend{rules()};
  std::unique_ptr<FrontendWorker> worker = frontend.make_worker();
};

Python& python() {
  static Python p;
  return p;
}

}  // namespace

void fuzz_python_source(std::string_view bytes) { analyze(python().frontend, *python().worker, "fuzz.py", bytes); }

void fuzz_notebook(std::string_view bytes) { analyze(python().frontend, *python().worker, "fuzz.ipynb", bytes); }

void fuzz_cpp_source(std::string_view bytes) {
  // Tolerant mode (no compilation database), as for a repository without one.
  static const CppFrontend frontend(rules());
  static const std::unique_ptr<FrontendWorker> worker = frontend.make_worker();
  analyze(frontend, *worker, "fuzz.cu", bytes);
}

void fuzz_cython_source(std::string_view bytes) {
  static const CythonFrontend frontend(rules());
  static const std::unique_ptr<FrontendWorker> worker = frontend.make_worker();
  analyze(frontend, *worker, "fuzz.pyx", bytes);
}

void fuzz_extension_binary(std::string_view bytes) {
  // The bytes as a file (libelf reads from a descriptor), then what the worker makes of the text
  // the reader gave.
  static const BinaryFrontend frontend(rules());
  static const std::unique_ptr<FrontendWorker> worker = frontend.make_worker();
  const int fd = memfd_create("fuzz.so", MFD_CLOEXEC);
  if (fd < 0) std::abort();
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) std::abort();
    done += static_cast<size_t>(n);
  }
  std::string error;
  const std::string text = describe_dynamic_section(fd, error);
  ::close(fd);
  if (!error.empty()) return;
  const WalkedFile file{"pkg/_fuzz.cpython-311-x86_64-linux-gnu.so", fake_root() / "_fuzz.so"};
  FileOutcome outcome;
  worker->analyze(file, text, outcome);
  render_reports(outcome);
}

void fuzz_manifest(std::string_view file_name, std::string_view bytes) {
  static const DepsFrontend frontend(rules());
  static const std::unique_ptr<FrontendWorker> worker = frontend.make_worker();
  analyze(frontend, *worker, file_name, bytes);
}

}  // namespace mpsready::fuzz
