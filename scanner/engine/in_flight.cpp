#include "engine/in_flight.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <ctime>

#include <sys/mman.h>

namespace mpsready {

// Plain lock-free atomics work across processes in MAP_SHARED memory. A slot's fields are
// written before `busy` is set and read by the parent only once the child is dead (or to see a
// start time, which is a single atomic).
struct InFlightBoard::Slot {
  std::atomic<int> busy;
  std::atomic<int64_t> start_ns;
  std::atomic<int64_t> budget_ns;  // 0: no limit
  unsigned scan;
  char path[kPathBytes];
};

struct InFlightBoard::Shared {
  std::atomic<int> finished;
  std::atomic<int> stalled;
  std::atomic<int> next_slot;
  Slot slots[kSlots];
};

namespace {
int64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}
}  // namespace

InFlightBoard* InFlightBoard::create() {
  void* memory = mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return nullptr;
  auto* board = new InFlightBoard;
  board->shared_ = static_cast<Shared*>(memory);  // zero-filled by mmap
  return board;
}

void InFlightBoard::reset() {
  shared_->finished.store(0);
  shared_->stalled.store(0);
  shared_->next_slot.store(0);
  for (Slot& s : shared_->slots) s.busy.store(0);
}

std::vector<InFlightFile> InFlightBoard::in_flight() const {
  std::vector<InFlightFile> out;
  const int64_t now = now_ns();
  for (const Slot& s : shared_->slots) {
    if (!s.busy.load(std::memory_order_acquire)) continue;
    InFlightFile f;
    f.file.scan = s.scan;
    f.file.path.assign(s.path, strnlen(s.path, kPathBytes));
    f.seconds = double(now - s.start_ns.load()) / 1e9;
    f.budget = double(s.budget_ns.load()) / 1e9;
    out.push_back(std::move(f));
  }
  return out;
}

void InFlightBoard::mark_finished() { shared_->finished.store(1); }
bool InFlightBoard::finished() const { return shared_->finished.load() != 0; }
void InFlightBoard::mark_stalled() { shared_->stalled.store(1); }
bool InFlightBoard::stalled() const { return shared_->stalled.load() != 0; }

double file_budget_s(double base_s, uint64_t size_bytes) {
  if (base_s <= 0) return 0;
  return base_s + kBudgetSecondsPerMiB * double(size_bytes) / double(1u << 20);
}

int InFlightBoard::claim_slot() {
  const int slot = shared_->next_slot.fetch_add(1);
  return slot < int(kSlots) ? slot : -1;
}

void InFlightBoard::begin(int slot, unsigned scan, std::string_view path, double budget_s) {
  Slot& s = shared_->slots[slot];
  s.scan = scan;
  const size_t n = std::min(path.size(), kPathBytes - 1);
  std::memcpy(s.path, path.data(), n);
  s.path[n] = '\0';
  s.budget_ns.store(int64_t(budget_s * 1e9));
  s.start_ns.store(now_ns());
  s.busy.store(1, std::memory_order_release);
}

void InFlightBoard::end(int slot) { shared_->slots[slot].busy.store(0, std::memory_order_release); }

Supervision& supervision() {
  static Supervision s;
  return s;
}

unsigned next_scan_ordinal() {
  static std::atomic<unsigned> next{0};
  return next++;
}

namespace {
thread_local int thread_slot = -2;  // -2: not claimed yet; -1: none left
}

InFlightMark::InFlightMark(unsigned scan, std::string_view path, uint64_t size_bytes) {
  InFlightBoard* board = supervision().board;
  if (!board) return;
  if (thread_slot == -2) thread_slot = board->claim_slot();
  slot_ = thread_slot;
  if (slot_ >= 0) board->begin(slot_, scan, path, file_budget_s(supervision().file_time_limit_s, size_bytes));
}

InFlightMark::~InFlightMark() {
  if (slot_ >= 0) supervision().board->end(slot_);
}

}  // namespace mpsready
