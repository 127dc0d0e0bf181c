#include "rules/message_template.h"

namespace mpsready {

std::string fill_template(const std::string& text, const std::map<std::string, std::string>& vars) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '{') {
      const size_t close = text.find('}', i + 1);
      if (close != std::string::npos) {
        const auto it = vars.find(text.substr(i + 1, close - i - 1));
        if (it != vars.end()) {
          out += it->second;
          i = close + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

}  // namespace mpsready
