"""Where the developer tools that regenerate repository files may read and write.

``python -m stawvs_ap.tools.fixtures`` and ``python -m stawvs_ap.tools.schemagen``
rewrite files of the project's repository (golden fixtures, schema files).
They never find those files through the package's own location: they take an
explicit directory, and default to one inside the current directory only when
that directory is a checkout of the project (it holds a ``pyproject.toml``
whose ``[project] name`` is ``stawvs-ap``). They refuse to write into an
installed package: anywhere under a ``site-packages`` or ``dist-packages``
directory, or inside the imported ``stawvs_ap`` package when that package is
not part of a checkout (an editable install's is, a wheel's is not).
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Final

__all__ = [
    "PROJECT_NAME",
    "ToolPathError",
    "default_in_checkout",
    "installed_package_dir",
    "is_checkout",
    "refuse_installed",
]

#: The distribution name a checkout's ``pyproject.toml`` gives.
PROJECT_NAME: Final = "stawvs-ap"
_INSTALL_FOLDERS: Final = frozenset({"site-packages", "dist-packages"})


class ToolPathError(Exception):
    """A directory a developer tool cannot use; the message is one line for the user."""


def _normalised(name: str) -> str:
    """A distribution name as PEP 503 compares them (``Stawvs_AP`` is ``stawvs-ap``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def is_checkout(directory: Path) -> bool:
    """Whether ``directory`` is the top of a checkout of this project: it holds a
    ``pyproject.toml`` whose ``[project] name`` is ``stawvs-ap``."""
    try:
        data = tomllib.loads((directory / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    project = data.get("project")
    name = project.get("name") if isinstance(project, dict) else None
    return isinstance(name, str) and _normalised(name) == PROJECT_NAME


def default_in_checkout(relative: str, option: str, cwd: Path | None = None) -> Path:
    """``<cwd>/<relative>`` when the current directory is a checkout; otherwise
    :class:`ToolPathError` telling the user to pass ``option``."""
    here = Path.cwd() if cwd is None else cwd
    if not is_checkout(here):
        raise ToolPathError(
            f"the current directory is not a checkout of {PROJECT_NAME} (no pyproject.toml "
            f"naming it), so there is no default {relative}: pass {option} DIR"
        )
    return here / relative


def installed_package_dir() -> Path | None:
    """The directory of the imported ``stawvs_ap`` package when it is not part of a
    checkout (an installed wheel); None for a checkout or an editable install."""
    root = resources.files("stawvs_ap")
    if not isinstance(root, Path):  # not on the file system (a zip): nothing to write into
        return None
    package = root.resolve()
    return None if is_checkout(package.parent) else package


def refuse_installed(target: Path) -> None:
    """Raise :class:`ToolPathError` when ``target`` (a directory to write into) is
    inside an installed package: under ``site-packages`` or ``dist-packages``, or
    inside the installed ``stawvs_ap`` package itself."""
    resolved = target.resolve()
    folder = next((p for p in resolved.parts if p.lower() in _INSTALL_FOLDERS), None)
    if folder is not None:
        raise ToolPathError(
            f"refusing to write into an installed package: {target} is inside {folder}; "
            "pass a directory of a checkout"
        )
    package = installed_package_dir()
    if package is not None and resolved.is_relative_to(package):
        raise ToolPathError(
            f"refusing to write into the installed package: {target} is inside {package}; "
            "pass a directory of a checkout"
        )
