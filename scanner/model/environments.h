#pragma once
// The environments a repository declares: container images (a Dockerfile, a compose file) and
// the ones a Mac installs natively (a manifest, a requirements file, a conda environment, a
// Pipfile). On a Mac the code runs natively: Docker on macOS runs a Linux VM that gives a
// container no Apple GPU, so a container image is the environment of the Linux servers, not
// the Mac's path, whenever the repository says how to install it natively too.
#include <set>
#include <string>

#include "core/repo_facts.h"

namespace mpsready {

class Environments {
 public:
  explicit Environments(const RepoFacts& facts);

  bool is_container(const std::string& path) const { return containers_.count(path) > 0; }
  // The first native environment of the core (outside tests, examples, docs and other
  // peripheral folders), "" when the repository declares none: then the container is the only
  // way it says to set up the code.
  const std::string& native() const { return native_; }

 private:
  std::set<std::string> containers_;
  std::string native_;
};

}  // namespace mpsready
