#include "smoke/model_file.h"

#include <filesystem>
#include <fstream>

#include "util/zip_entries.h"

namespace mpsready {

const char* const kExportAdvice =
    "export it with torch.jit.script or torch.jit.trace and save it with torch.jit.save "
    "(scripts/export-model.py does this; see docs/smoke-record.md)";

const char* to_string(ModelFileKind kind) {
  switch (kind) {
    case ModelFileKind::torchscript: return "torchscript";
    case ModelFileKind::torch_save_zip: return "torch-save-archive";
    case ModelFileKind::legacy_pickle: return "legacy-pickle";
    case ModelFileKind::corrupt_zip: return "corrupt-zip";
    case ModelFileKind::missing: return "missing";
    case ModelFileKind::unreadable: return "unreadable";
    case ModelFileKind::unknown: return "unknown";
  }
  return "unknown";
}

namespace {

bool has_entry(const std::vector<std::string>& names, const std::string& leaf) {
  // Entries are "<archive name>/<leaf>"; the archive name is whatever the file was saved as.
  for (const auto& n : names) {
    const auto slash = n.find('/');
    if (slash != std::string::npos && n.compare(slash + 1, leaf.size(), leaf) == 0 &&
        (n.size() == slash + 1 + leaf.size() || leaf.back() == '/'))
      return true;
  }
  return false;
}

}  // namespace

ModelFileCheck inspect_model_file(const std::string& path) {
  namespace fs = std::filesystem;
  ModelFileCheck check;
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    check.kind = ModelFileKind::missing;
    check.message = path + ": no such file";
    return check;
  }
  if (!fs::is_regular_file(path, ec)) {
    check.kind = ModelFileKind::unreadable;
    check.message = path + ": not a regular file (a TorchScript archive is one .pt file)";
    return check;
  }
  std::ifstream in(path, std::ios::binary);
  unsigned char magic[4] = {0, 0, 0, 0};
  in.read(reinterpret_cast<char*>(magic), 4);
  if (!in) {
    check.kind = in.gcount() == 0 && fs::file_size(path, ec) == 0 ? ModelFileKind::unknown : ModelFileKind::unreadable;
    check.message = path + ": the file is empty or cannot be read; " + kExportAdvice;
    return check;
  }
  if (magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4) {
    const ZipListing zip = list_zip_entries(path);
    if (!zip.ok) {
      check.kind = ModelFileKind::corrupt_zip;
      check.message = path + ": " + zip.error + "; copy the file again, or export it again";
      return check;
    }
    if (has_entry(zip.names, "code/") || has_entry(zip.names, "constants.pkl")) {
      check.kind = ModelFileKind::torchscript;
      return check;
    }
    if (has_entry(zip.names, "data.pkl")) {
      check.kind = ModelFileKind::torch_save_zip;
      check.message = path +
                      ": this is a torch.save archive (a state_dict or a pickled module), not a TorchScript "
                      "program: it holds weights but not the code that uses them, and mpsready never unpickles "
                      "Python objects; " + kExportAdvice;
      return check;
    }
    check.kind = ModelFileKind::unknown;
    check.message = path + ": a zip archive, but neither TorchScript (no code/) nor torch.save (no data.pkl); " +
                    kExportAdvice;
    return check;
  }
  // Python pickles start with PROTO (0x80) and a protocol number; the pre-1.6 torch.save format
  // is a sequence of such pickles.
  if (magic[0] == 0x80 && magic[1] >= 2 && magic[1] <= 5) {
    check.kind = ModelFileKind::legacy_pickle;
    check.message = path + ": this is a legacy torch.save pickle (a state_dict or a pickled module), not a "
                           "TorchScript program; mpsready never unpickles Python objects; " + kExportAdvice;
    return check;
  }
  check.kind = ModelFileKind::unknown;
  check.message = path + ": not a TorchScript archive (unrecognised format); " + kExportAdvice;
  return check;
}

}  // namespace mpsready
