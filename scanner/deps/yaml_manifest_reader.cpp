#include "deps/yaml_manifest_reader.h"
#include "engine/test_point.h"

#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include "deps/requirement_spec.h"

namespace mpsready {
namespace {

// Byte span of a scalar node, quotes included.
std::pair<uint32_t, uint32_t> span_of(const DepsFile& file, const YAML::Node& node) {
  const auto mark = node.Mark();
  const std::string_view text = file.text->text();
  uint32_t start = mark.pos >= 0 && static_cast<size_t>(mark.pos) <= text.size()
                       ? static_cast<uint32_t>(mark.pos)
                       : file.offset_of(mark.line + 1, mark.column + 1);
  uint32_t len = static_cast<uint32_t>(node.IsScalar() ? node.Scalar().size() : 1);
  if (start < text.size() && (text[start] == '"' || text[start] == '\'')) len += 2;
  return {start, std::min<uint32_t>(start + len, static_cast<uint32_t>(text.size()))};
}

// Start of the scalar's value (after an opening quote).
uint32_t value_start(const DepsFile& file, const YAML::Node& node) {
  const auto [start, end] = span_of(file, node);
  const std::string_view text = file.text->text();
  return start < text.size() && (text[start] == '"' || text[start] == '\'') ? start + 1 : start;
}

// `node[key]` without inserting and without throwing on a node that is not a mapping.
YAML::Node child(const YAML::Node& node, const char* key) {
  if (!node || !node.IsMap()) return YAML::Node();
  const YAML::Node& c = node;
  const YAML::Node v = c[key];
  return v ? v : YAML::Node();
}

void read_conda(DepsFile& file, const YAML::Node& doc) {
  if (!doc.IsMap()) {
    file.errors.push_back({file.path, "a conda environment file must be a mapping; its dependencies were not read"});
    return;
  }
  if (const YAML::Node channels = child(doc, "channels"); channels.IsSequence())
    for (const auto& c : channels)
      if (c.IsScalar()) file.add_directive("channel", c.Scalar(), value_start(file, c));
  const YAML::Node deps = child(doc, "dependencies");
  if (!deps || !deps.IsSequence()) return;
  static const RE2 conda_spec(R"(\s*(?:([A-Za-z0-9_.-]+)::)?([A-Za-z0-9_.-]+)\s*(.*?)\s*)");
  for (const auto& d : deps) {
    if (d.IsScalar()) {
      const std::string spec = d.Scalar();
      const uint32_t at = value_start(file, d);
      file.add_directive("conda-dependency", spec, at);
      std::string channel, name, version;
      if (!RE2::FullMatch(spec, conda_spec, &channel, &name, &version)) continue;
      DependencyRecord r;
      r.name = name;
      r.normalized = normalize_package_name(name);
      r.version = version;
      r.conda = true;
      r.text = spec;
      r.start = at;
      r.end = at + static_cast<uint32_t>(spec.size());
      file.records.push_back(std::move(r));
    } else if (const YAML::Node pip = child(d, "pip"); pip.IsSequence()) {
      for (const auto& p : pip) {
        if (!p.IsScalar()) continue;
        const std::string spec = p.Scalar();
        const uint32_t at = value_start(file, p);
        if (!spec.empty() && spec[0] == '-') {
          file.add_directive("option", spec, at);
          continue;
        }
        DependencyRecord r;
        if (!RequirementSpec::parse(spec, r)) continue;
        r.text = spec;
        r.start = at;
        r.end = at + static_cast<uint32_t>(spec.size());
        file.records.push_back(std::move(r));
      }
    }
  }
}

void add_scalar(DepsFile& file, const char* kind, const YAML::Node& node) {
  if (node && node.IsScalar()) file.add_directive(kind, node.Scalar(), value_start(file, node));
}

void read_compose(DepsFile& file, const YAML::Node& doc) {
  if (!doc.IsMap()) {
    file.errors.push_back({file.path, "a compose file must be a mapping; it was not read"});
    return;
  }
  const YAML::Node services = child(doc, "services");
  if (!services || !services.IsMap()) return;
  for (const auto& entry : services) {
    const YAML::Node service = entry.second;
    if (!service.IsMap()) continue;
    add_scalar(file, "image", child(service, "image"));
    add_scalar(file, "runtime", child(service, "runtime"));
    add_scalar(file, "gpus", child(service, "gpus"));
    const YAML::Node devices =
        child(child(child(child(service, "deploy"), "resources"), "reservations"), "devices");
    if (!devices || !devices.IsSequence()) continue;
    for (const auto& dev : devices) {
      if (!dev.IsMap()) continue;
      add_scalar(file, "device-driver", child(dev, "driver"));
      if (const YAML::Node caps = child(dev, "capabilities"); caps.IsSequence())
        for (const auto& c : caps) add_scalar(file, "device-capability", c);
    }
  }
}

// A run configuration's `device` option, at the top or one mapping down (`trainer: {device:
// cuda}`): the default a program takes unless the user overrides it.
void read_config(DepsFile& file, const YAML::Node& doc) {
  if (!doc.IsMap()) return;
  add_scalar(file, "device", child(doc, "device"));
  for (const auto& entry : doc)
    if (entry.second.IsMap()) add_scalar(file, "device", child(entry.second, "device"));
}

}  // namespace

void YamlManifestReader::read(DepsFile& file) {
  YAML::Node doc;
  try {
    test_point("yaml", file.text->text());
    doc = YAML::Load(std::string(file.text->text()));
    if (!doc || doc.IsNull()) return;
    if (file.kind == DepsFileKind::conda) read_conda(file, doc);
    else if (file.kind == DepsFileKind::config) read_config(file, doc);
    else read_compose(file, doc);
  } catch (const YAML::Exception& e) {
    // A run configuration is read for one option; one that is templated (Jinja, `${...}`
    // interpolation that YAML cannot hold) is not a file the scan failed on.
    if (file.kind == DepsFileKind::config) return;
    file.errors.push_back({file.path, "invalid YAML at line " + std::to_string(e.mark.line + 1) + ", column " +
                                          std::to_string(e.mark.column + 1) + ": " + e.msg + "; it was not read"});
  }
}

}  // namespace mpsready
