#pragma once
// The `scan` subcommand's command line, and the help text of the whole program.
#include <CLI/CLI.hpp>

#include "cli/commands.h"

namespace mpsready {

// Adds `scan` with its options to `app`. Options that can be given several times take one value
// each time (so `--exclude 'legacy/**' .` leaves the path alone) or a comma-separated list.
CLI::App* add_scan_command(CLI::App& app, ScanCommandOptions& scan);

// Examples, defaults and exit codes, for the end of `mpsready --help`.
const char* program_help_footer();

}  // namespace mpsready
