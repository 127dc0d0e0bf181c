#include "smoke/forward_args.h"

#include <algorithm>
#include <map>

namespace mpsready {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "(none)" : s;
}

}  // namespace

std::optional<std::vector<std::string>> forward_argument_names(const torch::jit::Module& module) {
  auto forward = module.find_method("forward");
  if (!forward) return std::nullopt;
  std::vector<std::string> names;
  const auto& args = forward->function().getSchema().arguments();
  for (size_t i = 1; i < args.size(); ++i) names.push_back(args[i].name());  // args[0] is self
  return names;
}

std::optional<std::vector<torch::Tensor>> bind_to_forward(const InputsFile& file, const torch::jit::Module& module,
                                                          const std::string& path, std::string& error) {
  const std::string what = "--inputs " + path + ": a dict of named inputs";
  auto forward = module.find_method("forward");
  if (!forward) {
    error = what + ", but the model has no forward method to name its arguments; save a tuple or list of tensors";
    return std::nullopt;
  }
  const auto& args = forward->function().getSchema().arguments();
  std::vector<std::string> names;
  for (size_t i = 1; i < args.size(); ++i) names.push_back(args[i].name());
  std::map<std::string, torch::Tensor> given;
  for (size_t i = 0; i < file.names.size(); ++i) given[file.names[i]] = file.tensors[i];
  for (const auto& [name, tensor] : given) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      error = what + " with the key \"" + name + "\", which is not an argument of forward (" + joined(names) +
              "); the keys must be forward's argument names, or save a tuple or list of tensors in forward's order";
      return std::nullopt;
    }
  }
  std::vector<torch::Tensor> ordered;
  std::string first_left_out;
  for (size_t i = 1; i < args.size(); ++i) {
    const auto it = given.find(args[i].name());
    if (it == given.end()) {
      if (!args[i].default_value()) {
        error = what + " without \"" + args[i].name() + "\", which forward needs (forward takes " + joined(names) + ")";
        return std::nullopt;
      }
      if (first_left_out.empty()) first_left_out = args[i].name();
      continue;
    }
    if (!first_left_out.empty()) {
      error = what + " that leaves out \"" + first_left_out + "\" but gives the later \"" + args[i].name() +
              "\"; inputs are passed by position, so only trailing arguments with defaults may be left out";
      return std::nullopt;
    }
    ordered.push_back(it->second);
  }
  return ordered;
}

}  // namespace mpsready
