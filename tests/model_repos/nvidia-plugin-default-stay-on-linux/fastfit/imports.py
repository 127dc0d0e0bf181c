import importlib.util
import re


class RequirementCache:
    """Whether a requirement such as `pkg>=1.0` is installed, checked once."""

    def __init__(self, requirement):
        self.requirement = requirement
        self._available = None

    def __bool__(self):
        if self._available is None:
            name = re.split(r"[<>=!~\[]", self.requirement, maxsplit=1)[0].strip()
            self._available = importlib.util.find_spec(name) is not None
        return self._available

    def __str__(self):
        return f"Requirement {self.requirement!r} is not installed."
