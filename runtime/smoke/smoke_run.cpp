#include "smoke/smoke_run.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include <unistd.h>

#include <ATen/Context.h>

#include "env/device.h"
#include "env/run_info.h"
#include "report/sweep_files.h"
#include "smoke/forward_args.h"
#include "smoke/golden.h"
#include "smoke/input_spec.h"
#include "smoke/measure_batch.h"
#include "smoke/model_file.h"
#include "smoke/model_step.h"
#include "smoke/outputs.h"
#include "smoke/step_timing.h"
#include "util/error_text.h"
#include "util/sha256.h"
#include "util/subprocess.h"

namespace mpsready {

namespace {

std::string error_text(const std::exception& e) {
  std::string s = exception_text(e);
  // LibTorch appends the TorchScript call stack after the message; the first lines say enough.
  size_t cut = 0;
  for (int lines = 0; lines < 12 && cut != std::string::npos; ++lines) cut = s.find('\n', cut + 1);
  if (cut != std::string::npos) s = s.substr(0, cut) + "\n…";
  return s;
}

TensorSummary summarize(const torch::Tensor& t, const std::string& source = "") {
  TensorSummary s;
  s.shape = t.sizes().vec();
  s.dtype = dtype_name(t.scalar_type());
  s.sha256 = tensor_hash(t);
  s.source = source;
  return s;
}

// float32 means float32 on every device: TF32 (CUDA's default for convolutions) would make a
// CUDA golden record differ from the CPU and MPS by far more than float32 rounding.
void use_full_float32(const torch::Device& device) {
  if (!device.is_cuda()) return;
  at::globalContext().setAllowTF32CuDNN(false);
  at::globalContext().setAllowTF32CuBLAS(false);
}

struct Prepared {
  std::string error;
  Environment env;
  DeviceChoice device;
  std::vector<torch::Tensor> inputs;  // on the CPU
  std::vector<std::string> input_sources;  // the record's `source` of each input
  ModelFileCheck model;
};

Prepared prepare(const SmokeOptions& options) {
  Prepared p;
  p.env = probe_environment();
  p.device = choose_device(options.device, p.env);
  if (!p.device.ok) {
    p.error = p.device.error;
    return p;
  }
  p.model = inspect_model_file(options.model_path);
  if (p.model.kind != ModelFileKind::torchscript) {
    p.error = p.model.message;
    return p;
  }
  if (options.input_specs.empty() == options.inputs_file.empty()) {
    p.error = options.inputs_file.empty()
                  ? "give the model's inputs: --input SHAPE:DTYPE (repeatable) or --inputs FILE"
                  : "--input and --inputs cannot be used together";
    return p;
  }
  if (!options.input_specs.empty()) {
    std::vector<InputSpec> specs;
    for (const auto& text : options.input_specs) {
      auto spec = parse_input_spec(text, p.error);
      if (!spec) return p;
      specs.push_back(*spec);
    }
    p.inputs = make_inputs(specs, options.seed);
    p.input_sources = options.input_specs;
  } else {
    auto loaded = read_inputs_file(options.inputs_file, p.error);
    if (!loaded) return p;
    if (loaded->names.empty()) {
      p.inputs = loaded->tensors;
      p.input_sources.assign(p.inputs.size(), "file");
    } else {
      // A dict names forward's arguments: the model's schema says their order.
      try {
        const torch::jit::Module module = torch::jit::load(options.model_path, torch::kCPU);
        auto bound = bind_to_forward(*loaded, module, options.inputs_file, p.error);
        if (!bound) return p;
        p.inputs = *bound;
        // Only trailing arguments may be left out, so the inputs are forward's first arguments.
        const auto names = *forward_argument_names(module);
        for (size_t i = 0; i < p.inputs.size(); ++i) p.input_sources.push_back("file:" + names[i]);
      } catch (const std::exception& e) {
        p.error = options.model_path + ": LibTorch cannot load this TorchScript archive: " + exception_text(e);
        return p;
      }
    }
  }
  use_full_float32(p.device.device);
  return p;
}

// Explains an error from the model's first forward pass: a wrong input shape or dtype gives the
// model's own error, which names the op but not the cause.
std::string explain_forward_error(const std::string& message, const std::vector<torch::Tensor>& inputs) {
  std::string shapes;
  for (const auto& t : inputs) shapes += (shapes.empty() ? "" : ", ") + c10::str(t.sizes()) + ":" + dtype_name(t.scalar_type());
  return message + "\n(the model was given " + std::to_string(inputs.size()) + " input(s): " + shapes +
         "; if these are not the shapes and dtypes it expects, fix --input/--inputs)";
}

std::vector<std::string> sorted_vector(const std::set<std::string>& s) { return {s.begin(), s.end()}; }

}  // namespace

SmokeRun run_smoke(const SmokeOptions& options) {
  SmokeRun run;
  SmokeResult& r = run.result;
  r.run = make_run_info(options.argv, options.warmup, options.iterations);
  Prepared p = prepare(options);
  r.environment = p.env;
  r.device = p.device;
  if (!p.error.empty()) {
    run.usage_error = p.error;
    return run;
  }
  const torch::Device device = p.device.device;
  r.seed = options.seed;
  r.model_path = options.model_path;
  r.model_sha256 = sha256_file(options.model_path);
  r.model_format = to_string(p.model.kind);
  std::error_code ec;
  r.model_bytes = std::filesystem::file_size(options.model_path, ec);
  for (size_t i = 0; i < p.inputs.size(); ++i)
    r.inputs.push_back(summarize(p.inputs[i], p.input_sources[i]));
  for (const auto& dtype : {c10::kFloat, c10::kHalf, c10::kBFloat16, c10::kDouble, c10::kComplexFloat})
    r.tolerances.emplace_back(dtype_name(dtype), options.tolerances.lookup(dtype));

  std::string ref_error;
  auto reference_device = parse_reference_device(options.reference, p.env, ref_error);
  if (!reference_device) {
    run.usage_error = ref_error;
    return run;
  }

  torch::jit::Module cpu_module;
  try {
    cpu_module = load_module(options.model_path, torch::kCPU);
  } catch (const std::exception& e) {
    run.usage_error = options.model_path + ": LibTorch cannot load this TorchScript archive: " + error_text(e);
    return run;
  }
  r.mps_blockers = find_mps_blockers(cpu_module, p.inputs);
  r.matmul_device = matmul_check(device);
  r.fallback_env = mps_fallback_env();
  // Files go only where the user asked for them.
  const bool write_files = !options.out_dir.empty();
  if (write_files) std::filesystem::create_directories(options.out_dir, ec);

  FallbackCapture capture(r.fallbacks);
  torch::jit::Module module;
  std::vector<torch::Tensor> inputs;
  std::vector<torch::Tensor> outputs;
  if (device.is_mps() && !r.mps_blockers.empty()) {
    r.forward_error = "not run on MPS: the model or its inputs hold " + std::to_string(r.mps_blockers.size()) +
                      " tensor(s) MPS cannot hold (see mps_blockers)";
  } else {
    try {
      module = load_module(options.model_path, device);
      module.eval();
      inputs = to_device(p.inputs, device);
      torch::NoGradGuard no_grad;
      outputs = flatten_outputs(run_forward(module, inputs));
      synchronize(device);
      r.forward_ran = true;
    } catch (const std::exception& e) {
      capture.note_error(exception_text(e));
      r.forward_error = explain_forward_error(error_text(e), p.inputs);
    }
  }
  for (const auto& t : outputs) r.outputs.push_back(summarize(t));
  r.nonfinite_outputs = r.forward_ran && !all_finite(outputs);

  // The same model and inputs on the reference device, loaded separately.
  r.reference.device = c10::str(*reference_device);
  if (r.forward_ran) {
    try {
      torch::jit::Module ref_module =
          reference_device->is_cpu() ? cpu_module.clone() : load_module(options.model_path, *reference_device);
      ref_module.eval();
      torch::NoGradGuard no_grad;
      auto ref_outputs = flatten_outputs(run_forward(ref_module, to_device(p.inputs, *reference_device)));
      r.reference.comparison = compare_outputs(outputs, ref_outputs, options.tolerances);
      r.reference.ran = true;
    } catch (const std::exception& e) {
      r.reference.skipped = "the model failed on the reference device: " + error_text(e);
    }
  } else {
    r.reference.skipped = "the model did not run on " + r.device.used;
  }

  if (options.train && r.forward_ran) {
    TrainResult t;
    try {
      torch::jit::Module train_module = load_module(options.model_path, device);
      TrainStep step(train_module);
      t.loss = step.step(inputs, &t);
      torch::NoGradGuard no_grad;
      t.loss_after_step = scalar_loss(flatten_outputs(run_forward(train_module, inputs))).item<double>();
      t.ran = true;
    } catch (const std::exception& e) {
      capture.note_error(exception_text(e));
      t.error = error_text(e);
    }
    r.train = t;
  }

  if (r.forward_ran) {
    // Repeatability: the outputs survive a save and reload bit for bit, and a fresh process gets
    // the same bits.
    r.repeat.ran = true;
    // Without --out-dir the round trip uses a temporary file, removed at once and not recorded.
    const std::string outputs_file =
        write_files ? (std::filesystem::path(options.out_dir) / "outputs.pt").string()
                    : (std::filesystem::temp_directory_path() /
                       ("mpsready-outputs-" + std::to_string(::getpid()) + ".pt")).string();
    std::string error;
    if (save_outputs(outputs_file, outputs, error)) {
      auto reloaded = load_outputs(outputs_file, error);
      r.repeat.reloaded_bitwise_equal = reloaded && bitwise_equal(outputs, *reloaded);
    }
    if (write_files) r.repeat.outputs_file = outputs_file;
    else std::filesystem::remove(outputs_file, ec);
    r.repeat.error = error;
    if (options.self_exe.empty()) {
      r.repeat.fresh_process.error = "not run (--no-fresh-process, or no executable to re-run)";
    } else {
      const ProcessOutput child = run_capture(options.self_exe, options.fresh_process_args);
      std::vector<std::string> hashes;
      size_t pos = 0;
      while (pos < child.out.size()) {
        size_t end = child.out.find('\n', pos);
        if (end == std::string::npos) end = child.out.size();
        const std::string line = child.out.substr(pos, end - pos);
        if (line.size() == 64 && line.find_first_not_of("0123456789abcdef") == std::string::npos) hashes.push_back(line);
        pos = end + 1;
      }
      r.repeat.fresh_process.ran = child.exit_code == 0;
      if (child.exit_code != 0)
        r.repeat.fresh_process.error = "the fresh process exited with " + std::to_string(child.exit_code);
      r.repeat.fresh_process.hashes_equal = child.exit_code == 0 && hashes == output_hashes(outputs);
    }
  }

  // One step of the workload at a given batch: what the sweep, the growth check and the profile run.
  std::optional<torch::jit::Module> train_module;
  std::optional<TrainStep> train_step;
  if (r.forward_ran && options.train && r.train && r.train->ran) {
    train_module = load_module(options.model_path, device);
    train_step.emplace(*train_module);
  }
  auto step_for = [&](const std::vector<torch::Tensor>& batch_inputs) -> std::function<void()> {
    if (train_step) return [&, batch_inputs] { train_step->step(batch_inputs); };
    return [&, batch_inputs] {
      torch::NoGradGuard no_grad;
      (void)run_forward(module, batch_inputs);
    };
  };

  // The step time of the inputs as given: every run has one, --sweep or not.
  r.step.warmup = options.warmup;
  r.step.iterations = options.iterations;
  r.step.batch_size = leading_batch_size(p.inputs);
  if (!r.forward_ran) {
    r.step.skipped = "the model did not run";
  } else {
    try {
      measure_batch(r.step, step_for(inputs), device, r.step.batch_size, options.warmup, options.iterations);
      r.step.ran = r.step.step_ms_p50.has_value();
    } catch (const std::exception& e) {
      capture.note_error(exception_text(e));
      r.step.error = error_text(e);
    }
  }

  if (r.forward_ran) {
    for (int64_t b : options.sweep) {
      SweepRow row;
      row.batch_size = b;
      try {
        auto batch_inputs = to_device(with_batch_size(p.inputs, b), device);
        measure_batch(row, step_for(batch_inputs), device, b, options.warmup, options.iterations);
      } catch (const std::exception& e) {
        capture.note_error(exception_text(e));
        row.error = error_text(e);
      }
      r.sweep.push_back(row);
      if (!row.error.empty()) break;  // larger batches fail the same way (usually out of memory)
    }
    if (!r.sweep.empty() && write_files) {
      r.sweep_csv = (std::filesystem::path(options.out_dir) / "sweep.csv").string();
      r.sweep_svg = (std::filesystem::path(options.out_dir) / "sweep.svg").string();
      std::ofstream(r.sweep_csv, std::ios::trunc) << sweep_csv(r.sweep);
      std::ofstream(r.sweep_svg, std::ios::trunc)
          << sweep_svg(r.sweep, "mpsready smoke: " + std::filesystem::path(options.model_path).filename().string() +
                                    " on " + r.device.used + (options.train ? " (training step)" : " (forward)"));
    }
  }

  r.growth.threshold = options.growth_threshold;
  if (!r.forward_ran) {
    r.growth.skipped = "the model did not run";
  } else if (options.growth_iterations < 2) {
    r.growth.skipped = "disabled (--growth-iterations below 2)";
  } else {
    try {
      auto step = step_for(inputs);
      step();
      synchronize(device);
      const MemorySample start = sample_memory(device);
      for (int i = 1; i < options.growth_iterations; ++i) step();
      synchronize(device);
      const MemorySample end = sample_memory(device);
      r.growth.ran = true;
      r.growth.iterations = options.growth_iterations;
      r.growth.start_bytes = start.current;
      r.growth.end_bytes = end.current;
      r.growth.memory_kind = end.kind;
      r.growth.growth = start.current > 0 ? (static_cast<double>(end.current) - static_cast<double>(start.current)) /
                                                static_cast<double>(start.current)
                                          : 0;
      r.growth.flagged = r.growth.growth >= options.growth_threshold;
    } catch (const std::exception& e) {
      r.growth.skipped = "failed: " + error_text(e);
    }
  }

  r.speedup.threshold = options.speedup_threshold;
  if (!r.forward_ran) {
    r.speedup.skipped = "the model did not run";
  } else if (device.is_cpu()) {
    r.speedup.skipped = "the run's device is the CPU";
  } else {
    try {
      // The device's median is the step measurement's when it ran; timed again otherwise.
      const double device_ms = r.step.step_ms_p50
                                   ? *r.step.step_ms_p50
                                   : time_steps(step_for(inputs), device, options.warmup, options.iterations).p50;
      torch::jit::Module cpu_copy = load_module(options.model_path, torch::kCPU);
      cpu_copy.eval();
      std::optional<TrainStep> cpu_train;
      if (train_step) cpu_train.emplace(cpu_copy);
      const auto cpu_inputs = p.inputs;
      const StepTimes on_cpu = time_steps(
          [&] {
            if (cpu_train) {
              cpu_train->step(cpu_inputs);
            } else {
              torch::NoGradGuard no_grad;
              (void)run_forward(cpu_copy, cpu_inputs);
            }
          },
          torch::kCPU, options.warmup, options.iterations);
      r.speedup.ran = true;
      r.speedup.cpu_step_ms_p50 = on_cpu.p50;
      r.speedup.device_step_ms_p50 = device_ms;
      if (on_cpu.p50 > 0) r.speedup.improvement = 1.0 - device_ms / on_cpu.p50;
      r.speedup.flagged = r.speedup.improvement && *r.speedup.improvement < options.speedup_threshold;
    } catch (const std::exception& e) {
      r.speedup.skipped = "failed: " + error_text(e);
    }
  }

  if (r.forward_ran && options.profile_steps > 0) {
    if (write_files) r.trace_file = (std::filesystem::path(options.out_dir) / "trace.json").string();
    try {
      auto step = step_for(inputs);
      r.hot_ops = profile_ops(
          [&] {
            step();
            synchronize(device);
          },
          options.profile_steps, r.trace_file);
    } catch (const std::exception& e) {
      r.trace_file.clear();
      capture.note_error(exception_text(e));
    }
  }

  if (options.predict_fallbacks) {
    if (auto predicted = options.predict_fallbacks(cpu_module, r.device.used, p.inputs)) {
      PredictedFallbacks pf;
      pf.method = predicted->method;
      pf.trace_error = predicted->trace_error;
      std::set<std::string> seen = r.fallbacks.fallback_ops;
      seen.insert(r.fallbacks.unimplemented_ops.begin(), r.fallbacks.unimplemented_ops.end());
      std::set<std::string> want(predicted->ops.begin(), predicted->ops.end());
      pf.predicted = sorted_vector(want);
      for (const auto& op : want) (seen.count(op) ? pf.confirmed : pf.not_seen).push_back(op);
      for (const auto& op : seen)
        if (!want.count(op)) pf.missed.push_back(op);
      r.predicted_fallbacks = pf;
    }
  }

  if (r.forward_ran && (!options.record_golden.empty() || !options.compare_golden.empty())) {
    GoldenResult g;
    if (!options.record_golden.empty()) {
      g.recorded = options.record_golden;
      g.error = write_golden(options.record_golden, r, outputs, options.input_specs);
    }
    if (!options.compare_golden.empty() &&
        !compare_golden(options.compare_golden, r, outputs, options.input_specs, options.tolerances, g)) {
      run.usage_error = g.error;
    }
    r.golden = g;
  }
  return run;
}

int print_output_hashes(const SmokeOptions& options) {
  Prepared p = prepare(options);
  if (!p.error.empty()) {
    std::cerr << "mpsready: " << p.error << "\n";
    return 2;
  }
  try {
    torch::jit::Module module = load_module(options.model_path, p.device.device);
    module.eval();
    torch::NoGradGuard no_grad;
    const auto outputs = flatten_outputs(run_forward(module, to_device(p.inputs, p.device.device)));
    for (const auto& h : output_hashes(outputs)) std::cout << h << "\n";
  } catch (const std::exception& e) {
    std::cerr << "mpsready: " << error_text(e) << "\n";
    return 1;
  }
  return 0;
}

}  // namespace mpsready
