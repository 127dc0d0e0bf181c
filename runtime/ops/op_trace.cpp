#include "ops/op_trace.h"

#include <map>
#include <utility>

#include <ATen/record_function.h>

namespace mpsready {
namespace {

// The observer's state lives on the tracing thread only: the callbacks are thread-local and
// plain function pointers, so they cannot capture it.
struct TraceState {
  std::vector<std::string> stack;  // the dispatched ops currently running, outermost first
  std::map<std::pair<std::string, std::string>, size_t> calls;
};
thread_local TraceState* t_state = nullptr;

std::string qualified_name(const at::RecordFunction& fn) {
  std::string name = fn.name();
  if (const auto op = fn.operator_name()) {
    name = op->name;
    if (!op->overload_name.empty()) name += "." + op->overload_name;
  }
  return name;
}

std::unique_ptr<at::ObserverContext> on_start(const at::RecordFunction& fn) {
  if (!t_state) return nullptr;
  std::string name = qualified_name(fn);
  const std::string caller = t_state->stack.empty() ? "" : t_state->stack.back();
  ++t_state->calls[{name, caller}];
  t_state->stack.push_back(std::move(name));
  return nullptr;
}

void on_end(const at::RecordFunction&, at::ObserverContext*) {
  if (t_state && !t_state->stack.empty()) t_state->stack.pop_back();
}

// Installs the observer for the lifetime of the object, and removes it even when forward throws.
class Observer {
 public:
  explicit Observer(TraceState& state) {
    t_state = &state;
    handle_ = at::addThreadLocalCallback(at::RecordFunctionCallback(on_start, on_end)
                                             .needsInputs(false)
                                             .scopes({at::RecordScope::FUNCTION}));
  }
  ~Observer() {
    at::removeCallback(handle_);
    t_state = nullptr;
  }
  Observer(const Observer&) = delete;
  Observer& operator=(const Observer&) = delete;

 private:
  at::CallbackHandle handle_;
};

}  // namespace

OpTrace trace_dispatched_ops(torch::jit::Module& module, const std::vector<torch::Tensor>& inputs) {
  OpTrace trace;
  std::vector<c10::IValue> args(inputs.begin(), inputs.end());
  TraceState state;
  try {
    torch::NoGradGuard no_grad;
    at::RecordFunctionGuard enabled(true);
    Observer observer(state);
    module.forward(args);
  } catch (const std::exception& e) {
    trace.error = e.what();
    return trace;
  }
  // Only aten ops are reported; other namespaces still count as callers (their kernels are not
  // aten's, so what they call is not the model's concern on MPS).
  for (const auto& [key, count] : state.calls)
    if (key.first.rfind("aten::", 0) == 0) trace.calls.push_back({key.first, key.second, count});
  return trace;
}

}  // namespace mpsready
