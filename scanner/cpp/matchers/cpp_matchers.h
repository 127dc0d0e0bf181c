#pragma once
// The C++/CUDA matcher kinds, one file each, and the registry that builds them from rule specs.
#include <memory>

#include "cpp_file.h"
#include "rules/rule.h"
#include "rules/rule_set.h"

namespace mpsready {

std::unique_ptr<CppMatcher> compile_cpp_matcher(const MatcherSpec& spec, const Rule& rule, const RuleSet& rules);

std::unique_ptr<CppMatcher> make_cpp_kernel_matcher(const nlohmann::json& params, const Rule& rule);
std::unique_ptr<CppMatcher> make_cpp_launch_matcher(const nlohmann::json& params, const Rule& rule);
std::unique_ptr<CppMatcher> make_cpp_call_matcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules);
std::unique_ptr<CppMatcher> make_cpp_asm_matcher(const nlohmann::json& params, const Rule& rule);
std::unique_ptr<CppMatcher> make_cpp_include_matcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules);
std::unique_ptr<CppMatcher> make_cpp_token_matcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules);
std::unique_ptr<CppMatcher> make_cpp_macro_matcher(const nlohmann::json& params, const Rule& rule);

}  // namespace mpsready
