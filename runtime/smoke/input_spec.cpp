#include "smoke/input_spec.h"

#include "util/error_text.h"

#include <fstream>
#include <iterator>
#include <map>

#include <torch/script.h>

#include "smoke/model_file.h"

namespace mpsready {

namespace {

const std::map<std::string, c10::ScalarType>& dtype_names() {
  static const std::map<std::string, c10::ScalarType> names = {
      {"float32", c10::kFloat},   {"float", c10::kFloat},      {"float16", c10::kHalf},
      {"half", c10::kHalf},       {"bfloat16", c10::kBFloat16}, {"float64", c10::kDouble},
      {"double", c10::kDouble},   {"int64", c10::kLong},       {"long", c10::kLong},
      {"int32", c10::kInt},       {"int", c10::kInt},          {"int16", c10::kShort},
      {"int8", c10::kChar},       {"uint8", c10::kByte},       {"bool", c10::kBool},
      {"complex64", c10::kComplexFloat}, {"complex128", c10::kComplexDouble}};
  return names;
}

bool collect_tensors(const c10::IValue& value, std::vector<torch::Tensor>& out) {
  if (value.isTensor()) {
    out.push_back(value.toTensor());
    return true;
  }
  if (value.isTuple()) {
    for (const auto& e : value.toTupleRef().elements())
      if (!collect_tensors(e, out)) return false;
    return true;
  }
  if (value.isList()) {
    for (const c10::IValue& e : value.toListRef())
      if (!collect_tensors(e, out)) return false;
    return true;
  }
  return false;
}

}  // namespace

std::optional<c10::ScalarType> parse_dtype(const std::string& name) {
  auto it = dtype_names().find(name);
  if (it == dtype_names().end()) return std::nullopt;
  return it->second;
}

std::string dtype_name(c10::ScalarType dtype) {
  switch (dtype) {
    case c10::kFloat: return "float32";
    case c10::kHalf: return "float16";
    case c10::kBFloat16: return "bfloat16";
    case c10::kDouble: return "float64";
    case c10::kLong: return "int64";
    case c10::kInt: return "int32";
    case c10::kShort: return "int16";
    case c10::kChar: return "int8";
    case c10::kByte: return "uint8";
    case c10::kBool: return "bool";
    case c10::kComplexFloat: return "complex64";
    case c10::kComplexDouble: return "complex128";
    default: return c10::toString(dtype);
  }
}

std::optional<InputSpec> parse_input_spec(const std::string& text, std::string& error) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) {
    error = "--input " + text + ": expected SHAPE:DTYPE, e.g. 8x3x224x224:float32 or 4x128:int64";
    return std::nullopt;
  }
  InputSpec spec;
  spec.text = text;
  const std::string shape = text.substr(0, colon), dtype = text.substr(colon + 1);
  auto parsed = parse_dtype(dtype);
  if (!parsed) {
    error = "--input " + text + ": unknown dtype \"" + dtype +
            "\" (float32, float16, bfloat16, float64, int64, int32, int16, int8, uint8, bool, complex64, complex128)";
    return std::nullopt;
  }
  spec.dtype = *parsed;
  size_t pos = 0;
  while (pos < shape.size()) {
    size_t end = shape.find('x', pos);
    if (end == std::string::npos) end = shape.size();
    const std::string dim = shape.substr(pos, end - pos);
    if (dim.empty() || dim.size() > 12 || dim.find_first_not_of("0123456789") != std::string::npos) {
      error = "--input " + text + ": the shape must be sizes joined by 'x', e.g. 8x3x224x224";
      return std::nullopt;
    }
    spec.shape.push_back(std::stoll(dim));
    pos = end + 1;
    if (end == shape.size() - 1) {
      error = "--input " + text + ": the shape ends with 'x'";
      return std::nullopt;
    }
  }
  return spec;
}

