// The root given to `scan` and `fix` (README "Reliability and security"): a repository can commit
// a link out of itself, and a bot that scans or fixes a directory of it by name would then follow
// the link. A root that is a link, or whose real path leaves the git work tree around it, is
// refused (exit 2) unless --allow-outside-worktree; a root reached through a link that stays
// inside the work tree is scanned.
#include <gtest/gtest.h>

#include "hostile/hostile_repo.h"
#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

const std::string kSecret = "import torch\n# " + kOutsideMarker + "\nx = torch.zeros(1).cuda()\n";

// work/ (a git work tree with src/model.py and committed links data -> ../home, alias -> src)
// beside home/ (outside it, holding the marker in secret.py and sub/secret.py).
struct LinkedRepo {
  TempDir dir;
  fs::path work() const { return dir.path() / "work"; }
  fs::path home() const { return dir.path() / "home"; }
  LinkedRepo() {
    dir.write("work/src/model.py", "import torch\nm = torch.nn.Linear(2, 2).cuda()\n");
    dir.write("home/secret.py", kSecret);
    dir.write("home/sub/secret.py", kSecret);
    fs::create_directory_symlink("../home", work() / "data");
    fs::create_directory_symlink("src", work() / "alias");
    EXPECT_EQ(run_shell("git init -q " + quote(work().string())).code, 0) << "git is needed (scripts/bootstrap installs it)";
  }
};

void expect_refused(const CliRun& run, const std::string& words) {
  EXPECT_EQ(run.code, 2) << run.out;
  EXPECT_EQ(run.out.rfind("mpsready: ", 0), 0u) << run.out;
  EXPECT_NE(run.out.find(words), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("--allow-outside-worktree"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find(kOutsideMarker), std::string::npos) << run.out;
}

}  // namespace

TEST(ScanRoot, ALinkOutOfTheWorkTreeIsNotScanned) {
  const LinkedRepo repo;
  const std::string data = quote((repo.work() / "data").string());
  expect_refused(mpsready("scan " + data + " --format json"), "is a symbolic link (to " + repo.home().string() + ")");
  expect_refused(mpsready("scan " + quote((repo.work() / "data").string() + "/") + " --format json"),
                 "is a symbolic link");
  // Below the link: the root is a real directory, but its real path leaves the work tree.
  expect_refused(mpsready("scan " + quote((repo.work() / "data/sub").string()) + " --format json"),
                 "leads to " + (repo.home() / "sub").string() + ", outside the git work tree " + repo.work().string());
  // The same from inside the work tree, with a relative path.
  expect_refused(mpsready("scan data/sub --format json", true, "cd " + quote(repo.work().string()) + " && "),
                 "outside the git work tree");
}

TEST(ScanRoot, FixNeitherReadsNorWritesThroughALinkOutOfTheWorkTree) {
  const LinkedRepo repo;
  expect_refused(mpsready("fix --write " + quote((repo.work() / "data").string())), "is a symbolic link");
  expect_refused(mpsready("fix " + quote((repo.work() / "data/sub").string())), "outside the git work tree");
  expect_refused(mpsready("fix --write " + quote((repo.work() / "data/secret.py").string())),
                 "outside the git work tree");
  EXPECT_EQ(read_text(repo.home() / "secret.py"), kSecret);
  EXPECT_EQ(read_text(repo.home() / "sub/secret.py"), kSecret);
}

TEST(ScanRoot, ALinkedRootOutsideAnyWorkTreeIsRefusedToo) {
  TempDir dir;
  dir.write("real/model.py", kSecret);
  fs::create_directory_symlink(dir.path() / "real", dir.path() / "link");
  fs::create_symlink(dir.path() / "real/model.py", dir.path() / "file-link.py");
  expect_refused(mpsready("scan " + quote((dir.path() / "link").string())), "is a symbolic link");
  expect_refused(mpsready("scan " + quote((dir.path() / "file-link.py").string())), "is a symbolic link");
  expect_refused(mpsready("fix --write " + quote((dir.path() / "file-link.py").string())), "is a symbolic link");
  EXPECT_EQ(read_text(dir.path() / "real/model.py"), kSecret);
}

TEST(ScanRoot, TheOptionScansAndFixesWhereTheLinkLeads) {
  const LinkedRepo repo;
  const CliRun scan = mpsready("scan --allow-outside-worktree " + quote((repo.work() / "data").string()) + " --format json", false);
  EXPECT_EQ(scan.code, 0) << scan.out;
  EXPECT_NE(scan.out.find("\"path\": \"secret.py\""), std::string::npos) << scan.out;
  const CliRun fix = mpsready("fix --write --allow-outside-worktree " + quote((repo.work() / "data").string()));
  EXPECT_EQ(fix.code, 0) << fix.out;
  EXPECT_NE(read_text(repo.home() / "secret.py"), kSecret);
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(repo.work() / "data")));
}

TEST(ScanRoot, ARootInsideTheWorkTreeIsScanned) {
  const LinkedRepo repo;
  for (const std::string& root : {repo.work().string(), (repo.work() / "src").string(), (repo.work() / "alias/.").string()}) {
    SCOPED_TRACE(root);
    const CliRun run = mpsready("scan " + quote(root) + " --format json", false);
    EXPECT_EQ(run.code, 0) << run.out;
    EXPECT_NE(run.out.find("model.py"), std::string::npos) << run.out;
    EXPECT_EQ(run.out.find(kOutsideMarker), std::string::npos);
  }
  EXPECT_EQ(mpsready("scan . --format json", false, "cd " + quote((repo.work() / "src").string()) + " && ").code, 0);
}

}  // namespace mpsready::testing
