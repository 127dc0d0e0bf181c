// `mpsready fix --write` on repositories built to make it write elsewhere (README "Reliability and
// security", "Writes by mpsready fix"). One test per case; each builds its own repository at test
// time and runs the real executable, except where the case is a race, which is staged in process.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <set>

#include "fix/fix_engine.h"
#include "fix/safe_write.h"
#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

// A key line inside a string: the old fixed temporary name made `fix --write` copy the file's
// new text, this line included, to wherever a planted link pointed.
const std::string kTrain =
    "import torch\n"
    "\n"
    "AUTHORIZED = \"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIATTACKERKEY attacker@example\"\n"
    "model = torch.nn.Linear(4, 2).cuda()\n";
const std::string kOwnersKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOWNERSKEY owner@host\n";

mode_t mode_of(const fs::path& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0;
}

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

// repo/ (train.py, and a link train.py.mpsready-fix.tmp -> ../home/.ssh/authorized_keys) beside
// home/.ssh/.
struct PlantedLink {
  TempDir dir;
  fs::path repo() const { return dir.path() / "repo"; }
  fs::path keys() const { return dir.path() / "home/.ssh/authorized_keys"; }
  PlantedLink() {
    dir.write("repo/train.py", kTrain);
    fs::create_directories(dir.path() / "home/.ssh");
    fs::create_symlink(keys(), repo() / "train.py.mpsready-fix.tmp");
  }
  // The fixed train.py, a regular file, beside the untouched link and nothing else.
  void expect_repo_fixed_and_clean() const {
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(repo() / "train.py")));
    const std::string fixed = read_text(repo() / "train.py");
    EXPECT_NE(fixed, kTrain);
    EXPECT_NE(fixed.find("torch.backends.mps.is_available()"), std::string::npos) << fixed;
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(repo() / "train.py.mpsready-fix.tmp")));
    EXPECT_EQ(names_in(repo()), (std::set<std::string>{"train.py", "train.py.mpsready-fix.tmp"}));
  }
};

}  // namespace

TEST(FixWrite, APlantedTemporaryLinkCreatesNoFileOutsideTheRoot) {
  const PlantedLink planted;
  const CliRun run = mpsready("fix --write " + quote(planted.repo().string()));
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_FALSE(fs::exists(fs::symlink_status(planted.keys()))) << read_text(planted.keys());
  EXPECT_TRUE(names_in(planted.dir.path() / "home/.ssh").empty());
  planted.expect_repo_fixed_and_clean();
}

TEST(FixWrite, APlantedTemporaryLinkLeavesAnExistingFileAndItsModeAlone) {
  const PlantedLink planted;
  planted.dir.write("home/.ssh/authorized_keys", kOwnersKey);
  ASSERT_EQ(::chmod(planted.keys().c_str(), 0600), 0);
  const CliRun run = mpsready("fix --write " + quote(planted.repo().string()));
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_EQ(read_text(planted.keys()), kOwnersKey);
  EXPECT_EQ(mode_of(planted.keys()), 0600u);
  planted.expect_repo_fixed_and_clean();
}

TEST(FixWrite, TheFixedFileKeepsItsModeAndIsANewFile) {
  TempDir dir;
  const fs::path train = dir.write("train.py", kTrain);
  ASSERT_EQ(::chmod(train.c_str(), 0751), 0);
  // A hard link elsewhere keeps the old text: the fixed file is renamed into place, not
  // written through the old inode.
  const fs::path other = dir.path() / "hardlink-elsewhere";
  fs::create_hard_link(train, other);
  const CliRun run = mpsready("fix --write " + quote(train.string()));
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_EQ(mode_of(train), 0751u);
  EXPECT_NE(read_text(train), kTrain);
  EXPECT_EQ(read_text(other), kTrain);
}

