#include "ops/dispatcher_status.h"

#include <ATen/Context.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/DispatchKey.h>

namespace mpsready {

bool dispatcher_has_mps() {
  // MPS kernels exist only in macOS builds of LibTorch (1.12 and later).
#if defined(__APPLE__)
  return at::hasMPS();
#else
  return false;
#endif
}

OpStatus dispatcher_op_status(const std::string& name, const std::string& overload, DispatcherBackend backend) {
  const c10::OperatorName op_name("aten::" + name, overload);
  const auto handle = c10::Dispatcher::singleton().findOp(op_name);
  if (!handle) return OpStatus::unknown;
  const c10::DispatchKey key = backend == DispatcherBackend::mps ? c10::DispatchKey::MPS : c10::DispatchKey::CPU;
  if (handle->hasKernelForDispatchKey(key)) return OpStatus::kernel;
  if (handle->hasKernelForDispatchKey(c10::DispatchKey::CompositeExplicitAutograd) ||
      handle->hasKernelForDispatchKey(c10::DispatchKey::CompositeExplicitAutogradNonFunctional))
    return OpStatus::generic;
  if (handle->hasKernelForDispatchKey(c10::DispatchKey::CompositeImplicitAutograd)) return OpStatus::composite;
  return OpStatus::missing;
}

}  // namespace mpsready
