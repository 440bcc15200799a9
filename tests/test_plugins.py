"""Bot plug-ins: a bot class another package registers in the entry-point group
``stawvs_ap.bots`` takes a seat wherever a bot spec is read (``arena``, ``play``,
``hint``, :class:`~stawvs_ap.bots.arena.BotSpec`).

The plug-in here is installed as pip leaves a package: its module and a
``.dist-info`` folder with ``entry_points.txt``, in a folder on ``sys.path`` of a
new interpreter; so it is found through :mod:`importlib.metadata`, as any
installed plug-in is. (tests/test_installed.py also installs one with pip.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hostile import thinned_cases

from stawvs_ap import StawvsGame

ROOT = Path(__file__).resolve().parent.parent

PLUGIN = '''
"""A plug-in bot: plays the legal move that comes first, or the last with last=true."""

from dataclasses import dataclass

from stawvs_ap.bots import Bot, Candidate, Settings, setting
from stawvs_ap.bots.options import ITERATIONS, SECONDS, options_of, with_changes


@dataclass(frozen=True)
class FirstSettings(Settings):
    last: bool = setting(False, "play the last legal move")


class FirstBot(Bot):
    name = "first"
    options = (SECONDS, ITERATIONS, *options_of(FirstSettings))

    def __init__(self, *, seed=None, seconds=None, iterations=None, settings=None, **changes):
        super().__init__(seed=seed, seconds=seconds, iterations=iterations)
        self.settings = with_changes(settings or FirstSettings(), changes, self.name)

    def _choose(self, position, budget):
        return self._analyse(position, budget)[0].move

    def _analyse(self, position, budget):
        moves = list(position.legal_moves())
        if self.settings.last:
            moves.reverse()
        return [Candidate(move, 1, 0.5) for move in moves]


class NotABot:
    pass
'''


def _install(site: Path, entry_points: str, name: str = "stawvs_first") -> None:
    """Install the plug-in module and a distribution ``name`` that declares
    ``entry_points``."""
    (site / name).mkdir(parents=True)
    (site / name / "__init__.py").write_text(PLUGIN)
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))
    (info / "RECORD").write_text("")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    _install(
        folder,
        """\
        [stawvs_ap.bots]
        first = stawvs_first:FirstBot
        broken = stawvs_first_missing:Bot
        notabot = stawvs_first:NotABot
        greedy = stawvs_first:FirstBot
        """,
    )
    return folder


def run(site: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(site)]))
    return subprocess.run(
        [sys.executable, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_an_installed_plugin_is_found_by_name(site: Path) -> None:
    done = run(
        site,
        "-c",
        "from stawvs_ap.bots import bot_class, bot_names; "
        "print(bot_class('first').__module__, bot_names())",
    )
    assert done.returncode == 0, done.stderr
    module, names = done.stdout.split(" ", 1)
    assert module == "stawvs_first"
    assert "first" in names and "broken" in names


@pytest.mark.slow
def test_a_plugin_plays_in_the_arena_with_its_options(site: Path) -> None:
    done = run(
        site,
        *("-m", "stawvs_ap", "arena", "--bot", "first:last=true", "--bot", "random"),
        *("--games", "2", "--json", "--quiet"),
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["bots"][0]["spec"] == "first:last=true"
    assert all(r["ending"] == "normal" for r in report["results"])


@pytest.mark.slow
def test_a_plugin_hints(site: Path, tmp_path: Path) -> None:
    game = StawvsGame.new(2, seed=1)
    state = tmp_path / "game.json"
    state.write_text(game.serialize())
    done = run(site, "-m", "stawvs_ap", "hint", str(state), "--bot", "first", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["best"] == game.moves()[0]


@pytest.mark.slow
def test_a_plugin_takes_a_seat_in_the_terminal_game(site: Path) -> None:
    done = run(
        site,
        *("-m", "stawvs_ap", "play", "--bot", "first", "--seat", "2", "--seed", "1"),
        stdin="quit\n",
    )
    assert done.returncode == 0, done.stderr
    assert f"plays {StawvsGame.new(2, seed=1).moves()[0]}." in done.stdout


def _served(site: Path, *requests: dict[str, object]) -> list[dict[str, object]]:
    """The service's answers (``stawvs-ap serve`` on standard input) to ``requests``."""
    lines = "".join(
        json.dumps({"jsonrpc": "2.0", "id": i, **r}) + "\n" for i, r in enumerate(requests)
    )
    done = run(site, "-m", "stawvs_ap", "serve", stdin=lines)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.slow
