#pragma once
// The worker threads of a scan, watched against each file's time budget when a supervising
// parent is there (in_flight.h, cli/scan_supervisor.h). A thread stuck in a front end cannot be
// stopped, only left behind: another thread takes its place, so the files after the stuck one are
// still analysed, and when only stuck threads remain the board is marked stalled for the parent,
// which kills the process and runs the scan again with every stuck file left out at once (one
// restart however many files hang, instead of one restart per file).
#include <functional>

namespace mpsready {

// Runs `work` on `jobs` threads (each takes files from a shared cursor until none is left) and
// returns when all have returned. `more_work()`: whether files remain to be taken. Without a
// supervisor or a time limit, the threads run unwatched (one job runs on the calling thread).
// With them, a call in which some file never finishes does not return: the parent ends it.
void run_watched_workers(unsigned jobs, const std::function<void()>& work, const std::function<bool()>& more_work);

}  // namespace mpsready
