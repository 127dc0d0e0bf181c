#include "cli/git_diff.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <random>
#include <vector>

#include "engine/file_reader.h"

extern char** environ;

namespace mpsready {

namespace fs = std::filesystem;

namespace {

struct Process {
  int code = -1;
  std::string out;
  std::string err;
};

// The environment git runs in: the caller's, less everything that lets configuration outside the
// repository's objects decide what git does, plus switches that keep the checkout's own
// configuration from running anything. `git diff` against the work tree is never run (it would
// apply the clean filters that the checkout's `.gitattributes` name); what git still does here
// (rev-parse, ls-tree, ls-files, cat-file --batch) reads objects and the index and runs no filter,
// hook or external program. GIT_ATTR_SOURCE (git 2.40 and later; git 2.39 ignores it) points
// attribute lookups at the empty tree, so the checkout's .gitattributes are not read at all.
std::vector<std::string> git_environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry(*e);
    const std::string name = entry.substr(0, entry.find('='));
    // Configuration given through the environment (GIT_CONFIG_COUNT/KEY/VALUE, GIT_CONFIG_PARAMETERS)
    // and the pager or external diff would come from outside the command line below.
    if (name.rfind("GIT_CONFIG", 0) == 0 || name == "GIT_EXTERNAL_DIFF" || name == "GIT_PAGER" ||
        name == "GIT_ATTR_SOURCE")
      continue;
    env.push_back(entry);
  }
  env.push_back("GIT_CONFIG_NOSYSTEM=1");
  env.push_back("GIT_ATTR_SOURCE=4b825dc642cb6eb9a060e54bf8d69288fbee4904");  // the empty tree
  env.push_back("GIT_OPTIONAL_LOCKS=0");  // never rewrite the index
  env.push_back("GIT_TERMINAL_PROMPT=0");
  return env;
}

