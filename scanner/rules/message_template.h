#pragma once
// Fills `{name}` placeholders of rule messages and fixes. Unknown placeholders stay as written,
// so a missing value is visible rather than silently blank.
#include <map>
#include <string>

namespace mpsready {

std::string fill_template(const std::string& text, const std::map<std::string, std::string>& vars);

}  // namespace mpsready
