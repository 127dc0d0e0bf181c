// `mpsready ops MODEL.pt`: every aten op of a TorchScript model with its MPS status; `--trace FILE`:
// the same for calls recorded on another machine.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/ops_command.h"
#include "ops/answering_tables.h"
#include "ops/model_op_coverage.h"
#include "ops/native_functions_discovery.h"
#include "ops/op_coverage_report.h"
#include "ops/recorded_trace.h"
#include "rules/rule_set.h"
#include "smoke/input_spec.h"

namespace mpsready {

namespace {

// `--trace FILE`: the calls a forward pass dispatched on another machine, answered from the tables
// here. No model is loaded, so the PyTorch that ran the trace may differ from the one linked here.
ModelCoverage coverage_of_recorded_trace(const std::string& path, const OpCoverageSettings& settings) {
  ModelCoverage result;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    result.error = "cannot read the trace " + path;
    return result;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const RecordedTrace trace = parse_recorded_trace(text.str());
  if (!trace.error.empty()) {
    result.error = path + ": " + trace.error;
    return result;
  }
  const AnsweringTables tables = load_answering_tables(settings);
  if (!tables.error.empty()) {
    result.error = tables.error;
    return result;
  }
  result.report = report_from_trace(trace.calls, tables.views, tables.target);
  result.report.subject = path;
  if (!trace.torch_version.empty()) result.report.traced_with = "LibTorch " + trace.torch_version;
  return result;
}

}  // namespace

int run_ops_command(const std::string& rules_dir, const char* argv0, const OpsCommandOptions& options) {
  std::error_code ec;
  ModelCoverageOptions coverage;
  coverage.settings.native_functions = options.native_functions;
  coverage.settings.torch_version = options.torch_version;
  coverage.settings.tables_dir = op_tables_dir(default_rules_dir(rules_dir, argv0));
  if (options.model.empty() == options.trace_file.empty()) {
    std::cerr << "mpsready: give a model file or --trace FILE (one of the two)\n";
    return 2;
  }
  if (!options.trace_file.empty() && (!options.input_specs.empty() || !options.inputs_file.empty())) {
    std::cerr << "mpsready: --trace already lists what ran: --input and --inputs are for a model\n";
    return 2;
  }
  if (!options.model.empty() && !std::filesystem::is_regular_file(options.model, ec)) {
    std::cerr << "mpsready: model not found: " << options.model << "\n";
    return 2;
  }
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
  const ModelCoverage result = options.trace_file.empty() ? model_op_coverage(options.model, coverage)
                                                          : coverage_of_recorded_trace(options.trace_file, coverage.settings);
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