std::vector<torch::Tensor> make_inputs(const std::vector<InputSpec>& specs, uint64_t seed) {
  torch::manual_seed(seed);
  std::vector<torch::Tensor> out;
  for (const auto& s : specs) {
    const auto options = torch::TensorOptions().dtype(s.dtype);
    if (s.dtype == c10::kBool) out.push_back(torch::randint(0, 2, s.shape, torch::kLong).to(c10::kBool));
    else if (c10::isIntegralType(s.dtype, /*includeBool=*/false)) out.push_back(torch::randint(0, 10, s.shape, options));
    else if (c10::isComplexType(s.dtype)) out.push_back(torch::randn(s.shape, options));
    else out.push_back(torch::randn(s.shape, torch::kFloat).to(s.dtype));
  }
  return out;
}

namespace {

const char* kAcceptedInputs =
    "a tensor, a tuple or list of tensors, or a dict from the model's forward argument names to tensors";

// A dict saved with torch.save: its keys must be strings (argument names) and its values tensors.
bool collect_named_tensors(const c10::IValue& value, InputsFile& out) {
  for (const auto& entry : value.toGenericDict()) {
    if (!entry.key().isString() || !entry.value().isTensor()) return false;
    out.names.push_back(entry.key().toStringRef());
    out.tensors.push_back(entry.value().toTensor());
  }
  return true;
}

}  // namespace

std::optional<InputsFile> read_inputs_file(const std::string& path, std::string& error) {
  const ModelFileCheck check = inspect_model_file(path);
  InputsFile file;
  try {
    if (check.kind == ModelFileKind::torchscript) {
      torch::jit::Module m = torch::jit::load(path, torch::kCPU);
      if (!m.hasattr("inputs")) {
        error = "--inputs " + path + ": a TorchScript archive without an `inputs` attribute (scripts/export-model.py "
                "writes one; a torch.save file of " + std::string(kAcceptedInputs) + " works too)";
        return std::nullopt;
      }
      if (!collect_tensors(m.attr("inputs"), file.tensors)) {
        error = "--inputs " + path + ": the `inputs` attribute must be a tensor or a tuple or list of tensors";
        return std::nullopt;
      }
      return file;
    }
    if (check.kind == ModelFileKind::torch_save_zip) {
      std::ifstream in(path, std::ios::binary);
      std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const c10::IValue value = torch::jit::pickle_load(bytes);
      const bool ok = value.isGenericDict() ? collect_named_tensors(value, file) : collect_tensors(value, file.tensors);
      if (!ok) {
        error = "--inputs " + path + ": holds a " + value.tagKind() + " that is not " + kAcceptedInputs;
        return std::nullopt;
      }
      return file;
    }
  } catch (const std::exception& e) {
    error = "--inputs " + path + ": cannot be read: " + exception_text(e);
    return std::nullopt;
  }
  error = "--inputs " + path + ": " +
          (check.kind == ModelFileKind::missing ? std::string("no such file")
           : check.kind == ModelFileKind::corrupt_zip ? check.message
           : check.kind == ModelFileKind::legacy_pickle
               ? std::string("a legacy (pre-1.6) pickle; save the inputs with torch.save (zip format) or "
                             "scripts/export-model.py")
               : "neither a TorchScript archive nor a torch.save file of " + std::string(kAcceptedInputs));
  return std::nullopt;
}

std::optional<std::vector<torch::Tensor>> load_inputs_file(const std::string& path, std::string& error) {
  auto file = read_inputs_file(path, error);
  if (!file) return std::nullopt;
  if (!file->names.empty()) {
    error = "--inputs " + path + ": a dict of named inputs; this command takes a tensor or a tuple or list of tensors";
    return std::nullopt;
  }
  return file->tensors;
}

std::vector<torch::Tensor> with_batch_size(const std::vector<torch::Tensor>& inputs, int64_t batch) {
  std::vector<torch::Tensor> out;
  for (const auto& t : inputs) {
    if (t.dim() == 0 || t.size(0) == 0) {
      out.push_back(t);
      continue;
    }
    const auto rows = torch::arange(batch, torch::TensorOptions().dtype(torch::kLong).device(t.device())) % t.size(0);
    out.push_back(t.index_select(0, rows));
  }
  return out;
}

}  // namespace mpsready