// The race: the file changes between the scan and the write (another process, or a swap). What
// was fixed is no longer what is there, so nothing is written.
TEST(FixWrite, AFileChangedAfterTheScanIsNotWritten) {
  TempDir dir;
  dir.write("train.py", kTrain);
  dir.write("other.py", kTrain);
  const Pipeline pipeline(bundled_rules());
  FixOptions options;
  options.scan.jobs = 1;
  const FixOutcome outcome = run_fix(pipeline, bundled_rules(), dir.path(), options);
  ASSERT_EQ(outcome.files.size(), 2u);
  const std::string edited = kTrain + "print('edited meanwhile')\n";
  dir.write("train.py", edited);
  std::string error;
  EXPECT_FALSE(write_fixes(dir.path(), outcome, error));
  EXPECT_EQ(error, "train.py: changed since it was scanned; not written");
  // Every file is checked before any is written: other.py is untouched too.
  EXPECT_EQ(read_text(dir.path() / "train.py"), edited);
  EXPECT_EQ(read_text(dir.path() / "other.py"), kTrain);
}

// The race with a link: a directory on the fixed file's path becomes a link out of the root.
TEST(FixWrite, ADirectorySwappedForALinkIsNotWrittenThrough) {
  TempDir dir;
  dir.write("repo/src/train.py", kTrain);
  dir.write("outside/train.py", kTrain);
  const Pipeline pipeline(bundled_rules());
  FixOptions options;
  options.scan.jobs = 1;
  const FixOutcome outcome = run_fix(pipeline, bundled_rules(), dir.path() / "repo", options);
  ASSERT_EQ(outcome.files.size(), 1u);
  fs::remove_all(dir.path() / "repo/src");
  fs::create_directory_symlink(dir.path() / "outside", dir.path() / "repo/src");
  std::string error;
  EXPECT_FALSE(write_fixes(dir.path() / "repo", outcome, error));
  EXPECT_NE(error.find("src/train.py: a directory on its path is a symbolic link"), std::string::npos) << error;
  EXPECT_EQ(read_text(dir.path() / "outside/train.py"), kTrain);
  EXPECT_EQ(names_in(dir.path() / "outside"), (std::set<std::string>{"train.py"}));
}

// Paths that the walk never produces are refused by the writer itself, whoever asks.
TEST(FixWrite, OnlyPlainPathsToRegularFilesAreReplaced) {
  TempDir dir;
  dir.write("outside/victim.py", "outside\n");
  dir.write("repo/a.py", "inside\n");
  ASSERT_EQ(::mkfifo((dir.path() / "repo/pipe.py").c_str(), 0600), 0);
  fs::create_symlink(dir.path() / "outside/victim.py", dir.path() / "repo/link.py");
  const SafeRoot root((dir.path() / "repo").string());
  ASSERT_TRUE(root.ok()) << root.error();
  std::string error;
  for (const std::string path : {"../outside/victim.py", "/etc/passwd", "./a.py", "a.py/", "", "link.py", "pipe.py",
                                 "missing.py"}) {
    SCOPED_TRACE(path);
    EXPECT_FALSE(root.replace(path, "outside\n", "x\n", error));
    EXPECT_FALSE(root.replace(path, "inside\n", "x\n", error));
  }
  EXPECT_EQ(read_text(dir.path() / "outside/victim.py"), "outside\n");
  EXPECT_TRUE(root.replace("a.py", "inside\n", "replaced\n", error)) << error;
  EXPECT_EQ(read_text(dir.path() / "repo/a.py"), "replaced\n");
  EXPECT_EQ(names_in(dir.path() / "repo"), (std::set<std::string>{"a.py", "link.py", "pipe.py"}));
  // A root that is itself a link is not opened unless the caller allows it.
  fs::create_directory_symlink(dir.path() / "repo", dir.path() / "alias");
  EXPECT_FALSE(SafeRoot((dir.path() / "alias").string()).ok());
  EXPECT_TRUE(SafeRoot((dir.path() / "alias").string(), /*follow_root_link=*/true).ok());
}

