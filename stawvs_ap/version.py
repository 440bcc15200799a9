"""The package's version, in a leaf of its own: the root re-exports it, and the
floors the root itself imports (a review records it) read it here."""

__version__ = "0.3.0.dev0"
