"""The package version, kept equal to ``version`` in sdk/python/pyproject.toml."""

__version__ = "0.1.0"
