#pragma once
// Where a fix needs a device, it reuses a name already bound to one where the site is, instead of
// writing the device choice inline (a rewrite's "bound_name" in rule.json).
#include <cstdint>
#include <string_view>

namespace mpsready {

// Whether `name` holds a device at byte `site` of the Python `text`: a parameter of an enclosing
// function (the innermost that binds the name decides; one that assigns it otherwise makes it a
// local of unknown value), or else a module-level assignment before the site whose value is a
// device string, a `torch.device(...)` call or a conditional choice of those, when every
// module-level assignment of the name is one.
bool device_bound_in_scope(std::string_view text, uint32_t site, std::string_view name);

}  // namespace mpsready
