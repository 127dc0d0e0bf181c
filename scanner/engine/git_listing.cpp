#include "engine/git_listing.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

extern char** environ;

namespace mpsready {
namespace {

// The environment git runs with: the caller's, less what could point git at another repository
// or add configuration, plus what keeps it from writing or running anything.
std::vector<std::string> git_environment() {
  static const char* const dropped[] = {
      "GIT_DIR=", "GIT_WORK_TREE=", "GIT_INDEX_FILE=", "GIT_COMMON_DIR=", "GIT_OBJECT_DIRECTORY=",
      "GIT_ALTERNATE_OBJECT_DIRECTORIES=", "GIT_CONFIG=", "GIT_CONFIG_PARAMETERS=", "GIT_CONFIG_COUNT=",
      "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_", "GIT_CONFIG_SYSTEM=", "GIT_CONFIG_NOSYSTEM=", "GIT_NAMESPACE=",
      "GIT_OPTIONAL_LOCKS=", "GIT_TRACE"};
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string_view entry(*e);
    if (std::none_of(std::begin(dropped), std::end(dropped),
                     [&](const char* d) { return entry.substr(0, std::strlen(d)) == d; }))
      env.emplace_back(entry);
  }
  env.emplace_back("GIT_CONFIG_NOSYSTEM=1");
  env.emplace_back("GIT_OPTIONAL_LOCKS=0");
  env.emplace_back("GIT_TERMINAL_PROMPT=0");
  return env;
}

// Runs git in `root` with `args`; its standard output, or nullopt when it could not run or failed.
std::optional<std::string> run_git(const std::filesystem::path& root, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"git", "-C", root.string(), "-c", "core.fsmonitor=false",
                                   "-c", "core.untrackedCache=false", "-c", "safe.directory=*"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::vector<std::string> env = git_environment();
  std::vector<char*> cenv;
  for (auto& e : env) cenv.push_back(e.data());
  cenv.push_back(nullptr);

  int out_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "git", &actions, nullptr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_pipe[1]);
  std::string out;
  if (spawned == 0) {
    char buf[1 << 16];
    while (true) {
      const ssize_t n = ::read(out_pipe[0], buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      out.append(buf, static_cast<size_t>(n));
    }
  }
  ::close(out_pipe[0]);
  if (spawned != 0) return std::nullopt;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

// NUL-separated records.
std::vector<std::string_view> records(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\0', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

GitListing list_git_files(const std::filesystem::path& root, bool exclude_standard) {
  GitListing listing;
  // `--stage` gives each entry's mode: 160000 is a submodule (a gitlink), 120000 a link.
  const std::optional<std::string> staged = run_git(root, {"ls-files", "-z", "--stage"});
  if (!staged) return listing;
  for (std::string_view record : records(*staged)) {
    const size_t tab = record.find('\t');
    if (tab == std::string_view::npos || tab < 6) continue;
    GitEntry entry;
    entry.path = std::string(record.substr(tab + 1));
    const std::string_view mode = record.substr(0, 6);
    entry.kind = mode == "160000"   ? GitEntryKind::submodule
                 : mode == "120000" ? GitEntryKind::symlink
                                    : GitEntryKind::file;
    // A conflicted path has one entry per stage, one after another.
    if (!listing.tracked.empty() && listing.tracked.back().path == entry.path) continue;
    listing.tracked.push_back(std::move(entry));
  }
  // Inside a work tree that does not track the root (an untracked or ignored directory of an
  // enclosing repository), git has nothing to say about it: walk it instead.
  struct stat st {};
  if (listing.tracked.empty() && ::lstat((root / ".git").c_str(), &st) != 0) return listing;
  std::vector<std::string> args = {"ls-files", "-z", "--others"};
  if (exclude_standard) args.push_back("--exclude-standard");
  const std::optional<std::string> others = run_git(root, args);
  if (!others) return listing;
  for (std::string_view record : records(*others)) listing.untracked.emplace_back(record);
  std::sort(listing.tracked.begin(), listing.tracked.end(),
            [](const GitEntry& a, const GitEntry& b) { return a.path < b.path; });
  std::sort(listing.untracked.begin(), listing.untracked.end());
  listing.in_work_tree = true;
  return listing;
}

}  // namespace mpsready
