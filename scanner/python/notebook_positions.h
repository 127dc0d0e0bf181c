#pragma once
// Where each string of a notebook's cell sources lies in the .ipynb bytes: what a fix edits and
// what a SARIF region points at. Only what nbformat 4 puts there is read:
// {"cells": [{"source": "..." | ["...", ...]}]}, nesting bounded (512 levels).
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mpsready {

inline constexpr size_t kNoRaw = static_cast<size_t>(-1);

// One JSON string of a cell's "source", decoded, with where each decoded byte came from.
struct SourceString {
  size_t raw_start = 0;         // the first byte after the opening quote
  std::string text;             // decoded
  std::vector<size_t> raw_at;   // per decoded byte, and one past the last: the raw byte where its
                                // character starts (kNoRaw inside a character written as an escape)
  bool escapes_non_ascii = false;  // a character >= U+0080 is written as \uXXXX
};

// The source strings of every cell, by 1-based cell position among all cells; false when the
// bytes are not one JSON value (or nest deeper than the bound).
bool locate_cell_sources(std::string_view notebook, std::map<int, std::vector<SourceString>>& out);

}  // namespace mpsready
