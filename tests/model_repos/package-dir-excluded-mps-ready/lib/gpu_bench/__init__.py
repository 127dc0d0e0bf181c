# The trap: a package with an __init__.py beside the installed one, which find_packages excludes.
from .triton_bench import run
