import os

# The same name bound to a setting that is on by default: no CUDA test, so a Mac takes the branch.
_SUPPORTS_FAST_MASK = os.environ.get("FAST_MASK", "1") == "1"
