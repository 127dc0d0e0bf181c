#pragma once
// A rule's regex that must match a whole token, name or include path. Matchers test it against
// every token or call of every file, and almost none can match (`(`, `int`, `x`): the range of
// strings the regex can match at all (RE2::PossibleMatchRange, computed once) rejects those with
// two string comparisons, before RE2 sets up a search (which also takes a lock inside RE2, shared
// by the workers).
#include <string>
#include <string_view>

#include <re2/re2.h>

namespace mpsready {

class WholeMatchRegex {
 public:
  explicit WholeMatchRegex(const std::string& pattern) : re_(pattern, RE2::Quiet) {
    if (re_.ok()) bounded_ = re_.PossibleMatchRange(&min_, &max_, 16);
  }
  bool ok() const { return re_.ok(); }
  const std::string& error() const { return re_.error(); }
  // Whether the range check is in use (false for a pattern like `.*x`, which any string may start).
  bool bounded() const { return bounded_; }

  bool full_match(std::string_view text) const {
    if (bounded_ && (text < min_ || text > max_)) return false;
    return RE2::FullMatch(text, re_);
  }

 private:
  RE2 re_;
  bool bounded_ = false;
  std::string min_, max_;
};

}  // namespace mpsready
