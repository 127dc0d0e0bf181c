#pragma once
// What kind of file a model path holds, decided from its bytes before any loader runs: only a
// TorchScript archive is ever handed to torch::jit::load, and nothing is ever unpickled here.
#include <string>

namespace mpsready {

enum class ModelFileKind {
  torchscript,       // zip with code/ and constants.pkl: torch.jit.script / torch.jit.trace output
  torch_save_zip,    // zip with data.pkl and no code/: torch.save of a state_dict or a module
  legacy_pickle,     // pre-1.6 torch.save (a bare pickle stream)
  corrupt_zip,       // starts like a zip, but its directory cannot be read
  missing,           // no such file
  unreadable,        // a directory, or no permission
  unknown,           // none of the above
};

struct ModelFileCheck {
  ModelFileKind kind = ModelFileKind::unknown;
  std::string message;  // for every kind but torchscript: what is wrong and what to do
};

const char* to_string(ModelFileKind kind);
ModelFileCheck inspect_model_file(const std::string& path);

// The advice every non-TorchScript model message ends with.
extern const char* const kExportAdvice;

}  // namespace mpsready
