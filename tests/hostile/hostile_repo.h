#pragma once
// A hostile repository, generated at test time (nothing binary is committed): every kind of file
// a scanner of untrusted code meets and must survive, and, beside the root, files holding a
// marker string that no report may ever contain (the scan must not read them).
#include <string>

#include "support/test_support.h"

namespace mpsready::testing {

// Appears only in files outside the scanned root.
inline const std::string kOutsideMarker = "OUTSIDE_ROOT_MARKER_7f3a9c";

struct HostileRepo {
  TempDir dir;
  fs::path root() const { return dir.path() / "repo"; }
  fs::path outside() const { return dir.path() / "outside"; }
  bool unreadable_dir_created = false;

  HostileRepo();
};

}  // namespace mpsready::testing
