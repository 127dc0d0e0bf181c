#pragma once
// The live answer: which kernels the linked LibTorch's dispatcher (c10::Dispatcher) has for an op.
// On a Mac with an MPS-enabled LibTorch this replaces native_functions.yaml, and it also sees
// kernels registered outside the yaml. Elsewhere the MPS key has no kernels, so it is not used.
#include <string>

#include "ops/op_status.h"

namespace mpsready {

enum class DispatcherBackend { mps, cpu };

// True when the linked LibTorch was built with MPS and the process runs on macOS.
bool dispatcher_has_mps();

// The status of aten::name.overload for `backend`: kernel (a kernel for that key), generic
// (CompositeExplicitAutograd[NonFunctional]), composite (CompositeImplicitAutograd), missing, or
// unknown when the dispatcher does not know the op.
OpStatus dispatcher_op_status(const std::string& name, const std::string& overload, DispatcherBackend backend);

}  // namespace mpsready
