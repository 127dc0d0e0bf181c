# -DMPSREADY_RUNTIME_ONLY=ON: an `mpsready` with only the `smoke` subcommand, built from LibTorch,
# nlohmann-json and CLI11 alone (both header-only; a copy of their headers on the include path is
# enough). This is how a lab builds it on a Mac against a pip-installed LibTorch:
#   cmake -S . -B build-rt -DMPSREADY_RUNTIME_ONLY=ON \
#         -DCMAKE_PREFIX_PATH="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')"
find_package(Torch REQUIRED)
message(STATUS "LibTorch ${Torch_VERSION}: ${Torch_DIR} (runtime-only build)")

find_package(nlohmann_json 3.10 QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  find_path(MPSREADY_NLOHMANN_INCLUDE nlohmann/json.hpp REQUIRED)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${MPSREADY_NLOHMANN_INCLUDE})
endif()
find_package(CLI11 QUIET)
if(NOT TARGET CLI11::CLI11)
  find_path(MPSREADY_CLI11_INCLUDE CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  set_target_properties(CLI11::CLI11 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${MPSREADY_CLI11_INCLUDE})
endif()

set(MPSREADY_COMMON_WARNINGS -Wall -Wextra -Wno-missing-field-initializers)
add_subdirectory(runtime)
# Nothing of the scanner: the runtime's own sources and the two header-only libraries.
add_executable(mpsready runtime/cli/runtime_only_main.cpp runtime/cli/smoke_command.cpp)
target_compile_definitions(mpsready PRIVATE MPSREADY_VERSION="${PROJECT_VERSION}")
target_link_libraries(mpsready PRIVATE mpsready_runtime CLI11::CLI11)
install(TARGETS mpsready RUNTIME DESTINATION bin)
