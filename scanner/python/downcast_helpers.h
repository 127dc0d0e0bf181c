#pragma once
// In-repository helpers that cast to float32 on MPS: `def to_device(x, device): if device.type ==
// "mps": x = x.float() ... return x.to(device)`. A float64 value passed to one reaches the MPS
// device as float32, so a dtype finding inside such a call's arguments is moot there.
#include <cstdint>
#include <string>
#include <vector>

namespace mpsready {

class PythonFile;

struct DowncastArgument {
  uint32_t start = 0, end = 0;  // the argument's bytes
  std::string helper;           // the helper's name, as called
};

// The arguments of the calls in `file` to functions it defines whose MPS branch casts to float32
// (`.float()`, `torch.float32`, `np.float32`, `"float32"`). A helper whose MPS branch only moves
// the value is not one.
std::vector<DowncastArgument> mps_downcast_arguments(const PythonFile& file);

}  // namespace mpsready
