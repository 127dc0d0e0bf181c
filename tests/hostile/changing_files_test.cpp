// Files that change between the walk and the read. The walk lists the files first; a front end
// then runs on them one by one (one worker, walk order), so a test front end that rewrites the
// tree when it sees the first file makes every later read meet a changed file, deterministically.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <map>

#include "engine/repo_walker.h"
#include "engine/scanner.h"
#include "python/python_frontend.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

// Wants every .py file; on the first one ("a_first.py") it changes the others.
class SaboteurFrontend final : public Frontend {
 public:
  SaboteurFrontend(fs::path root, fs::path outside) : root_(std::move(root)), outside_(std::move(outside)) {}
  bool wants(std::string_view path) const override { return path.size() > 3 && path.substr(path.size() - 3) == ".py"; }
  std::unique_ptr<FrontendWorker> make_worker() const override { return std::make_unique<Worker>(*this); }

 private:
  class Worker final : public FrontendWorker {
   public:
    explicit Worker(const SaboteurFrontend& f) : f_(f) {}
    void analyze(const WalkedFile& file, std::string_view, FileOutcome&) override {
      if (file.path != "a_first.py") return;
      const fs::path& r = f_.root_;
      fs::remove(r / "gone.py");
      fs::remove(r / "now_link.py");
      fs::create_symlink(f_.outside_ / "secret.py", r / "now_link.py");
      std::ofstream(r / "grown.py", std::ios::app) << std::string(4096, '#') << "\n";
      fs::remove(r / "now_fifo.py");
      ::mkfifo((r / "now_fifo.py").c_str(), 0600);
      fs::remove(r / "now_dir.py");
      fs::create_directory(r / "now_dir.py");
      std::ofstream(r / "shrunk.py", std::ios::trunc) << "import torch\n";
    }

   private:
    const SaboteurFrontend& f_;
  };
  fs::path root_, outside_;
};

}  // namespace

TEST(ChangingFiles, FilesThatChangeDuringTheScanAreReportedAndNeverFollowed) {
  TempDir dir;
  dir.write("outside/secret.py", "import torch\nSECRET_MARKER = s.cuda()\n");
  const fs::path root = dir.path() / "repo";
  for (const char* name : {"a_first.py", "gone.py", "now_link.py", "now_fifo.py", "now_dir.py", "shrunk.py"})
    dir.write("repo/" + std::string(name), "import torch\nx = x.cuda()\n");
  dir.write("repo/grown.py", "import torch\nx = x.cuda()\n" + std::string(100, '#') + "\n");

  const RuleSet& rules = bundled_rules();
  const SaboteurFrontend saboteur(root, dir.path() / "outside");
  const PythonFrontend python(rules);
  ScanOptions options;
  options.jobs = 1;
  options.walk.max_file_size = 1000;
  const ScanResult result = run_scan(root, {&saboteur, &python}, {}, options);

  std::map<std::string, std::string> errors;
  for (const auto& e : result.errors) errors[e.path] += e.reason;
  std::string all;
  for (const auto& [p, r] : errors) all += p + ": " + r + "\n";
  EXPECT_NE(errors["gone.py"].find("cannot be read: No such file or directory"), std::string::npos) << all;
  EXPECT_NE(errors["now_link.py"].find("became a symbolic link during the scan; not followed"), std::string::npos) << all;
  EXPECT_NE(errors["grown.py"].find("grew beyond the size limit during the scan"), std::string::npos) << all;
  EXPECT_NE(errors["now_fifo.py"].find("not a regular file"), std::string::npos) << all;
  EXPECT_NE(errors["now_dir.py"].find("not a regular file"), std::string::npos) << all;
  EXPECT_EQ(errors.size(), 5u) << all;

  // The file read as it is now: the shrunk one has no finding left; the first file keeps its own.
  std::map<std::string, int> findings;
  for (const auto& f : result.findings) {
    ++findings[f.path];
    EXPECT_EQ(f.snippet.find("SECRET_MARKER"), std::string::npos);
  }
  EXPECT_EQ(findings, (std::map<std::string, int>{{"a_first.py", 1}}));
}

}  // namespace mpsready::testing
