#include "cli/scan_supervisor.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "engine/in_flight.h"

namespace mpsready {
namespace {

// Each attempt leaves out or isolates at least one more file; this bounds a pathological run.
constexpr int kMaxAttempts = 100;
constexpr int kPollMillis = 100;  // how often the parent looks at the start times of in-flight files
// Past twice its budget, and this, a file in flight means the child's own watch is not running.
constexpr double kUnwatchedGraceSeconds = 5;

std::string signal_name(int sig) {
  switch (sig) {
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    default: return "signal " + std::to_string(sig);
  }
}

// How a child that did not finish ended: "SIGILL", or "exit status 1" (a sanitizer's report).
std::string how_it_ended(int status) {
  if (WIFSIGNALED(status)) return signal_name(WTERMSIG(status));
  return "exit status " + std::to_string(WEXITSTATUS(status));
}

// Signals sent from outside (an interrupted run, a closed pipe) end the scan as they would
// without the supervisor; they say nothing about the file in flight.
bool sent_from_outside(int status) {
  if (!WIFSIGNALED(status)) return false;
  const int sig = WTERMSIG(status);
  return sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGPIPE || sig == SIGQUIT;
}

[[noreturn]] void end_like(int sig) {
  std::signal(sig, SIG_DFL);
  std::raise(sig);
  _exit(128 + sig);
}

std::string seconds_text(double s) {
  std::string text = std::to_string(s);
  text.erase(text.find_last_not_of('0') + 1);
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

[[noreturn]] void run_child(const std::function<int()>& attempt, InFlightBoard* board, int pipe_write,
                            pid_t parent, ChildExit child_exit) {
#if defined(__linux__)
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // a parent killed from outside takes its scan with it
  if (getppid() != parent) _exit(2);
#else
  (void)parent;
#endif
  (void)pipe_write;  // stays open until the child is gone: its closing wakes the parent
  supervision().board = board;
  const int code = attempt();
  std::cout.flush();
  std::fflush(nullptr);
  board->mark_finished();
  if (child_exit == ChildExit::without_exit_handlers) _exit(code);
  std::exit(code);  // atexit handlers as in an unsupervised run (LeakSanitizer among them)
}

struct ChildEnd {
  int status = 0;
  bool killed = false;               // by the parent, for the time limit
  std::vector<InFlightFile> hung;    // the files over their budget (read once the child is dead)
};

// Waits for the child to end. The child's own watch (engine/watched_workers.h) leaves a stuck
// thread behind and goes on with the other files, and says when only stuck files remain; then
// the parent kills it. Should that watch not run (a hang outside the worker threads), a file
// at twice its budget, and a little more, is reason enough.
ChildEnd wait_for_child(pid_t child, int pipe_read, InFlightBoard& board, bool limited) {
  ChildEnd end;
  for (;;) {
    pollfd p{pipe_read, POLLIN, 0};
    const int ready = poll(&p, 1, kPollMillis);
    if (ready > 0) break;  // the write end closed: the child is gone
    if (ready < 0 && errno != EINTR) break;
    if (!limited) continue;
    const auto flying = board.in_flight();
    const bool unwatched = std::any_of(flying.begin(), flying.end(), [](const InFlightFile& f) {
      return f.budget > 0 && f.seconds > 2 * f.budget + kUnwatchedGraceSeconds;
    });
    if (board.stalled() || unwatched) {
      kill(child, SIGKILL);
      end.killed = true;
      break;
    }
  }
  while (waitpid(child, &end.status, 0) < 0 && errno == EINTR) {
  }
  if (end.killed)
    for (const InFlightFile& f : board.in_flight())
      if (f.over_budget()) end.hung.push_back(f);
  return end;
}

// "front end did not finish within its budget of 1.2 s (--file-time-limit 1 s, plus 20 s per
// MiB of the file's size)".
std::string over_budget_reason(const InFlightFile& f, double limit_s) {
  return "front end did not finish within its budget of " + seconds_text(std::round(f.budget * 10) / 10) +
         " s (--file-time-limit " + seconds_text(limit_s) + " s, plus " + seconds_text(kBudgetSecondsPerMiB) +
         " s per MiB of the file's size); the file was not analysed";
}

void add_suspect(Supervision& sup, const ScanFileId& file) {
  if (std::find(sup.suspects.begin(), sup.suspects.end(), file) == sup.suspects.end()) sup.suspects.push_back(file);
}

// False when the file was left out already: its path did not fit its slot, and the next
// attempt would crash the same way.
bool quarantine(Supervision& sup, const ScanFileId& file, std::string reason) {
  for (const QuarantinedFile& q : sup.quarantined)
    if (q.file == file) return false;
  sup.suspects.erase(std::remove(sup.suspects.begin(), sup.suspects.end(), file), sup.suspects.end());
  sup.quarantined.push_back({file, std::move(reason)});
  return true;
}

}  // namespace

int run_supervised(const std::function<int()>& attempt, double file_time_limit_s, ChildExit child_exit) {
  static InFlightBoard* board = InFlightBoard::create();
  if (!board) return attempt();
  Supervision& sup = supervision();
  sup.quarantined.clear();
  sup.suspects.clear();
  sup.file_time_limit_s = file_time_limit_s;
  for (int attempt_no = 0; attempt_no < kMaxAttempts; ++attempt_no) {
    board->reset();
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return attempt();
    std::cout.flush();
    std::fflush(nullptr);
    const pid_t parent = getpid();
    const pid_t child = fork();
    if (child < 0) {
      close(fds[0]);
      close(fds[1]);
      return attempt();
    }
    if (child == 0) {
      close(fds[0]);
      run_child(attempt, board, fds[1], parent, child_exit);
    }
    close(fds[1]);
    const ChildEnd end = wait_for_child(child, fds[0], *board, file_time_limit_s > 0);
    const int status = end.status;
    close(fds[0]);
    // Every file over its budget is left out at once: one restart however many hang.
    bool left_out = false;
    for (const InFlightFile& f : end.hung) left_out = quarantine(sup, f.file, over_budget_reason(f, file_time_limit_s)) || left_out;
    if (left_out) continue;
    if (end.killed && end.hung.empty()) continue;  // the slow files ended just before the kill: try again
    if (board->finished())
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (sent_from_outside(status)) end_like(WTERMSIG(status));
    const auto flying = board->in_flight();
    if (flying.size() == 1 &&
        quarantine(sup, flying[0].file, "front end crashed (" + how_it_ended(status) + "); the file was not analysed"))
      continue;
    if (flying.size() > 1) {
      const size_t before = sup.suspects.size();
      for (const InFlightFile& f : flying) add_suspect(sup, f.file);
      if (sup.suspects.size() > before) continue;
    }
    // Not inside any one file's analysis (or no progress): nothing to leave out.
    std::cerr << "mpsready: the scan ended with " << how_it_ended(status)
              << " and no single file could be left out for it\n(this is a bug in mpsready; please report it)\n";
    if (WIFSIGNALED(status)) end_like(WTERMSIG(status));
    return WIFEXITED(status) && WEXITSTATUS(status) != 0 ? WEXITSTATUS(status) : 2;
  }
  std::cerr << "mpsready: the scan crashed " << kMaxAttempts << " times; giving up\n"
            << "(this is a bug in mpsready; please report it)\n";
  return 2;
}

}  // namespace mpsready
