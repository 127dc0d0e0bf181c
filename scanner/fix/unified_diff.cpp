#include "fix/unified_diff.h"

#include <algorithm>

#include "fix/apply_edits.h"

namespace mpsready {

namespace {

constexpr size_t kContext = 3;

// Lines with their newline (the last may lack one).
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t at = 0;
  while (at < text.size()) {
    const size_t nl = text.find('\n', at);
    const size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(at, end - at));
    at = end;
  }
  return lines;
}

// Consecutive old lines [first, last] that some edits rewrite, and what they become.
struct Block {
  size_t first = 0, last = 0;
  std::vector<Edit> edits;
  std::vector<std::string> new_lines;
};

void put_line(std::string& out, char mark, std::string_view line) {
  out += mark;
  out.append(line);
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string unified_diff(const std::string& path, std::string_view text, const std::vector<Edit>& edits) {
  if (edits.empty()) return "";
  const std::vector<std::string_view> lines = split_lines(text);
  std::vector<size_t> line_start;
  for (size_t i = 0, at = 0; i < lines.size(); at += lines[i].size(), ++i) line_start.push_back(at);
  const auto line_of = [&](uint32_t byte) {
    const auto it = std::upper_bound(line_start.begin(), line_start.end(), byte);
    return it == line_start.begin() ? size_t{0} : size_t(it - line_start.begin() - 1);
  };

  std::vector<Block> blocks;
  for (const Edit& e : edits) {
    const size_t first = line_of(e.start);
    const size_t last = line_of(e.end > e.start ? e.end - 1 : e.start);
    if (!blocks.empty() && first <= blocks.back().last) {
      blocks.back().last = std::max(blocks.back().last, last);
      blocks.back().edits.push_back(e);
    } else {
      blocks.push_back({first, last, {e}, {}});
    }
  }
  for (Block& b : blocks) {
    const size_t from = line_start[b.first];
    const size_t to = line_start[b.last] + lines[b.last].size();
    std::vector<Edit> local = b.edits;
    for (Edit& e : local) {
      e.start -= from;
      e.end -= from;
    }
    const std::string rewritten = apply_edits(text.substr(from, to - from), local);
    for (std::string_view l : split_lines(rewritten)) b.new_lines.emplace_back(l);
  }

  std::string out = "--- a/" + path + "\n+++ b/" + path + "\n";
  long delta = 0;  // new line number minus old line number before the current hunk
  for (size_t i = 0; i < blocks.size();) {
    size_t j = i;  // blocks i..j share a hunk when their context would touch
    while (j + 1 < blocks.size() && blocks[j + 1].first - blocks[j].last - 1 <= 2 * kContext) ++j;
    const size_t hunk_first = blocks[i].first >= kContext ? blocks[i].first - kContext : 0;
    const size_t hunk_last = std::min(lines.size() - 1, blocks[j].last + kContext);
    std::string body;
    size_t old_count = 0, new_count = 0;
    size_t line = hunk_first;
    long hunk_delta = 0;
    for (size_t k = i; k <= j; ++k) {
      for (; line < blocks[k].first; ++line, ++old_count, ++new_count) put_line(body, ' ', lines[line]);
      // Lines an edit leaves as they were (around an inserted binding) stay context.
      const size_t old_size = blocks[k].last - blocks[k].first + 1;
      const std::vector<std::string>& fresh = blocks[k].new_lines;
      size_t same_before = 0, same_after = 0;
      while (same_before < old_size && same_before < fresh.size() &&
             lines[blocks[k].first + same_before] == fresh[same_before])
        ++same_before;
      while (same_after + same_before < old_size && same_after + same_before < fresh.size() &&
             lines[blocks[k].last - same_after] == fresh[fresh.size() - 1 - same_after])
        ++same_after;
      for (size_t n = 0; n < same_before; ++n) put_line(body, ' ', lines[line + n]);
      for (size_t n = same_before; n < old_size - same_after; ++n) put_line(body, '-', lines[line + n]);
      for (size_t n = same_before; n < fresh.size() - same_after; ++n) put_line(body, '+', fresh[n]);
      for (size_t n = old_size - same_after; n < old_size; ++n) put_line(body, ' ', lines[line + n]);
      line += old_size;
      old_count += old_size;
      new_count += fresh.size();
      hunk_delta += long(fresh.size()) - long(old_size);
    }
    for (; line <= hunk_last; ++line, ++old_count, ++new_count) put_line(body, ' ', lines[line]);
    const long old_start = long(hunk_first) + 1;
    const long new_start = old_start + delta;
    out += "@@ -" + std::to_string(old_start) + "," + std::to_string(old_count) + " +" +
           std::to_string(new_start) + "," + std::to_string(new_count) + " @@\n" + body;
    delta += hunk_delta;
    i = j + 1;
  }
  return out;
}

}  // namespace mpsready
