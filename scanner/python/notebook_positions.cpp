#include "python/notebook_positions.h"

#include <cstdint>

#include "core/source_text.h"

namespace mpsready {

namespace {

constexpr int kMaxDepth = 512;

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}


// Walks the notebook's JSON and keeps the strings of each cell's "source" with their positions.
// Only what nbformat 4 puts there is looked at: {"cells": [{"source": "..." | ["...", ...]}]}.
class SourceLocator {
 public:
  explicit SourceLocator(std::string_view json) : s_(json) {}

  bool run(std::map<int, std::vector<SourceString>>& out) {
    out_ = &out;
    if (!value(Role::root, 0, 0)) return false;
    skip_space();
    return i_ == s_.size();
  }

 private:
  enum class Role { root, cells, cell, source, source_part, other };

  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }

  bool hex4(size_t at, uint32_t& value) const {
    if (at + 4 > s_.size()) return false;
    value = 0;
    for (size_t k = 0; k < 4; ++k) {
      const int h = hex_value(s_[at + k]);
      if (h < 0) return false;
      value = value * 16 + static_cast<uint32_t>(h);
    }
    return true;
  }

  bool string(SourceString& out) {
    if (i_ >= s_.size() || s_[i_] != '"') return false;
    ++i_;
    out.raw_start = i_;
    while (i_ < s_.size() && s_[i_] != '"') {
      const size_t at = i_;
      if (s_[i_] != '\\') {
        out.text += s_[i_++];
        out.raw_at.push_back(at);
        continue;
      }
      if (i_ + 1 >= s_.size()) return false;
      const char e = s_[i_ + 1];
      i_ += 2;
      uint32_t cp = 0;
      switch (e) {
        case '"': cp = '"'; break;
        case '\\': cp = '\\'; break;
        case '/': cp = '/'; break;
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'n': cp = '\n'; break;
        case 'r': cp = '\r'; break;
        case 't': cp = '\t'; break;
        case 'u': {
          if (!hex4(i_, cp)) return false;
          i_ += 4;
          uint32_t low = 0;
          if (cp >= 0xD800 && cp < 0xDC00 && i_ + 1 < s_.size() && s_[i_] == '\\' && s_[i_ + 1] == 'u' &&
              hex4(i_ + 2, low) && low >= 0xDC00 && low < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            i_ += 6;
          }
          if (cp >= 0x80) out.escapes_non_ascii = true;
          break;
        }
        default: return false;
      }
      const size_t before = out.text.size();
      append_utf8(out.text, cp);
      out.raw_at.push_back(at);
      for (size_t k = before + 1; k < out.text.size(); ++k) out.raw_at.push_back(kNoRaw);
    }
    if (i_ >= s_.size()) return false;
    out.raw_at.push_back(i_);
    ++i_;  // the closing quote
    return true;
  }

  bool value(Role role, int cell, int depth) {
    if (depth > kMaxDepth) return false;
    skip_space();
    if (i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      skip_space();
      if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
      while (true) {
        skip_space();
        SourceString key;
        if (!string(key)) return false;
        skip_space();
        if (i_ >= s_.size() || s_[i_] != ':') return false;
        ++i_;
        Role child = Role::other;
        if (role == Role::root && key.text == "cells") child = Role::cells;
        if (role == Role::cell && key.text == "source") {
          child = Role::source;
          (*out_)[cell].clear();  // a repeated key: the last one counts, as for any JSON reader
        }
        if (!value(child, cell, depth + 1)) return false;
        skip_space();
        if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
        if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
        return false;
      }
    }
    if (c == '[') {
      ++i_;
      skip_space();
      if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
      for (int index = 0;; ++index) {
        Role child = Role::other;
        int child_cell = cell;
        if (role == Role::cells) child = Role::cell, child_cell = index + 1;
        if (role == Role::source) child = Role::source_part;
        if (!value(child, child_cell, depth + 1)) return false;
        skip_space();
        if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
        if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
        return false;
      }
    }
    if (c == '"') {
      SourceString s;
      if (!string(s)) return false;
      if (role == Role::source || role == Role::source_part) (*out_)[cell].push_back(std::move(s));
      return true;
    }
    const size_t start = i_;
    while (i_ < s_.size() && std::string_view(",]} \t\r\n").find(s_[i_]) == std::string_view::npos) ++i_;
    return i_ > start;
  }

  std::string_view s_;
  size_t i_ = 0;
  std::map<int, std::vector<SourceString>>* out_ = nullptr;
};

}  // namespace

bool locate_cell_sources(std::string_view notebook, std::map<int, std::vector<SourceString>>& out) {
  SourceLocator locator(notebook);
  return locator.run(out);
}

}  // namespace mpsready
