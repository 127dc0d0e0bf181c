from fastfit.precision import Fp8Precision, Precision

# Older names users may still pass.
ALIASES = (
    ("fp8-te", Fp8Precision),
    ("32", Precision),
)
