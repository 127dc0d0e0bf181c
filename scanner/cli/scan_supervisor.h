#pragma once
// Runs a scan in a child process so that a crash, abort or hang inside a front end costs one
// file, never the scan (README "Reliability and security"). The child publishes the files its
// threads are analysing (engine/in_flight.h); when it dies by a signal (or, under a sanitizer,
// exits without finishing), the parent runs the scan again with the file that was in flight left
// out and listed in `errors`; when several were in flight, they are analysed one at a time first
// in the next attempt, so only the real culprit is left out. A file in flight longer than the
// time limit is treated the same way after the parent kills the child. Only the attempt that
// finishes writes a report, so a scan that nothing crashes gives the same bytes as before.
#include <functional>

namespace mpsready {

// How a child that finished leaves: through exit() as an unsupervised run would (atexit
// handlers, LeakSanitizer), or _exit() where the process's exit handlers belong to the parent
// alone (libFuzzer's).
enum class ChildExit { with_exit_handlers, without_exit_handlers };

// `attempt` runs the whole command and returns its exit code; `file_time_limit_s` <= 0: no limit.
// Without fork or shared memory, `attempt` runs in this process.
int run_supervised(const std::function<int()>& attempt, double file_time_limit_s,
                   ChildExit child_exit = ChildExit::with_exit_handlers);

}  // namespace mpsready
