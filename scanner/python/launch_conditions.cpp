#include "python/launch_conditions.h"

#include <cctype>
#include <optional>
#include <string>

#include "python/string_literal.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

// The variables a launcher (torchrun, Slurm) sets for each process it starts.
bool is_launcher_variable(std::string_view name) {
  return name == "RANK" || name == "LOCAL_RANK" || name == "WORLD_SIZE" || name == "LOCAL_WORLD_SIZE" ||
         name == "SLURM_PROCID";
}

std::string lower_last_name(std::string_view text) {
  std::string name(text);
  while (!name.empty() && (name.back() == ')' || name.back() == '(' || name.back() == ' ')) name.pop_back();
  if (const size_t dot = name.rfind('.'); dot != std::string::npos) name.erase(0, dot + 1);
  while (!name.empty() && name.front() == '_') name.erase(0, 1);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

// `world_size`, `args.world_size`, `get_world_size()`, `dist.get_world_size()`,
// `int(os.environ.get("WORLD_SIZE", 1))`: the number of processes, 1 on a Mac. A call is taken
// only without arguments, a name only as itself: `len(world)` or `n_gpu` are other numbers.
bool reads_as_world_size(std::string_view source, TSNode node) {
  const std::string_view text = node_text(source, node);
  if (node_is(node, "identifier") || node_is(node, "attribute"))
    return lower_last_name(text) == "world_size";
  if (!node_is(node, "call")) return false;
  const auto& f = PyFields::get();
  const TSNode function = ts_node_child_by_field_id(node, f.function);
  const TSNode args = ts_node_child_by_field_id(node, f.arguments);
  if (lower_last_name(node_text(source, function)) == "get_world_size")
    return ts_node_is_null(args) || ts_node_named_child_count(args) == 0;
  // `os.environ.get("WORLD_SIZE", 1)`, `int(os.getenv("WORLD_SIZE", "1"))`: unset on a Mac, so
  // the default, which is 1 where the code runs on one process at all.
  return (text.find("environ") != std::string_view::npos || text.find("getenv") != std::string_view::npos) &&
         (text.find("\"WORLD_SIZE\", 1") != std::string_view::npos ||
          text.find("\"WORLD_SIZE\", \"1\"") != std::string_view::npos ||
          text.find("'WORLD_SIZE', 1") != std::string_view::npos ||
          text.find("'WORLD_SIZE', '1'") != std::string_view::npos);
}

std::optional<long> integer_literal(std::string_view source, TSNode node) {
  if (!node_is(node, "integer")) return std::nullopt;
  const std::string_view text = node_text(source, node);
  if (text.empty() || text.size() > 6) return std::nullopt;
  long value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

int compare(long left, std::string_view op, long right) {
  if (op == "==") return left == right;
  if (op == "!=") return left != right;
  if (op == "<") return left < right;
  if (op == "<=") return left <= right;
  if (op == ">") return left > right;
  if (op == ">=") return left >= right;
  return 2;
}

// `dist.is_initialized()`, `torch.distributed.is_initialized()`, the repository's own
// `is_dist_avail_and_initialized()`: whether a process group exists, which only a launched run
// creates.
bool reads_as_process_group_test(std::string_view source, TSNode call) {
  const auto& f = PyFields::get();
  const std::string_view callee = node_text(source, ts_node_child_by_field_id(call, f.function));
  const std::string last = lower_last_name(callee);
  if (last == "is_initialized") return callee.find("dist") != std::string_view::npos;
  return last.find("dist") != std::string::npos && last.size() > 12 &&
         last.compare(last.size() - 12, 12, "_initialized") == 0;
}

}  // namespace

int launch_test_on_mac(std::string_view source, TSNode expr) {
  if (node_is(expr, "call")) return reads_as_process_group_test(source, expr) ? 0 : 2;
  if (!node_is(expr, "comparison_operator") || ts_node_named_child_count(expr) != 2) return 2;
  const TSNode left = ts_node_named_child(expr, 0);
  const TSNode right = ts_node_named_child(expr, 1);
  // The operator is what lies between the operands (`not in` is two tokens).
  std::string op;
  for (const char c : source.substr(ts_node_end_byte(left), ts_node_start_byte(right) - ts_node_end_byte(left)))
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '(' && c != ')') op += c;
  if (op == "notin") op = "not in";
  // `"RANK" in os.environ`: false on a Mac; `not in` true.
  if (op == "in" || op == "not in") {
    const auto name = node_is(left, "string") ? string_literal_content(source, left) : std::nullopt;
    const std::string_view where = node_text(source, right);
    if (!name || !is_launcher_variable(*name) || where.size() < 7 || where.substr(where.size() - 7) != "environ") return 2;
    return op == "in" ? 0 : 1;
  }
  if (reads_as_world_size(source, left))
    if (const auto n = integer_literal(source, right)) return compare(1, op, *n);
  if (reads_as_world_size(source, right))
    if (const auto n = integer_literal(source, left)) return compare(*n, op, 1);
  return 2;
}

}  // namespace mpsready
