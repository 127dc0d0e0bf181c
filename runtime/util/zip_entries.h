#pragma once
// Lists the entry names of a zip archive from its central directory, without inflating anything.
// Enough to tell a TorchScript archive from a torch.save archive before any loader sees the file.
#include <string>
#include <vector>

namespace mpsready {

struct ZipListing {
  bool ok = false;
  std::string error;  // why the central directory could not be read (truncated, corrupt)
  std::vector<std::string> names;
};

ZipListing list_zip_entries(const std::string& path);

}  // namespace mpsready
