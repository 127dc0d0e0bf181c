import contextlib

from fastfit.imports import RequirementCache

_TE_AVAILABLE = RequirementCache("transformer_engine>=1.0")


class Precision:
    def forward_context(self):
        return contextlib.nullcontext()


class Fp8Precision(Precision):
    """FP8 training through NVIDIA Transformer Engine."""

    def __init__(self):
        if not _TE_AVAILABLE:
            raise ModuleNotFoundError(str(_TE_AVAILABLE))
        from transformer_engine.common.recipe import DelayedScaling

        self.recipe = DelayedScaling()

    def forward_context(self):
        import transformer_engine.pytorch as te

        return te.fp8_autocast(enabled=True, fp8_recipe=self.recipe)
