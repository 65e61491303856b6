"""Loupe's Python client: upload datasets, predictions, features and attributions.

    import loupe

    client = loupe.Client()   # LOUPE_URL and LOUPE_API_KEY, or the file `loupe configure` writes
    dataset = client.create_dataset("pets", "classification", class_names=["cat", "dog"])
    dataset.upload_samples([{"id": "a.png", "image": "photos/a.png", "label": "cat"}])

Standard library only. The guide is docs/sdk-python.md in the Loupe repository.
"""

from ._http import LoupeConnectionError, LoupeError, LoupeInputError
from ._media import ServerPath
from ._version import __version__
from .client import DATA_LEVELS, TASK_TYPES, Client, Dataset, PredictionSet

__all__ = [
    "Client",
    "Dataset",
    "PredictionSet",
    "LoupeError",
    "LoupeConnectionError",
    "LoupeInputError",
    "ServerPath",
    "TASK_TYPES",
    "DATA_LEVELS",
    "__version__",
]
