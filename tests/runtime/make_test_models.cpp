// Writes the runtime tests' TorchScript models into a directory, for the tests that run the
// executable from a script (the record's schema check).
#include <iostream>

#include "test_models.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_test_models DIR\n";
    return 2;
  }
  using namespace mpsready::testing;
  const std::filesystem::path dir = argv[1];
  for (const auto& p : {save_clean_model(dir), save_nan_model(dir), save_float64_model(dir), save_dict_model(dir),
                        save_inputs_archive(dir)})
    std::cout << p.string() << "\n";
  return 0;
}
