#include "smoke/outputs.h"

#include "util/error_text.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>

#include "smoke/input_spec.h"
#include "util/sha256.h"

namespace mpsready {

std::vector<torch::Tensor> flatten_outputs(const c10::IValue& root) {
  std::vector<torch::Tensor> out;
  // Explicit stack: a model's return value can nest arbitrarily.
  std::vector<c10::IValue> stack{root};
  while (!stack.empty()) {
    c10::IValue v = stack.back();
    stack.pop_back();
    std::vector<c10::IValue> children;
    if (v.isTensor()) {
      out.push_back(v.toTensor());
    } else if (v.isTuple()) {
      for (const auto& e : v.toTupleRef().elements()) children.push_back(e);
    } else if (v.isList()) {
      for (const c10::IValue& e : v.toListRef()) children.push_back(e);
    } else if (v.isGenericDict()) {
      std::map<std::string, c10::IValue> sorted;
      for (const auto& entry : v.toGenericDict()) {
        const c10::IValue& k = entry.key();
        std::string key = k.isString() ? k.toStringRef() : k.isInt() ? std::to_string(k.toInt()) : k.tagKind();
        sorted.emplace(key, entry.value());
      }
      for (auto& [k, e] : sorted) children.push_back(e);
    }
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
  }
  return out;
}

std::string tensor_hash(const torch::Tensor& t) {
  auto c = t.detach().to(torch::kCPU).contiguous();
  Sha256 h;
  const std::string header = dtype_name(c.scalar_type()) + ":" + c10::str(c.sizes());
  h.update(header.data(), header.size());
  if (c.numel() > 0) h.update(c.data_ptr(), c.numel() * c.element_size());
  return h.hex_digest();
}

std::vector<std::string> output_hashes(const std::vector<torch::Tensor>& outputs) {
  std::vector<std::string> hashes;
  for (const auto& t : outputs) hashes.push_back(tensor_hash(t));
  return hashes;
}

bool save_outputs(const std::string& path, const std::vector<torch::Tensor>& outputs, std::string& error) {
  std::vector<c10::IValue> items;
  for (const auto& t : outputs) items.emplace_back(t.detach().to(torch::kCPU).contiguous());
  const std::vector<char> bytes = torch::jit::pickle_save(c10::ivalue::Tuple::create(std::move(items)));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    error = "cannot write " + path;
    return false;
  }
  return true;
}

std::optional<std::vector<torch::Tensor>> load_outputs(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read " + path;
    return std::nullopt;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    return flatten_outputs(torch::jit::pickle_load(bytes));
  } catch (const std::exception& e) {
    error = path + ": " + exception_text(e);
    return std::nullopt;
  }
}

bool bitwise_equal(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto x = a[i].detach().to(torch::kCPU).contiguous(), y = b[i].detach().to(torch::kCPU).contiguous();
    if (x.scalar_type() != y.scalar_type() || x.sizes() != y.sizes()) return false;
    if (x.numel() > 0 && std::memcmp(x.data_ptr(), y.data_ptr(), x.numel() * x.element_size()) != 0) return false;
  }
  return true;
}

bool all_finite(const std::vector<torch::Tensor>& tensors) {
  for (const auto& t : tensors) {
    if (!t.defined() || !(t.is_floating_point() || t.is_complex())) continue;
    if (!torch::isfinite(t.detach()).all().item<bool>()) return false;
  }
  return true;
}

}  // namespace mpsready
