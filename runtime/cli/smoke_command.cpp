#include "cli/smoke_command.h"

#include <fstream>
#include <iostream>

#include "report/confirmation.h"
#include "report/smoke_record.h"
#include "smoke/smoke_run.h"
#include "util/subprocess.h"
#if defined(MPSREADY_WITH_TORCH_OPS)
#include "ops/model_op_coverage.h"
#include "ops/native_functions_discovery.h"
#include "rules/rule_set.h"
#endif

namespace mpsready {

void add_smoke_options(CLI::App& cmd, SmokeCommandOptions& o, bool model_positional) {
  if (model_positional)
    cmd.add_option("model", o.run.model_path, "TorchScript archive (torch.jit.script/trace, saved with torch.jit.save)")
        ->required();
  else
    cmd.add_option("--model", o.run.model_path, "TorchScript archive of the repository's model")->required();
  cmd.add_option("--input", o.run.input_specs, "An input as SHAPE:DTYPE, e.g. 8x3x224x224:float32 (repeatable, in order)");
  cmd.add_option("--inputs", o.run.inputs_file, "Inputs saved by scripts/export-model.py, or torch.save of a tensor, a tuple or list of tensors, "
                 "or a dict from forward's argument names to tensors");
  cmd.add_option("--device", o.run.device, "Device to run on (auto prefers mps, then cuda, then cpu)")
      ->check(CLI::IsMember({"auto", "mps", "cuda", "cpu"}));
  cmd.add_option("--reference", o.run.reference, "Device the outputs are compared against")
      ->check(CLI::IsMember({"cpu", "cuda", "mps"}));
  cmd.add_flag("--train", o.run.train, "Also run a backward pass and one optimizer step on a scalar loss");
  cmd.add_option("--seed", o.run.seed, "Seed of the generated inputs (default 0)");
  cmd.add_option("--tolerance", o.tolerances, "Override a dtype's tolerance: DTYPE=ATOL,RTOL (repeatable)");
  cmd.add_option("--sweep", o.sweep, "Batch sizes to time, e.g. 1,2,4,8 (scales every input's first dimension)");
  cmd.add_option("--warmup", o.run.warmup, "Untimed steps before each timing (default 3)")->check(CLI::NonNegativeNumber);
  cmd.add_option("--iterations", o.run.iterations, "Timed steps per batch size (default 10)")->check(CLI::PositiveNumber);
  cmd.add_option("--growth-iterations", o.run.growth_iterations, "Steps of the memory-growth check (default 20; 0 skips)")
      ->check(CLI::NonNegativeNumber);
  cmd.add_option("--growth-threshold", o.run.growth_threshold, "Flag memory rising by this fraction or more (default 0.26)");
  cmd.add_option("--speedup-threshold", o.run.speedup_threshold,
                 "Flag a device less than this fraction faster than the CPU (default 0.22)");
  cmd.add_option("--profile-steps", o.run.profile_steps, "Steps under the op profiler (default 5; 0 skips)")
      ->check(CLI::NonNegativeNumber);
  cmd.add_option("--out-dir", o.run.out_dir,
                 "Write outputs.pt, trace.json, sweep.csv, sweep.svg to DIR (default: no files are written)");
  cmd.add_option("--record", o.run.record_golden, "Write golden outputs to FILE (JSON, with FILE's .outputs.pt)");
  cmd.add_option("--compare", o.run.compare_golden, "Compare the outputs with a golden FILE from --record");
  cmd.add_flag("--no-fresh-process", o.no_fresh_process, "Skip re-running the model in a fresh process");
  cmd.add_option("--format", o.format, "Output format")->check(CLI::IsMember({"text", "json"}));
  cmd.add_option("-o,--output", o.output, "Write the record to FILE instead of stdout");
  // Used by the fresh-process check; not for people.
  cmd.add_flag("--print-output-hashes", o.print_output_hashes)->group("");
}

std::string finish_smoke_options(const char* argv0, SmokeCommandOptions& o) {
  for (const auto& t : o.tolerances)
    if (auto error = o.run.tolerances.override_from(t); !error.empty()) return error;
  o.run.sweep.clear();
  if (!o.sweep.empty()) {
    size_t pos = 0;
    while (pos <= o.sweep.size()) {
      size_t end = o.sweep.find(',', pos);
      if (end == std::string::npos) end = o.sweep.size();
      const std::string item = o.sweep.substr(pos, end - pos);
      if (item.empty() || item.size() > 9 || item.find_first_not_of("0123456789") != std::string::npos ||
          std::stoll(item) < 1)
        return "--sweep " + o.sweep + ": expected positive batch sizes separated by commas, e.g. 1,2,4,8";
      o.run.sweep.push_back(std::stoll(item));
      pos = end + 1;
    }
  }
  if (!o.no_fresh_process) {
    o.run.self_exe = self_executable(argv0);
    auto& a = o.run.fresh_process_args;
    a = {"smoke", o.run.model_path, "--device", o.run.device, "--seed", std::to_string(o.run.seed),
         "--print-output-hashes"};
    for (const auto& s : o.run.input_specs) a.insert(a.end(), {"--input", s});
    if (!o.run.inputs_file.empty()) a.insert(a.end(), {"--inputs", o.run.inputs_file});
  }
#if defined(MPSREADY_WITH_TORCH_OPS)
  // The op-status table predicts which ops fall back on MPS (README "Op coverage").
  ModelCoverageOptions coverage;
  coverage.settings.tables_dir = op_tables_dir(default_rules_dir("", argv0));
  o.run.predict_fallbacks = [coverage](const torch::jit::Module& module, const std::string& device,
                                       const std::vector<torch::Tensor>& inputs) -> std::optional<FallbackForecast> {
    ModelCoverageOptions traced = coverage;
    traced.inputs = inputs;  // smoke always knows the inputs: trace what runs
    auto prediction = predict_mps_fallbacks(module, device, traced);
    if (!prediction) return std::nullopt;
    return FallbackForecast{prediction->ops, prediction->method, prediction->trace_error};
  };
#endif
  return "";
}

int run_smoke_command(const char* argv0, SmokeCommandOptions& o, const std::string& version) {
  if (auto error = finish_smoke_options(argv0, o); !error.empty()) {
    std::cerr << "mpsready: " << error << "\n";
    return 2;
  }
  if (o.print_output_hashes) return print_output_hashes(o.run);
  SmokeRun run = run_smoke(o.run);
  if (!run.usage_error.empty() && !run.result.forward_ran) {
    std::cerr << "mpsready: " << run.usage_error << "\n";
    return 2;
  }
  const Confirmation confirmation = confirm(run.result, std::nullopt);
  std::ofstream file;
  if (!o.output.empty()) {
    file.open(o.output, std::ios::trunc);
    if (!file) {
      std::cerr << "mpsready: cannot write " << o.output << "\n";
      return 2;
    }
  }
  std::ostream& out = o.output.empty() ? std::cout : file;
  if (o.format == "json") out << smoke_record(run.result, confirmation, version).dump(2) << "\n";
  else write_smoke_text(out, run.result, confirmation);
  out.flush();
  if (!run.usage_error.empty()) {
    std::cerr << "mpsready: " << run.usage_error << "\n";
    return 2;
  }
  return smoke_failed(run.result, confirmation) ? 1 : 0;
}

}  // namespace mpsready
