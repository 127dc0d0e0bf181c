#include "model/path_roles.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace mpsready {
namespace {

struct DirRole {
  std::string_view name;
  Role role;
};

// Directory names, compared lowercased. The first directory from the top that names a role
// decides (`examples/tests/x.py` is an example).
constexpr std::array kDirRoles{
    DirRole{"third_party", Role::vendored}, DirRole{"third-party", Role::vendored},
    DirRole{"thirdparty", Role::vendored},  DirRole{"3rdparty", Role::vendored},
    DirRole{"vendor", Role::vendored},      DirRole{"vendored", Role::vendored},
    DirRole{"external", Role::vendored},    DirRole{"extern", Role::vendored},
    DirRole{"test", Role::tests},           DirRole{"tests", Role::tests},
    DirRole{"testing", Role::tests},        DirRole{"unittests", Role::tests},
    DirRole{"unit_tests", Role::tests},     DirRole{"examples", Role::examples},
    DirRole{"example", Role::examples},     DirRole{"demo", Role::examples},
    DirRole{"demos", Role::examples},       DirRole{"tutorials", Role::examples},
    DirRole{"tutorial", Role::examples},    DirRole{"samples", Role::examples},
    DirRole{"recipes", Role::examples},     DirRole{"benchmark", Role::benchmarks},
    DirRole{"benchmarks", Role::benchmarks}, DirRole{"bench", Role::benchmarks},
    DirRole{"docs", Role::docs},            DirRole{"doc", Role::docs},
    DirRole{"documentation", Role::docs},   DirRole{"scripts", Role::tools},
    DirRole{"script", Role::tools},         DirRole{"tools", Role::tools},
    DirRole{"tool", Role::tools},           DirRole{".github", Role::tools},
    DirRole{".ci", Role::tools},            DirRole{"ci", Role::tools},
    DirRole{"docker", Role::tools},         DirRole{"dockerfiles", Role::tools},
    DirRole{"research", Role::research},    DirRole{"contrib", Role::research},
    DirRole{"projects", Role::research},    DirRole{"research_projects", Role::research},
    // Experimental code that ships in a package without being its stable API (`pkg/dev/`,
    // `pkg/experimental/`, `pkg/prototype/`): it counts where the core imports it on its default
    // path (core code outside the core's folders), and only there.
    DirRole{"dev", Role::research},         DirRole{"experimental", Role::research},
    DirRole{"prototype", Role::research},
    DirRole{"notebooks", Role::notebooks},
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Role conventional_role(std::string_view path) {
  size_t start = 0;
  for (size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', start)) {
    const std::string dir = lower(path.substr(start, slash - start));
    for (const DirRole& d : kDirRoles)
      if (dir == d.name) return d.role;
    start = slash + 1;
  }
  const std::string file = lower(path.substr(start));
  if ((file.starts_with("test_") && file.ends_with(".py")) || file.ends_with("_test.py") || file == "conftest.py")
    return Role::tests;
  if (file.ends_with(".ipynb")) return Role::notebooks;
  // A benchmark script at the top (`bench.py`, `benchmarks.py`, `bench_attention.py`) times the
  // code; it is not what users run. Inside a package the same name is a module of the package
  // (`pkg/benchmark.py` may be its timing API), so only the top counts.
  if (start == 0 && file.ends_with(".py")) {
    const std::string stem = file.substr(0, file.size() - 3);
    for (std::string_view b : {"bench", "benchmark", "benchmarks"})
      if (stem == b || stem.starts_with(std::string(b) + "_") || stem.ends_with("_" + std::string(b)))
        return Role::benchmarks;
  }
  return Role::core;
}

}  // namespace mpsready
