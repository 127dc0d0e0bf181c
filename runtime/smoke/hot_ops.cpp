#include "smoke/hot_ops.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>

#include <ATen/record_function.h>
#include <nlohmann/json.hpp>

namespace mpsready {

namespace {

using Clock = std::chrono::steady_clock;

struct Event {
  std::string name;
  int64_t start_ns = 0;
  int64_t duration_ns = 0;
  int64_t self_ns = 0;
};

struct OpContext : at::ObserverContext {
  std::string name;
  int64_t start_ns = 0;
};

// The callbacks are plain function pointers, so their state is thread-local; they are added for
// this thread only, and RecordFunction scopes nest on a thread, so a stack gives self times.
thread_local std::vector<Event>* t_events = nullptr;
thread_local std::vector<int64_t> t_child_ns;
thread_local Clock::time_point t_origin;
constexpr size_t kMaxEvents = 200000;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t_origin).count();
}

std::unique_ptr<at::ObserverContext> on_start(const at::RecordFunction& fn) {
  auto ctx = std::make_unique<OpContext>();
  ctx->name = fn.name();
  t_child_ns.push_back(0);
  ctx->start_ns = now_ns();
  return ctx;
}

void on_end(const at::RecordFunction&, at::ObserverContext* raw) {
  const int64_t end = now_ns();
  auto* ctx = static_cast<OpContext*>(raw);
  if (!ctx || t_child_ns.empty()) return;
  const int64_t children = t_child_ns.back();
  t_child_ns.pop_back();
  const int64_t duration = end - ctx->start_ns;
  if (!t_child_ns.empty()) t_child_ns.back() += duration;
  if (t_events && t_events->size() < kMaxEvents)
    t_events->push_back({ctx->name, ctx->start_ns, duration, std::max<int64_t>(0, duration - children)});
}

}  // namespace

OpTrace profile_ops(const std::function<void()>& step, int steps, const std::string& trace_path, size_t limit) {
  std::vector<Event> events;
  t_events = &events;
  t_child_ns.clear();
  t_origin = Clock::now();
  const at::CallbackHandle handle = at::addThreadLocalCallback(
      at::RecordFunctionCallback(&on_start, &on_end).scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION}));
  try {
    for (int i = 0; i < steps; ++i) step();
  } catch (...) {
    at::removeCallback(handle);
    t_events = nullptr;
    throw;
  }
  at::removeCallback(handle);
  t_events = nullptr;

  std::map<std::string, HotOp> by_name;
  for (const auto& e : events) {
    HotOp& op = by_name[e.name];
    op.name = e.name;
    op.calls += 1;
    op.self_ms += e.self_ns / 1e6;
    op.total_ms += e.duration_ns / 1e6;
  }
  OpTrace trace;
  trace.events = events.size();
  for (auto& [name, op] : by_name) trace.top.push_back(op);
  std::stable_sort(trace.top.begin(), trace.top.end(),
                   [](const HotOp& a, const HotOp& b) { return a.self_ms > b.self_ms; });
  if (trace.top.size() > limit) trace.top.resize(limit);

  if (!trace_path.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& e : events)
      list.push_back({{"name", e.name}, {"ph", "X"}, {"cat", "op"}, {"pid", 0}, {"tid", 0},
                      {"ts", e.start_ns / 1000.0}, {"dur", e.duration_ns / 1000.0}});
    std::ofstream out(trace_path, std::ios::trunc);
    out << nlohmann::json{{"traceEvents", list}, {"displayTimeUnit", "ms"}}.dump() << "\n";
  }
  return trace;
}

}  // namespace mpsready
