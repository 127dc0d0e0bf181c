#pragma once
// One rewrite of one file: the bytes [start, end) of its text become `replacement`.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/finding.h"

namespace mpsready {

struct Edit {
  std::string path;  // relative to the root, '/' separators (as findings name files)
  std::string rule;
  uint32_t start = 0;
  uint32_t end = 0;
  std::string original;
  std::string replacement;
  Location location;  // of the finding, for reports
  std::string needs_pytorch;  // the oldest PyTorch the replacement runs on ("" = any)
  // A binding: lines inserted once for a scope (`device = ...`) that sites use; not a site.
  bool binding = false;
  // Drops names of a deprecated import that the fixed file no longer reads: not a site either.
  bool tidies_import = false;
  // A site that uses a binding this fix inserts: the binding's byte (its edit's start).
  std::optional<uint32_t> uses_binding_at;
  std::string note;  // what the summary says of this site's fix
};

// A site the fix leaves alone, and why (a person reads `reason`).
struct LeftSite {
  std::string path;
  std::string rule;
  Location location;
  std::string reason;
};

// Order of every output: path, start, end, rule.
bool edit_less(const Edit& a, const Edit& b);
bool left_site_less(const LeftSite& a, const LeftSite& b);

}  // namespace mpsready
