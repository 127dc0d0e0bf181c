#pragma once
// What each worker thread is analysing right now, in memory shared with a supervising parent
// process (README "Reliability and security"). When the scan process dies by a signal or hangs,
// the parent reads which files were in flight and runs the scan again without the culprit; the
// board is also how the re-run learns which files to leave out (quarantine) or to analyse one
// at a time first (suspects). Without a supervisor (tests, fuzz targets) marking is a no-op.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mpsready {

// A file of one scan: `scan` counts the run_scan calls of the process (0 the working tree,
// 1 the --diff base tree), so the same relative path in both trees stays apart.
struct ScanFileId {
  unsigned scan = 0;
  std::string path;
  bool operator==(const ScanFileId& o) const { return scan == o.scan && path == o.path; }
};

// A file whose front ends are not run, and the reason for its `errors` entry.
struct QuarantinedFile {
  ScanFileId file;
  std::string reason;
};

struct InFlightFile {
  ScanFileId file;
  double seconds = 0;  // how long it has been in flight
  double budget = 0;   // how long it may take (file_budget_s); 0: no limit
  bool over_budget() const { return budget > 0 && seconds > budget; }
};

// Seconds per MiB of a file's size that its budget adds to the base limit: about 1/100 of the
// front ends' slowest measured throughput (README "Reliability and security"), so a large file
// that is merely slow is not taken for a hung one, while a small file that hangs costs little.
inline constexpr double kBudgetSecondsPerMiB = 20;

// A file's time budget: `base_s` (--file-time-limit) plus kBudgetSecondsPerMiB for each MiB of
// `size_bytes`; 0 (no limit) when `base_s` <= 0.
double file_budget_s(double base_s, uint64_t size_bytes);

// Created by the supervisor before it forks (the memory is shared with every child).
class InFlightBoard {
 public:
  static constexpr size_t kSlots = 512;  // worker threads beyond this are not tracked
  static constexpr size_t kPathBytes = 4096;
  static InFlightBoard* create();  // nullptr when shared memory is unavailable
  void reset();                    // before each child starts
  std::vector<InFlightFile> in_flight() const;
  void mark_finished();            // the child completed (its exit status is the scan's)
  bool finished() const;
  // The child has analysed every file it could: each file still in flight is over its budget,
  // and the parent may kill it and leave all of them out at once.
  void mark_stalled();
  bool stalled() const;

  // Called by the engine around one file's front ends.
  int claim_slot();
  void begin(int slot, unsigned scan, std::string_view path, double budget_s);
  void end(int slot);

 private:
  struct Slot;
  struct Shared;
  Shared* shared_ = nullptr;
};

// The process's board (set in a supervised child), and what the previous attempts decided.
struct Supervision {
  InFlightBoard* board = nullptr;
  std::vector<QuarantinedFile> quarantined;
  std::vector<ScanFileId> suspects;  // analysed one at a time before the worker threads start
  double file_time_limit_s = 0;      // the base of each file's budget (file_budget_s); <= 0: none
};
Supervision& supervision();

// Numbers the run_scan calls of this process.
unsigned next_scan_ordinal();

// Publishes the current thread's file while it is alive (no-op without a board).
class InFlightMark {
 public:
  InFlightMark(unsigned scan, std::string_view path, uint64_t size_bytes);
  ~InFlightMark();
  InFlightMark(const InFlightMark&) = delete;
  InFlightMark& operator=(const InFlightMark&) = delete;

 private:
  int slot_ = -1;
};

}  // namespace mpsready
