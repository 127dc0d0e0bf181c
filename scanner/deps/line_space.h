#pragma once
// The blanks of the line-oriented dependency files (requirements, shell scripts, setup.cfg):
// spaces, tabs and a carriage return left by CRLF line endings.

namespace mpsready::deps_text {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace mpsready::deps_text