// `fix` killed half-way leaves nothing behind: it makes no copy of the tree (it used to copy the
// whole repository into $TMPDIR and leave it there when interrupted), and no temporary file.
TEST(FixWrite, AnInterruptedFixLeavesNoScratchCopy) {
  TempDir dir;
  for (int i = 0; i < 400; ++i)
    dir.write("repo/pkg" + std::to_string(i % 20) + "/m" + std::to_string(i) + ".py",
              "import torch\nx = torch.zeros(2).cuda()\n" + std::string(2000, '#') + "\n");
  const fs::path tmp = dir.path() / "tmp";
  fs::create_directories(tmp);
  const char* bin = std::getenv("MPSREADY_BIN");
  for (const char* signal : {"TERM", "INT"}) {
    SCOPED_TRACE(signal);
    // Kill it as soon as anything appears in $TMPDIR, or after 0.3 s.
    const std::string script =
        "TMPDIR=" + quote(tmp.string()) + " " + quote(bin ? bin : "mpsready") + " fix --write -j 1 " +
        quote((dir.path() / "repo").string()) + " >/dev/null 2>&1 & pid=$!\n"
        "for i in $(seq 300); do [ -n \"$(ls -A " + quote(tmp.string()) + ")\" ] && break; "
        "kill -0 $pid 2>/dev/null || break; [ $i -gt 30 ] && break; sleep 0.01; done\n"
        "kill -" + signal + " $pid 2>/dev/null; wait $pid; exit 0\n";
    ASSERT_EQ(run_shell("bash -c " + quote(script)).code, 0);
    EXPECT_TRUE(names_in(tmp).empty()) << *names_in(tmp).begin();
    const CliRun leftovers = run_shell("find " + quote((dir.path() / "repo").string()) + " -name '*mpsready*'");
    EXPECT_EQ(leftovers.out, "");
  }
}

// AddressSanitizer reserves terabytes of shadow address space at start, so an address-space bound
// cannot apply to a sanitized build; there the time bound alone is checked. What counts is how the
// executable under test was built: the test sources themselves are compiled uninstrumented, so
// CMake says it (MPSREADY_PRODUCT_HAS_ASAN) rather than this file's own compiler flags.
#if defined(MPSREADY_PRODUCT_HAS_ASAN)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

// A 10,000-level directory: `fix` took 157 s and 5 GB copying it. Now it is walked like any scan
// (the levels past the path-length limit are reported), within a minute and 2 GB of address space.
TEST(FixWrite, AVeryDeepDirectoryCostsLittle) {
  TempDir dir;
  // TempDir's own clean-up walks the tree with a recursive iterator; rm takes any depth.
  struct RemoveDeep {
    fs::path path;
    ~RemoveDeep() { run_shell("rm -rf " + quote(path.string())); }
  } remove_deep{dir.path() / "repo/d"};
  dir.write("repo/train.py", kTrain);
  // Built through descriptors, level by level: a path this long cannot be named whole.
  int fd = ::open((dir.path() / "repo").c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  for (int level = 0; level < 10000 && fd >= 0; ++level) {
    ASSERT_EQ(::mkdirat(fd, "d", 0755), 0);
    const int next = ::openat(fd, "d", O_RDONLY | O_DIRECTORY);
    if (level % 1000 == 999) {
      const int file = ::openat(next, "deep.py", O_WRONLY | O_CREAT | O_EXCL, 0644);
      EXPECT_EQ(::write(file, "x = 1\n", 6), 6);
      ::close(file);
    }
    ::close(fd);
    fd = next;
  }
  ASSERT_GE(fd, 0);
  ::close(fd);
  const auto start = std::chrono::steady_clock::now();
  const fs::path log = dir.path() / "fix.log";
  const CliRun run = mpsready_redirected("fix --write -j 1 " + quote((dir.path() / "repo").string()),
                                         " >" + quote(log.string()) + " 2>&1",
                                         std::string(kAddressSanitizer ? "" : "ulimit -v 2000000; ") + "timeout 60 ");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(run.code, 0) << read_text(log).substr(0, 2000);
  EXPECT_NE(read_text(dir.path() / "repo/train.py"), kTrain);
  EXPECT_LT(seconds, 60.0);
  std::cout << "fix --write on a 10,000-level directory: " << seconds << " s\n";
}

}  // namespace mpsready::testing
