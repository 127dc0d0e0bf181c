#pragma once
// ANSI colours for the terminal reports; every function returns its text unchanged when colour is
// off, so a report written to a file or a pipe is byte-identical to one without colour support.
#include <string>

#include "core/impact.h"

namespace mpsready {

inline std::string paint(bool on, const char* code, const std::string& text) {
  return on ? std::string("\033[") + code + "m" + text + "\033[0m" : text;
}

inline std::string paint_impact(bool on, Impact impact) {
  const char* code = impact == Impact::blocker ? "1;31" : impact == Impact::portable ? "33" : "36";
  return paint(on, code, std::string(to_string(impact)));
}

inline std::string paint_verdict(bool on, Verdict verdict) {
  const char* code = verdict == Verdict::stay_on_linux ? "1;31" : verdict == Verdict::partial ? "1;33" : "1;32";
  return paint(on, code, std::string(to_string(verdict)));
}

}  // namespace mpsready
