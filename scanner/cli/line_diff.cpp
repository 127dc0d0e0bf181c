#include "cli/line_diff.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace mpsready {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

std::vector<bool> added_lines(const std::vector<std::string_view>& before, const std::vector<std::string_view>& after,
                              size_t max_edits) {
  std::vector<bool> added(after.size(), false);
  // Common first and last lines are never edits.
  size_t prefix = 0;
  while (prefix < before.size() && prefix < after.size() && before[prefix] == after[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < before.size() - prefix && suffix < after.size() - prefix &&
         before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix])
    ++suffix;
  const long n = static_cast<long>(before.size() - prefix - suffix);
  const long m = static_cast<long>(after.size() - prefix - suffix);
  if (m == 0) return added;
  const auto mark_all = [&] {
    for (long j = 0; j < m; ++j) added[prefix + static_cast<size_t>(j)] = true;
    return added;
  };
  if (n == 0) return mark_all();
  // Lines as small integers, so the inner loop compares ints.
  std::unordered_map<std::string_view, int> ids;
  std::vector<int> a(static_cast<size_t>(n)), b(static_cast<size_t>(m));
  for (long i = 0; i < n; ++i) a[i] = ids.emplace(before[prefix + i], static_cast<int>(ids.size())).first->second;
  for (long j = 0; j < m; ++j) b[j] = ids.emplace(after[prefix + j], static_cast<int>(ids.size())).first->second;

  // Forward pass. v[k + offset] is the furthest x on diagonal k (k = x - y); trace[d] keeps the
  // values of diagonals -d, -d+2, ..., d after step d, for the walk back.
  const long limit = std::min<long>(n + m, static_cast<long>(max_edits));
  const long offset = limit + 1;
  std::vector<long> v(static_cast<size_t>(2 * offset + 1), 0);
  std::vector<std::vector<long>> trace;
  long found = -1;
  for (long d = 0; d <= limit && found < 0; ++d) {
    for (long k = -d; k <= d; k += 2) {
      long x;
      if (d == 0) x = 0;
      else if (k == -d || (k != d && v[k - 1 + offset] < v[k + 1 + offset])) x = v[k + 1 + offset];  // down: b[y] inserted
      else x = v[k - 1 + offset] + 1;  // right: a[x] deleted
      long y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      v[k + offset] = x;
      if (x >= n && y >= m) found = d;
    }
    std::vector<long> row;
    row.reserve(static_cast<size_t>(d + 1));
    for (long k = -d; k <= d; k += 2) row.push_back(v[k + offset]);
    trace.push_back(std::move(row));
  }
  if (found < 0) return mark_all();

  // Walk back from (n, m): each step down is an added line of `after`.
  long x = n, y = m;
  for (long d = found; d > 0; --d) {
    const std::vector<long>& prev = trace[static_cast<size_t>(d - 1)];
    const auto at = [&](long k) { return prev[static_cast<size_t>((k + d - 1) / 2)]; };
    const long k = x - y;
    const bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
    const long prev_k = down ? k + 1 : k - 1;
    const long prev_x = at(prev_k);
    const long prev_y = prev_x - prev_k;
    if (down) added[prefix + static_cast<size_t>(prev_y)] = true;
    x = prev_x;
    y = prev_y;
  }
  return added;
}

}  // namespace mpsready
