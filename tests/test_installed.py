"""Installed means working: the wheel, installed as a user installs it, works away
from the checkout.

The module builds the wheel from a copy of the project's sources (so nothing is
written into the checkout), installs it into a new virtual environment without
network (``--no-index --no-deps``; pydantic and the rest come from the running
interpreter) and runs the command line and the schemas API from an empty
directory. It also builds the sdist: the wheel holds the package and nothing
else (no developer tool), the sdist the developer tools and the tests beside it.
Marked ``slow``: the builds take several seconds.

The build needs no network either when the running interpreter has
``setuptools>=77`` (the ``test`` extra installs it): then it runs without build
isolation. Otherwise pip builds in an isolated environment, fetching setuptools
from the package index.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

import pytest

import stawvs_ap

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
#: What the wheel is built from: setuptools needs nothing else of the checkout.
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "stawvs_ap", "schemas")
BIN = "Scripts" if os.name == "nt" else "bin"


@dataclass(frozen=True)
class Installed:
    """A virtual environment with the wheel installed, and an empty directory to run in."""

    venv: Path
    empty: Path
    wheel: Path

    @property
    def python(self) -> Path:
        return self.venv / BIN / ("python.exe" if os.name == "nt" else "python")

    @property
    def command(self) -> Path:
        return self.venv / BIN / ("stawvs-ap.exe" if os.name == "nt" else "stawvs-ap")

    def run(self, *argv: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` in the empty directory with the environment's ``bin`` first on
        PATH and nothing pointing into the checkout."""
        return subprocess.run(
            [str(a) for a in argv],
            cwd=self.empty,
            env=_clean_env(self.venv),
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )


def _clean_env(venv: Path) -> dict[str, str]:
    drop = {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PYTHONSAFEPATH"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PATH"] = os.pathsep.join([str(venv / BIN), env.get("PATH", "")])
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _setuptools_can_build() -> bool:
    """Whether the running interpreter has the build backend pyproject.toml asks for."""
    try:
        major = importlib.metadata.version("setuptools").split(".")[0]
    except importlib.metadata.PackageNotFoundError:
        return False
    return major.isdigit() and int(major) >= 77


def _checked(done: subprocess.CompletedProcess[str], what: str) -> subprocess.CompletedProcess[str]:
    assert done.returncode == 0, f"{what} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done


