#pragma once
// Captures what LibTorch says while the model runs: the MPS backend's "will fall back to run on
// the CPU" warnings (one per op, once warn-always is on) and its "not currently implemented for
// the MPS device" errors, each with the op's name. Other warnings are kept too, for the record.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <c10/util/Exception.h>
#include <torch/version.h>

namespace mpsready {

// The op named by an MPS CPU-fallback warning, e.g. "aten::_linalg_svd.U"; nullopt when the text
// is not such a warning.
std::optional<std::string> fallback_op_from_warning(const std::string& text);
// The op named by an MPS "not currently implemented" error (current and older wording).
std::optional<std::string> unimplemented_op_from_error(const std::string& text);

struct FallbackLog {
  std::set<std::string> fallback_ops;       // ran, but on the CPU
  std::set<std::string> unimplemented_ops;  // could not run at all
  std::vector<std::string> other_warnings;  // first few other warnings, deduplicated
};

// While alive: every LibTorch warning goes to `log` (not to stderr), and TORCH_WARN_ONCE warns
// every time, so each falling-back op is seen, not only the first.
class FallbackCapture {
 public:
  explicit FallbackCapture(FallbackLog& log);
  ~FallbackCapture();
  FallbackCapture(const FallbackCapture&) = delete;
  FallbackCapture& operator=(const FallbackCapture&) = delete;

  // Records an error thrown by the model run when it names an unimplemented MPS op.
  void note_error(const std::string& text);

 private:
  class Handler : public c10::WarningHandler {
   public:
    explicit Handler(FallbackLog& log) : log_(log) {}
#if TORCH_VERSION_MAJOR >= 2
    void process(const c10::Warning& warning) override;
#else
    void process(const c10::SourceLocation& source_location, const std::string& msg, bool verbatim) override;
#endif
    void take(const std::string& msg);

   private:
    FallbackLog& log_;
  };
  FallbackLog& log_;
  Handler handler_;
  c10::WarningHandler* previous_;
  bool previous_warn_always_;
};

// PYTORCH_ENABLE_MPS_FALLBACK as the process saw it at start (nullopt when unset). LibTorch
// reads it when its MPS ops register, so only the value at process start matters.
std::optional<std::string> mps_fallback_env();

}  // namespace mpsready
