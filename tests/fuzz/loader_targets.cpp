// Fuzz targets for what a user or a repository hands the scanner as settings: the project
// configuration (.mpsready.json) and rule files (rule.json with its query.scm). Bad input must
// end in a clear error (ConfigResult::error, RuleError), never in a crash.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "cli/config.h"
#include "fuzz/fuzz_targets.h"
#include "pipeline/pipeline.h"
#include "rules/rule_set.h"

namespace mpsready::fuzz {

namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A rules directory with the bundled tables (call-table rules name them) and one rule folder,
// rewritten for each input, and a small repository the compiled rule is run on.
struct RuleSandbox {
  fs::path dir;
  RuleSandbox() {
    std::string name = (fs::temp_directory_path() / "mpsready-fuzz-rules-XXXXXX").string();
    if (!mkdtemp(name.data())) throw std::runtime_error("cannot create a temporary directory");
    dir = name;
    fs::create_directories(dir / "rules/tables");
    for (const auto& e : fs::directory_iterator(fs::path(MPSREADY_SOURCE_DIR) / "rules/tables"))
      if (e.path().extension() == ".json") fs::copy_file(e.path(), dir / "rules/tables" / e.path().filename());
    fs::create_directories(dir / "repo");
    write_file(dir / "repo/train.py",
               "import torch\nimport apex\nif torch.cuda.is_available():\n    m = m.cuda()\n"
               "x = torch.zeros(2, device='cuda:0', dtype=torch.float64)\n");
    write_file(dir / "repo/requirements.txt", "torch==2.2.1+cu121\nnvidia-cudnn-cu12\n");
  }
  ~RuleSandbox() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

}  // namespace

void fuzz_config(std::string_view bytes) {
  const ConfigResult result = parse_project_config(std::string(bytes), "fuzz/.mpsready.json");
  // Exactly one of a configuration and an error, and an error always says something.
  if (result.config.has_value() == !result.error.empty()) std::abort();
  if (!result.config) return;
  // Whatever the file says, an exclude never reaches outside the root.
  for (const std::string& pattern : result.config->excludes) {
    if (pattern.empty()) std::abort();
    const std::string body = pattern[0] == '!' ? pattern.substr(1) : pattern;
    if (body.rfind("//", 0) == 0 || body.rfind("~", 0) == 0 || body.find('\\') != std::string::npos) std::abort();
    if (body == ".." || body.rfind("../", 0) == 0 || body.find("/../") != std::string::npos ||
        (body.size() >= 3 && body.compare(body.size() - 3, 3, "/..") == 0))
      std::abort();
  }
}

// The input is a rule.json, optionally followed by a line `;; query.scm` and the query. The rule
// folder is named after the rule's own id and language when they are plain names, so inputs
// derived from the bundled rules get past the folder checks and reach the matcher compilers.
void fuzz_rule_files(std::string_view bytes) {
  static const RuleSandbox sandbox;
  constexpr std::string_view kSplit = "\n;; query.scm\n";
  const size_t split = bytes.find(kSplit);
  const std::string_view rule_json = bytes.substr(0, split);
  const std::string_view query = split == std::string_view::npos ? std::string_view() : bytes.substr(split + kSplit.size());

  std::string language = "python", id = "fuzz-rule";
  try {
    const auto doc = nlohmann::json::parse(rule_json);
    const auto plain = [](const nlohmann::json& v) {
      if (!v.is_string()) return false;
      const std::string s = v.get<std::string>();
      if (s.empty() || s.size() > 64 || s == "tables" || s == "schema") return false;
      for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return false;
      return true;
    };
    if (doc.is_object() && doc.contains("id") && plain(doc["id"])) id = doc["id"].get<std::string>();
    if (doc.is_object() && doc.contains("language") && plain(doc["language"])) language = doc["language"].get<std::string>();
  } catch (const nlohmann::json::exception&) {
  }

  const fs::path rules_dir = sandbox.dir / "rules";
  for (const auto& e : fs::directory_iterator(rules_dir))
    if (e.path().filename() != "tables") fs::remove_all(e.path());
  const fs::path folder = rules_dir / language / id;
  fs::create_directories(folder);
  write_file(folder / "rule.json", rule_json);
  if (split != std::string_view::npos) write_file(folder / "query.scm", query);

  try {
    const RuleSet set = RuleSet::load(rules_dir);
    const Pipeline pipeline(set);
    ScanOptions options;
    options.jobs = 1;
    pipeline.scan(sandbox.dir / "repo", options);
  } catch (const RuleError&) {
    // The expected outcome for a bad rule: a message naming the file and the key.
  }
}

}  // namespace mpsready::fuzz