// Runs git with `args` (no shell), stdin from `stdin_file` (or /dev/null); its standard output
// goes to `sink` as it comes (or into `out` without a sink).
Process run_git(const fs::path& root, const std::vector<std::string>& args, const std::string& stdin_file = "",
                const std::function<void(std::string_view)>& sink = {}) {
  Process result;
  std::vector<std::string> argv = {"git", "-C", root.string(), "-c", "core.fsmonitor=false", "-c", "core.quotePath=false",
                                   "-c", "core.attributesFile=/dev/null", "--no-pager"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::vector<std::string> env = git_environment();
  std::vector<char*> cenv;
  for (auto& e : env) cenv.push_back(e.data());
  cenv.push_back(nullptr);

  int out_pipe[2];
  if (pipe(out_pipe) != 0) return result;
  char err_name[] = "/tmp/mpsready-git-XXXXXX";
  const int err_fd = mkstemp(err_name);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, stdin_file.empty() ? "/dev/null" : stdin_file.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  if (err_fd >= 0) posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "git", &actions, nullptr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  if (spawned == 0) {
    char buf[65536];
    ssize_t n = 0;
    while ((n = read(out_pipe[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
      if (n <= 0) continue;
      if (sink) sink(std::string_view(buf, static_cast<size_t>(n)));
      else result.out.append(buf, static_cast<size_t>(n));
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    result.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  } else {
    result.err = std::string("cannot run git: ") + std::strerror(spawned);
  }
  close(out_pipe[0]);
  if (err_fd >= 0) {
    std::ifstream in(err_name, std::ios::binary);
    result.err += std::string((std::istreambuf_iterator<char>(in)), {});
    close(err_fd);
    unlink(err_name);
  }
  while (!result.err.empty() && (result.err.back() == '\n' || result.err.back() == '\r')) result.err.pop_back();
  return result;
}

}  // namespace

bool read_git_diff(const fs::path& root, const std::string& base, const fs::path& base_dir, uintmax_t max_size,
                   GitDiff& out, std::string& error) {
  out.base = base;
  if (base.empty() || base[0] == '-') {
    error = "--diff: \"" + base + "\" is not a git revision";
    return false;
  }
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    error = "--diff needs a directory inside a git work tree";
    return false;
  }
  const Process inside = run_git(root, {"rev-parse", "--is-inside-work-tree"});
  if (inside.code != 0 || inside.out.rfind("true", 0) != 0) {
    error = "--diff: " + root.string() + " is not inside a git work tree" + (inside.err.empty() ? "" : " (" + inside.err + ")");
    return false;
  }
  // `A...B` and `A..B` as git writes them: the scan reads the work tree, so B (when given) must be
  // the commit checked out. `A...B` and a plain `A` compare with the merge base of A and HEAD (what
  // a pull request from a stale branch adds, not what the target branch gained since); `A..B`
  // compares with A itself, as `git diff A..B` does.
  std::string first = base;
  bool merge_base = true;
  if (const size_t dots = base.find(".."); dots != std::string::npos) {
    const bool three = base.compare(dots, 3, "...") == 0;
    merge_base = three;
    first = base.substr(0, dots);
    const std::string second = base.substr(dots + (three ? 3 : 2));
    if (first.empty() || (!second.empty() && second[0] == '-')) {
      error = "--diff: \"" + base + "\" is not a git revision range (A...B or A..B)";
      return false;
    }
    if (!second.empty()) {
      const Process b = run_git(root, {"rev-parse", "--verify", "--quiet", "--end-of-options", second + "^{commit}"});
      const Process head = run_git(root, {"rev-parse", "--verify", "--quiet", "HEAD^{commit}"});
      if (b.code != 0 || head.code != 0 || b.out != head.out) {
        error = "--diff: \"" + second + "\" is not the commit checked out: the scan reads the work tree, so a range ends at HEAD";
        return false;
      }
    }
  }
  const Process commit = run_git(root, {"rev-parse", "--verify", "--quiet", "--end-of-options", first + "^{commit}"});
  if (commit.code == 0 && commit.out.size() >= 40) {
    out.base_commit = commit.out.substr(0, commit.out.find('\n'));
    if (merge_base && run_git(root, {"rev-parse", "--verify", "--quiet", "HEAD"}).code == 0) {
      const Process common = run_git(root, {"merge-base", out.base_commit, "HEAD"});
      if (common.code != 0 || common.out.size() < 40) {
        error = "--diff: \"" + first + "\" and HEAD have no common ancestor (compare with it directly: --diff " + first + "..)";
        return false;
      }
      out.base_commit = common.out.substr(0, common.out.find('\n'));
    }
  } else if (base == "HEAD" && run_git(root, {"rev-parse", "--verify", "--quiet", "HEAD"}).code != 0) {
    // A repository without commits (a pre-commit hook's first commit): everything tracked is
    // new, so the base is the empty tree.
    const Process empty = run_git(root, {"hash-object", "--no-filters", "-t", "tree", "/dev/null"});
    if (empty.code != 0 || empty.out.size() < 40) {
      error = "--diff: git hash-object failed: " + empty.err;
      return false;
    }
    out.base_commit = empty.out.substr(0, empty.out.find('\n'));
  } else {
    error = "--diff: unknown revision \"" + base + "\"";
    return false;
  }
  // BASE's files, written out; then each compared in this process with the work tree's bytes.
  std::set<std::string> base_paths;
  if (!export_git_tree(root, out.base_commit, base_dir, max_size, base_paths, error)) return false;
  // The tracked files under `root` (from the index: no filter runs), relative to it.
  const Process tracked = run_git(root, {"ls-files", "-z", "--cached", "--", "."});
  if (tracked.code != 0) {
    error = "--diff: git ls-files failed: " + tracked.err;
    return false;
  }
  std::set<std::string> paths = base_paths;
  size_t pos = 0;
  while (pos < tracked.out.size()) {
    size_t end = tracked.out.find('\0', pos);
    if (end == std::string::npos) end = tracked.out.size();
    if (end > pos) paths.insert(tracked.out.substr(pos, end - pos));
    pos = end + 1;
  }
  // Directories of the work tree known to be real ones (not links), so that a path from a crafted
  // index cannot lead out of the root.
  std::map<std::string, bool> real_dirs;
  const auto no_link_above = [&](const fs::path& rel) {
    fs::path dir;
    for (auto it = rel.begin(); it != rel.end() && std::next(it) != rel.end(); ++it) {
      dir /= *it;
      const auto [entry, fresh] = real_dirs.emplace(dir.string(), false);
      if (fresh) {
        std::error_code status_ec;
        entry->second = fs::is_directory(fs::symlink_status(root / dir, status_ec));
      }
      if (!entry->second) return false;
    }
    return true;
  };
  for (const std::string& path : paths) {
    const fs::path rel(path);
    if (rel.is_absolute() || std::any_of(rel.begin(), rel.end(), [](const fs::path& c) { return c == ".."; })) continue;
    if (!no_link_above(rel)) {
      if (base_paths.count(path)) out.changed_files.insert(path);
      continue;
    }
    // Never through a symbolic link; a file over the size limit is read by neither scan.
    const ReadResult now = read_repository_file(root / rel, max_size);
    const ReadResult then = read_repository_file(base_dir / rel, max_size);
    if (now.bytes.has_value() != then.bytes.has_value() || (now.bytes && *now.bytes != *then.bytes) ||
        (!now.bytes && base_paths.count(path)))
      out.changed_files.insert(path);
  }
  return true;
}

bool export_git_tree(const fs::path& root, const std::string& commit, const fs::path& dir, uintmax_t max_size,
                     std::set<std::string>& listed, std::string& error) {
  // Paths are relative to `root` (ls-tree lists the current directory's part of the tree).
  const Process tree = run_git(root, {"ls-tree", "-r", "-l", "-z", commit});
  if (tree.code != 0) {
    error = "--diff: git ls-tree failed: " + tree.err;
    return false;
  }
  struct Entry {
    std::string sha;
    std::string path;
  };
  std::vector<Entry> entries;
  size_t pos = 0;
  while (pos < tree.out.size()) {
    size_t end = tree.out.find('\0', pos);
    if (end == std::string::npos) end = tree.out.size();
    const std::string record = tree.out.substr(pos, end - pos);  // "<mode> <type> <sha> <size>\t<path>"
    pos = end + 1;
    const size_t tab = record.find('\t');
    if (tab == std::string::npos) continue;
    char mode[16] = {}, type[16] = {}, sha[80] = {}, size[32] = {};
    if (std::sscanf(record.substr(0, tab).c_str(), "%15s %15s %79s %31s", mode, type, sha, size) != 4) continue;
    const std::string path = record.substr(tab + 1);
    // Regular blobs only: no symbolic links (120000), no submodules (commit).
    if (std::string(type) != "blob" || (std::string(mode) != "100644" && std::string(mode) != "100755")) continue;
    listed.insert(path);
    if (std::strtoull(size, nullptr, 10) > max_size) continue;
    const fs::path rel(path);
    const bool safe = !path.empty() && rel.is_relative() &&
                      std::none_of(rel.begin(), rel.end(), [](const fs::path& c) { return c == ".." || c == "."; });
    if (safe) entries.push_back({sha, path});
  }
  if (entries.empty()) return true;
  char list_name[] = "/tmp/mpsready-git-XXXXXX";
  const int list_fd = mkstemp(list_name);
  if (list_fd < 0) {
    error = "--diff: cannot create a temporary file";
    return false;
  }
  {
    std::string input;
    for (const Entry& e : entries) input += e.sha + "\n";
    const bool ok = write(list_fd, input.data(), input.size()) == static_cast<ssize_t>(input.size());
    close(list_fd);
    if (!ok) {
      unlink(list_name);
      error = "--diff: cannot write a temporary file";
      return false;
    }
  }
  // "<sha> blob <size>\n<bytes>\n", once per requested object, in order; written out as it comes,
  // so the whole tree is never held in memory.
  size_t next = 0;           // the entry whose header comes next
  size_t remaining = 0;      // bytes of the current blob still to write
  bool in_blob = false, skip_newline = false;
  std::ofstream file;
  std::string pending;       // an incomplete header
  const auto sink = [&](std::string_view chunk) {
    while (!chunk.empty()) {
      if (skip_newline) {
        skip_newline = false;
        if (chunk.front() == '\n') chunk.remove_prefix(1);
        continue;
      }
      if (in_blob) {
        const size_t n = std::min(remaining, chunk.size());
        if (file) file.write(chunk.data(), static_cast<std::streamsize>(n));
        chunk.remove_prefix(n);
        remaining -= n;
        if (remaining == 0) {
          in_blob = false;
          skip_newline = true;
          file.close();
        }
        continue;
      }
      const size_t newline = chunk.find('\n');
      if (newline == std::string_view::npos) {
        pending.append(chunk);
        return;
      }
      pending.append(chunk.substr(0, newline));
      chunk.remove_prefix(newline + 1);
      const std::string header = std::move(pending);
      pending.clear();
      const size_t last_space = header.rfind(' ');
      if (next >= entries.size() || header.find(" blob ") == std::string::npos || last_space == std::string::npos) {
        ++next;  // "<sha> missing": no bytes follow
        continue;
      }
      const Entry& e = entries[next++];
      remaining = std::strtoull(header.c_str() + last_space + 1, nullptr, 10);
      const fs::path target = dir / e.path;
      std::error_code mk;
      fs::create_directories(target.parent_path(), mk);
      file = std::ofstream(target, std::ios::binary | std::ios::trunc);
      in_blob = true;
      if (remaining == 0) {
        in_blob = false;
        skip_newline = true;
        file.close();
      }
    }
  };
  const Process blobs = run_git(root, {"cat-file", "--batch"}, list_name, sink);
  unlink(list_name);
  if (blobs.code != 0) {
    error = "--diff: git cat-file failed: " + blobs.err;
    return false;
  }
  return true;
}

}  // namespace mpsready