def _build_wheel(work: Path) -> Path:
    source = work / "src"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.py[cod]")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    wheels = work / "wheels"
    argv = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels)]
    if _setuptools_can_build():
        argv += ["--no-index", "--no-build-isolation"]
    done = subprocess.run(
        [*argv, str(source)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    _checked(done, "pip wheel")
    [wheel] = wheels.glob("stawvs_ap-*.whl")
    return wheel


def _make_venv(venv: Path) -> None:
    """A virtual environment that sees the running interpreter's packages (pydantic,
    pip, ...) but not this checkout."""
    _checked(
        subprocess.run(
            [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        ),
        "python -m venv",
    )
    python = venv / BIN / ("python.exe" if os.name == "nt" else "python")
    purelib = _checked(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env=_clean_env(venv),
        ),
        "locating site-packages",
    ).stdout.strip()
    if sys.prefix != sys.base_prefix:
        # Run from a virtual environment (CI's .venv): --system-site-packages reaches
        # the base interpreter, not this environment, so name its folders too. Paths in
        # a .pth file are only appended to sys.path, and .pth files in them are not
        # run, so an editable install of the checkout there stays out of sight.
        wanted = [
            p for p in {*site.getsitepackages(), sysconfig.get_path("purelib")} if Path(p).is_dir()
        ]
        (Path(purelib) / "_running_interpreter.pth").write_text(
            "".join(f"{p}\n" for p in sorted(wanted)), encoding="utf-8"
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("installed")
    wheel = _build_wheel(work)
    venv = work / "venv"
    _make_venv(venv)
    empty = work / "empty"
    empty.mkdir()
    env = Installed(venv, empty, wheel)
    # --ignore-installed: a copy of the project installed in the running interpreter
    # (an editable install) must not stop pip from installing this one here.
    _checked(
        env.run(
            env.python,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-index",
            "--no-deps",
            "--ignore-installed",
            wheel,
        ),
        "pip install",
    )
    return env


def test_the_package_comes_from_the_wheel_not_the_checkout(installed: Installed) -> None:
    done = _checked(
        installed.run(
            installed.python,
            "-c",
            (
                "import importlib.metadata as m, stawvs_ap;"
                "print(stawvs_ap.__file__); print(m.distribution('stawvs-ap').version)"
            ),
        ),
        "import",
    )
    where, version = done.stdout.split()
    assert Path(where).resolve().is_relative_to(installed.venv.resolve()), where
    assert version == stawvs_ap.__version__


def test_the_wheel_ships_the_schemas_and_py_typed(installed: Installed) -> None:
    import zipfile

    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
    expected = {
        f"stawvs_ap/schema_files/{stem}.schema.json"
        for stem in ("state", "gamerecord", "render", "result", "gameinfo", "protocol")
    }
    assert expected | {"stawvs_ap/py.typed", "stawvs_ap/schemas.py"} <= names
    # schemas/ is mapped into the package, never shipped as a top-level folder of its own
    assert not any(name.startswith("schemas/") for name in names)
    assets = Path(__file__).resolve().parent.parent / "stawvs_ap" / "playground" / "assets"
    page = {f"stawvs_ap/{p.relative_to(assets.parent.parent)}" for p in assets.rglob("*.*")}
    assert page <= names  # the playground works offline: its every file is in the wheel


def test_version_and_info_work_from_an_empty_directory(installed: Installed) -> None:
    done = _checked(installed.run(installed.command, "--version"), "stawvs-ap --version")
    assert done.stdout.strip() == f"stawvs-ap {stawvs_ap.__version__}"
    info = json.loads(_checked(installed.run(installed.command, "info"), "info").stdout)
    assert info["uid"] == "stawvs"
    assert info["version"] == stawvs_ap.ENGINE_VERSION


def test_the_schemas_api_works_from_an_empty_directory(installed: Installed) -> None:
    done = _checked(
        installed.run(
            installed.python,
            "-c",
            ("import stawvs_ap.schemas as s; print(s.load('record')['title']); print(*s.names())"),
        ),
        "stawvs_ap.schemas",
    )
    assert done.stdout.splitlines() == [
        "Stawvs game record",
        "state record render result gameinfo protocol review",
    ]


def test_a_game_through_the_command_line_from_an_empty_directory(installed: Installed) -> None:
    run, cmd = installed.run, installed.command
    _checked(run(cmd, "new", "--players", "2", "--seed", "7", "-o", "game.json"), "new")
    first = _checked(run(cmd, "moves", "game.json"), "moves").stdout.split()[0]
    _checked(run(cmd, "move", "game.json", first, "-o", "game.json"), "move")
    assert "@1" in _checked(run(cmd, "show", "game.json"), "show").stdout
    served = _checked(
        run(cmd, "serve", stdin='{"jsonrpc":"2.0","id":1,"method":"version"}\n'), "serve"
    )
    assert json.loads(served.stdout)["result"]["package"] == stawvs_ap.__version__


#: The developer tools (devtools/): they run from a checkout and never ship in the wheel.
DEVELOPER_TOOLS = tuple(sorted(p.name for p in (ROOT / "devtools").glob("*.py")))


def test_the_wheel_holds_the_package_and_no_developer_tool(installed: Installed) -> None:
    import zipfile

    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
    dist_info = f"stawvs_ap-{stawvs_ap.__version__}.dist-info"
    assert {name.split("/")[0] for name in names} == {"stawvs_ap", dist_info}
    package = {p.relative_to(ROOT).as_posix() for p in (ROOT / "stawvs_ap").rglob("*.py")}
    assert {name for name in names if name.endswith(".py")} == package
    # The tools that once lived in the package, and anything named like a developer tool.
    assert {"fixtures.py", "schemagen.py"} <= set(DEVELOPER_TOOLS)
    tools = {*DEVELOPER_TOOLS, "checkout.py"} - {"__init__.py"}
    assert not [n for n in names if n.rsplit("/", 1)[-1] in tools]
    done = installed.run(installed.python, "-c", "import devtools.fixtures")
    assert done.returncode != 0 and "ModuleNotFoundError" in done.stderr, done


def test_the_sdist_carries_the_developer_tools_and_the_tests(tmp_path: Path) -> None:
    if not _setuptools_can_build():
        pytest.skip("building the sdist offline needs setuptools>=77")
    source = tmp_path / "src"
    unwanted = {".git", ".venv", "build", "dist", ".hypothesis"}
    ignore = shutil.ignore_patterns("__pycache__", "*.py[cod]", "*.egg-info", "*_cache", *unwanted)
    shutil.copytree(ROOT, source, ignore=ignore)
    build = "from setuptools import build_meta; print(build_meta.build_sdist('dist'))"
    done = _checked(
        subprocess.run(
            [sys.executable, "-c", build],
            cwd=source,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        ),
        "building the sdist",
    )
    import tarfile

    with tarfile.open(source / "dist" / done.stdout.split()[-1]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    needed = {f"devtools/{tool}" for tool in DEVELOPER_TOOLS}
    needed |= {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").glob("*.py")}
    needed |= {"fixtures/golden/2p-default-seed-1.json", "fixtures/reference/games.jsonl.gz"}
    assert needed <= names, sorted(needed - names)


def test_a_bot_plugin_installed_with_pip_takes_a_seat(installed: Installed) -> None:
    from test_plugins import PLUGIN

    project = installed.empty.parent / "plugin"
    (project / "stawvs_first").mkdir(parents=True)
    (project / "stawvs_first" / "__init__.py").write_text(PLUGIN, encoding="utf-8")
    (project / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=77"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "stawvs-first"\nversion = "1.0"\n'
        '[project.entry-points."stawvs_ap.bots"]\nfirst = "stawvs_first:FirstBot"\n',
        encoding="utf-8",
    )
    flags = ["--no-index", "--no-build-isolation"] if _setuptools_can_build() else []
    _checked(
        installed.run(installed.python, "-m", "pip", "install", "-q", "--no-deps", *flags, project),
        "pip install of the plug-in",
    )
    done = _checked(
        installed.run(
            installed.command,
            "arena",
            "--bot",
            "first:last=true",
            "--bot",
            "random",
            "--games",
            "2",
            "--json",
            "--quiet",
        ),
        "arena with the plug-in",
    )
    assert json.loads(done.stdout)["bots"][0]["spec"] == "first:last=true"
