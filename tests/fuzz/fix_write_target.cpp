// The fuzz target for `mpsready fix --write` (fix/safe_write.h): the input is the text of
// `train.py` in a root whose other entries are links out of it (the old fixed temporary name
// `train.py.mpsready-fix.tmp`, a file link, a directory link), fixed with the bundled rules and
// written back. A first line `#path: P` also asks for P to be replaced directly, whatever P is
// (`..`, absolute, through a link). Whatever the input, nothing outside the root may change, no
// temporary may be left in it, and `train.py` must hold either its text or exactly the fixed text.
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "fix/fix_engine.h"
#include "fix/safe_write.h"
#include "fuzz/fuzz_targets.h"
#include "pipeline/pipeline.h"
#include "rules/rule_set.h"

namespace mpsready::fuzz {

namespace fs = std::filesystem;

namespace {

constexpr char kVictim[] = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOWNERSKEY owner@host\n";

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const fs::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// outside/authorized_keys (mode 0600) beside root/, which is made afresh for each input.
struct WriteSandbox {
  fs::path dir;
  RuleSet rules = RuleSet::load(fs::path(MPSREADY_SOURCE_DIR) / "rules");
  Pipeline pipeline{rules};
  WriteSandbox() {
    std::string name = (fs::temp_directory_path() / "mpsready-fuzz-write-XXXXXX").string();
    if (!mkdtemp(name.data())) throw std::runtime_error("cannot create a temporary directory");
    dir = name;
    fs::create_directories(dir / "outside");
  }
  ~WriteSandbox() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  fs::path root() const { return dir / "root"; }
  fs::path victim() const { return dir / "outside/authorized_keys"; }
  void reset(std::string_view train) const {
    fs::remove_all(root());
    for (const auto& e : fs::directory_iterator(dir / "outside"))
      if (e.path() != victim()) fs::remove_all(e.path());
    write_bytes(victim(), kVictim);
    ::chmod(victim().c_str(), 0600);
    fs::create_directories(root());
    write_bytes(root() / "train.py", train);
    fs::create_symlink("../outside/authorized_keys", root() / "train.py.mpsready-fix.tmp");
    fs::create_symlink("../outside/authorized_keys", root() / "linked.py");
    fs::create_directory_symlink("../outside", root() / "sub");
  }
  // Aborts when anything outside the root changed or a temporary is left in it.
  void check_untouched() const {
    std::set<std::string> outside, inside;
    for (const auto& e : fs::directory_iterator(dir / "outside")) outside.insert(e.path().filename().string());
    for (const auto& e : fs::directory_iterator(root())) inside.insert(e.path().filename().string());
    struct stat st {};
    if (outside != std::set<std::string>{"authorized_keys"} || slurp(victim()) != kVictim ||
        ::lstat(victim().c_str(), &st) != 0 || (st.st_mode & 07777) != 0600)
      std::abort();
    if (inside != std::set<std::string>{"linked.py", "sub", "train.py", "train.py.mpsready-fix.tmp"}) std::abort();
    if (!fs::is_regular_file(fs::symlink_status(root() / "train.py"))) std::abort();
  }
};

}  // namespace

void fuzz_fix_write(std::string_view bytes) {
  static const WriteSandbox sandbox;
  sandbox.reset(bytes);

  FixOptions options;
  options.scan.jobs = 1;
  const FixOutcome outcome = run_fix(sandbox.pipeline, sandbox.rules, sandbox.root(), options);
  std::string error;
  const bool written = outcome.ok && write_fixes(sandbox.root(), outcome, error);
  sandbox.check_untouched();
  const std::string now = slurp(sandbox.root() / "train.py");
  const bool fixed = written && outcome.files.size() == 1 && outcome.files[0].path == "train.py";
  if (now != (fixed ? outcome.files[0].after : std::string(bytes))) std::abort();

  // The path handling itself, on a path the input chooses.
  constexpr std::string_view kPath = "#path: ";
  if (bytes.substr(0, kPath.size()) == kPath) {
    const std::string_view rest = bytes.substr(kPath.size());
    const std::string path(rest.substr(0, rest.find('\n')));
    const SafeRoot root(sandbox.root().string());
    constexpr char kWritten[] = "written by mpsready\n";
    // The only regular file of the root is train.py: a write that succeeds must have gone there.
    for (const std::string& expected : {std::string(kVictim), now}) {
      if (root.replace(path, expected, kWritten, error) && slurp(sandbox.root() / "train.py") != kWritten) std::abort();
      write_bytes(sandbox.root() / "train.py", now);  // as it was, for the next try and the check
    }
    sandbox.check_untouched();
  }
}

}  // namespace mpsready::fuzz
