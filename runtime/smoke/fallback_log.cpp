#include "smoke/fallback_log.h"

#include <cstdlib>
#include <regex>

namespace mpsready {

namespace {

// Wording from aten/src/ATen/mps/MPSFallback.mm; matched loosely because it changed across
// releases ("The operator 'aten::foo' ..." in every version seen).
const std::regex& fallback_pattern() {
  static const std::regex re(
      R"(operator '([^']+)' is not currently supported on the MPS backend and will fall back to run on the CPU)");
  return re;
}
const std::regex& unimplemented_pattern() {
  static const std::regex re(R"(operator '([^']+)' is not currently implemented for the MPS device)");
  return re;
}

constexpr size_t kMaxOtherWarnings = 20;

#if TORCH_VERSION_MAJOR >= 2
namespace warning_api = c10::WarningUtils;
#else
namespace warning_api = c10::Warning;
#endif

}  // namespace

std::optional<std::string> fallback_op_from_warning(const std::string& text) {
  std::smatch m;
  if (std::regex_search(text, m, fallback_pattern())) return m[1].str();
  return std::nullopt;
}

std::optional<std::string> unimplemented_op_from_error(const std::string& text) {
  std::smatch m;
  if (std::regex_search(text, m, unimplemented_pattern())) return m[1].str();
  return std::nullopt;
}

void FallbackCapture::Handler::take(const std::string& msg) {
  if (auto op = fallback_op_from_warning(msg)) {
    log_.fallback_ops.insert(*op);
    return;
  }
  if (auto op = unimplemented_op_from_error(msg)) {
    log_.unimplemented_ops.insert(*op);
    return;
  }
  for (const auto& w : log_.other_warnings)
    if (w == msg) return;
  if (log_.other_warnings.size() < kMaxOtherWarnings) log_.other_warnings.push_back(msg);
}

#if TORCH_VERSION_MAJOR >= 2
void FallbackCapture::Handler::process(const c10::Warning& warning) { take(warning.msg()); }
#else
void FallbackCapture::Handler::process(const c10::SourceLocation&, const std::string& msg, bool) { take(msg); }
#endif

FallbackCapture::FallbackCapture(FallbackLog& log)
    : log_(log), handler_(log), previous_(warning_api::get_warning_handler()),
      previous_warn_always_(warning_api::get_warnAlways()) {
  warning_api::set_warning_handler(&handler_);
  warning_api::set_warnAlways(true);
}

FallbackCapture::~FallbackCapture() {
  warning_api::set_warnAlways(previous_warn_always_);
  warning_api::set_warning_handler(previous_);
}

void FallbackCapture::note_error(const std::string& text) {
  if (auto op = unimplemented_op_from_error(text)) log_.unimplemented_ops.insert(*op);
}

std::optional<std::string> mps_fallback_env() {
  const char* v = std::getenv("PYTORCH_ENABLE_MPS_FALLBACK");
  if (!v) return std::nullopt;
  return std::string(v);
}

}  // namespace mpsready
