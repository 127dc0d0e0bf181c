#pragma once
// Kept for includes written before ParamReader moved to rules/.
#include "rules/param_reader.h"
