// `mpsready ops MODEL.pt`: every aten op of a TorchScript model with its MPS status.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "ops/model_op_coverage.h"
#include "ops/native_functions_discovery.h"
#include "ops/op_coverage_report.h"
#include "rules/rule_set.h"
#include "smoke/input_spec.h"

namespace mpsready {

// Built into mpsready-runtime only: it loads the model with LibTorch.
int run_ops_command(const GlobalOptions& global, const OpsCommandOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(options.model, ec)) {
    std::cerr << "mpsready: model not found: " << options.model << "\n";
    return 2;
  }
  ModelCoverageOptions coverage;
  coverage.settings.native_functions = options.native_functions;
  coverage.settings.torch_version = options.torch_version;
  coverage.settings.tables_dir = op_tables_dir(default_rules_dir(global.rules_dir, global.argv0));
  // Inputs known: trace what runs. Without them only the graph is listed.
  if (!options.input_specs.empty() && !options.inputs_file.empty()) {
    std::cerr << "mpsready: --input and --inputs cannot be used together\n";
    return 2;
  }
  std::string input_error;
  if (!options.input_specs.empty()) {
    std::vector<InputSpec> specs;
    for (const auto& text : options.input_specs) {
      auto spec = parse_input_spec(text, input_error);
      if (!spec) {
        std::cerr << "mpsready: " << input_error << "\n";
        return 2;
      }
      specs.push_back(*spec);
    }
    coverage.inputs = make_inputs(specs, options.seed);
  } else if (!options.inputs_file.empty()) {
    auto loaded = load_inputs_file(options.inputs_file, input_error);
    if (!loaded) {
      std::cerr << "mpsready: " << input_error << "\n";
      return 2;
    }
    coverage.inputs = *loaded;
  }
  const ModelCoverage result = model_op_coverage(options.model, coverage);
  if (!result.error.empty()) {
    std::cerr << "mpsready: " << result.error << "\n";
    return 2;
  }
  std::ofstream file;
  if (!options.output.empty()) {
    file.open(options.output, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "mpsready: cannot write " << options.output << "\n";
      return 2;
    }
  }
  std::ostream& out = options.output.empty() ? std::cout : file;
  if (options.format == "json") write_op_coverage_json(out, result.report);
  else write_op_coverage_text(out, result.report);
  out.flush();
  return 0;
}

}  // namespace mpsready
