"""The installed oncourse version, recorded in every run's provenance."""

from importlib import metadata

try:
    __version__ = metadata.version("oncourse")
except metadata.PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0+source"