def test_a_plugin_plays_and_hints_through_the_service(site: Path) -> None:
    game = StawvsGame.new(2, seed=1)
    moved, hinted = _served(
        site,
        {"method": "bot_move", "params": {"state": game.serialize(), "bot": "first"}},
        {"method": "hint", "params": {"state": game.serialize(), "bot": "first:last=true"}},
    )
    assert moved["result"]["move"] == game.moves()[0]  # type: ignore[index]
    assert hinted["result"]["best"] == game.moves()[-1]  # type: ignore[index]


@pytest.mark.slow
def test_the_service_refuses_exec_specs_and_runs_nothing(site: Path, tmp_path: Path) -> None:
    planted = tmp_path / "ran"
    state = StawvsGame.new(2, seed=1).serialize()
    command = f"exec:{sys.executable} -c 'open({str(planted)!r}, \"w\")'"
    answers = _served(
        site,
        {"method": "bot_move", "params": {"state": state, "bot": command}},
        {"method": "hint", "params": {"state": state, "bot": command}},
    )
    for answer in answers:
        assert "result" not in answer
        assert "exec bots run programs: they are not allowed here" in json.dumps(answer["error"])
    assert not planted.exists()


@pytest.mark.parametrize(
    ("spec", "message"),
    thinned_cases(
        [
            ("broken", "the bot plug-in 'broken' (stawvs_first_missing:Bot) cannot be loaded"),
            ("notabot", "is not a subclass of stawvs_ap.bots.Bot"),
            ("first:depth=3", "bot first takes the options seconds, iterations, last, not 'depth'"),
            ("first:last=maybe", "bot first: option last must be true or false, not 'maybe'"),
            ("nobody", "unknown bot 'nobody' (known: broken, exec, first, greedy, mcts, notabot,"),
        ],
        2,
    ),
)
@pytest.mark.slow
def test_a_plugin_that_cannot_play_is_one_line_and_status_2(
    site: Path, spec: str, message: str
) -> None:
    done = run(site, "-m", "stawvs_ap", "arena", "--bot", spec, "--games", "1", "--quiet")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


@pytest.mark.slow
def test_a_plugin_cannot_take_a_built_in_name(site: Path) -> None:
    done = run(site, "-c", "from stawvs_ap.bots import bot_class; print(bot_class('greedy'))")
    assert "stawvs_ap.bots.simple.GreedyBot" in done.stdout


@pytest.mark.slow
def test_two_packages_claiming_one_name_are_refused(site: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    _install(other, "[stawvs_ap.bots]\nfirst = stawvs_rival:FirstBot\n", "stawvs_rival")
    env_site = Path(os.pathsep.join([str(site), str(other)]))
    done = run(env_site, "-m", "stawvs_ap", "arena", "--bot", "first", "--quiet")
    assert done.returncode == 2
    assert "the bot name 'first' is claimed by more than one package: " in done.stderr
    assert "stawvs_first:FirstBot" in done.stderr and "stawvs_rival:FirstBot" in done.stderr


def test_the_bot_of_docs_bots_md_keeps_the_protocol() -> None:
    import re

    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    [block] = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "class FirstBot" in b]
    scope: dict[str, object] = {}
    exec(compile(block, "docs/bots.md", "exec"), scope)
    bot = scope["FirstBot"](seed=1, last=True)  # type: ignore[operator]
    game = StawvsGame.new(2, seed=1)
    assert str(bot.choose(game)) == game.moves()[-1]
    assert [str(c.move) for c in bot.analyse(game, top=2)] == game.moves()[::-1][:2]
