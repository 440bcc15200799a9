"""The terminal game (``stawvs-ap play``) as a person meets it: through a
pseudo-terminal (line editing, completion, colours, automatic passes, save and
resume), and through pipes, where it is plain text."""

from __future__ import annotations

import json
import os
import pty
import random
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile import thinned
from records_support import golden_in_progress

from stawvs_ap import StawvsGame, from_record
from stawvs_ap.cli.playgame import slides
from stawvs_ap.core.playout import random_move
from stawvs_ap.i18n import SOURCE_LANGUAGE, languages

ROOT = Path(__file__).resolve().parent.parent
SGR = re.compile(r"\x1b\[[0-9;]*m")  # a colour or style; readline's own escapes are others


class Terminal:
    """``stawvs-ap ARGS`` on a pseudo-terminal: type into it, read what it shows."""

    def __init__(self, *args: str, cwd: Path, colour: bool = False) -> None:
        master, slave = pty.openpty()
        env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm", COLUMNS="100", LINES="40")
        env.pop("NO_COLOR", None)
        if not colour:
            env["NO_COLOR"] = "1"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "stawvs_ap", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.seen = ""
        self.cursor = 0  # how far wait_for has read

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def wait_for(self, text: str, timeout: float = 30) -> str:
        """Read until ``text`` appears after what was awaited before; return what
        came between, ``text`` included."""
        deadline = time.monotonic() + timeout
        while (found := self.seen.find(text, self.cursor)) < 0:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never came; the terminal shows:\n{self.seen[-3000:]}"
            if select.select([self.master], [], [], left)[0]:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the program ended and closed the terminal
                    chunk = b""
                assert chunk, f"the program ended before {text!r}:\n{self.seen[-3000:]}"
                self.seen += chunk.decode("utf-8", "replace")
        shown, self.cursor = self.seen[self.cursor : found + len(text)], found + len(text)
        return shown

    def finish(self, timeout: float = 30) -> int:
        try:
            while select.select([self.master], [], [], 0.2)[0]:
                chunk = os.read(self.master, 65536)
                if not chunk:
                    break
                self.seen += chunk.decode("utf-8", "replace")
        except OSError:
            pass
        status = self.process.wait(timeout=timeout)
        os.close(self.master)
        return status


@pytest.fixture
def terminals(tmp_path: Path) -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        if terminal.process.poll() is None:
            terminal.process.kill()
            terminal.process.wait()


def _open(terminals: list[Terminal], *args: str, cwd: Path, colour: bool = False) -> Terminal:
    terminal = Terminal(*args, cwd=cwd, colour=colour)
    terminals.append(terminal)
    return terminal


@pytest.mark.slow
def test_tab_completes_legal_moves_and_commands_and_up_recalls_a_line(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    term = _open(terminals, "play", "--bot", "random", "--seed", "1", cwd=tmp_path)
    term.wait_for("Your move: ")
    placements = StawvsGame.new(2, seed=1).moves()
    on_file_a = sorted(m for m in placements if m.startswith("a"))
    term.type("a\t\t")  # two tabs list every completion
    shown = term.wait_for(on_file_a[-1])
    assert all(m in shown for m in on_file_a)
    term.type("\x15")  # Ctrl-U clears the line
    term.type("he\t\r")  # one candidate: completed to "help"
    term.wait_for("give up the game")
    term.type("\x1b[A\r")  # Up recalls "help"
    term.wait_for("give up the game")
    term.type("quit\r")
    term.wait_for("Bye.")
    assert term.finish() == 0


def test_completion_after_moves_offers_the_caps_that_can_move(tmp_path: Path) -> None:
    game = StawvsGame.new(2, seed=4)
    rng = random.Random(4)
    while game.mode == "place":
        game.move(random_move(game.position, rng))
    from stawvs_ap.cli.playgame import TerminalGame
    from stawvs_ap.cli.terminal import Console

    session = TerminalGame(
        game,
        {},
        ["You", "bot"],
        game.currplayer,
        Console(colour=False),
        resume_command=str,
    )
    caps = sorted(slides(game.position))
    assert session.complete("moves ", "") == caps
    assert session.complete("moves " + caps[0][0], caps[0][0]) == [
        c for c in caps if c.startswith(caps[0][0])
    ]
    first = game.moves()[0]
    assert first in session.complete(first[:3], first[:3])
    assert session.complete("un", "un") == ["undo"]


def _must_pass_next(players: int = 2) -> tuple[StawvsGame, int]:
    """A game whose player to move can only pass while another can still move."""
    for seed in range(200):
        game = StawvsGame.new(players, seed=seed)
        rng = random.Random(seed)
        while not game.gameover:
            if game.position.must_pass() and not game.position.eliminated:
                return game, game.currplayer
            game.move(random_move(game.position, rng))
    raise AssertionError("no such game found")


@pytest.mark.slow
def test_a_turn_with_only_a_pass_is_passed_for_the_person(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    game, stuck = _must_pass_next()
    (tmp_path / "stuck.json").write_text(game.serialize())
    term = _open(
        terminals, "play", "stuck.json", "--seat", str(stuck), "--bot", "greedy", cwd=tmp_path
    )
    out = term.wait_for("You lose.")
    assert out.count("You have no move: you pass.") == 1  # said once, then passed quietly
    assert "Your move:" not in out  # nothing was asked of the person
    assert "Game over. Winner: greedy." in out
    assert term.finish() == 0


@pytest.mark.slow
def test_a_saved_game_resumes_where_it_was(terminals: list[Terminal], tmp_path: Path) -> None:
    first = StawvsGame.new(2, seed=3).moves()[0]
    term = _open(terminals, "play", "--bot", "random", "--seed", "3", cwd=tmp_path)
    term.wait_for("Your move: ")
    term.type(f"{first}\r")
    term.wait_for("random (@2) plays")
    term.wait_for("Your move: ")
    term.type("save saved.json\r")
    said = term.wait_for("stawvs-ap play saved.json --seat 1 --bot random")
    assert "Saved the game to saved.json." in said
    term.type("quit\r")
    assert term.finish() == 0
    saved = StawvsGame((tmp_path / "saved.json").read_text())
    assert saved.move_history()[0][0] == first and len(saved.move_history()[0]) == 2
    again = _open(terminals, "play", "saved.json", "--bot", "random", cwd=tmp_path)
    shown = again.wait_for("Your move: ")
    assert "Resumed after 2 moves: you are player 1 (@1)." in shown
    assert f"Last move: {saved.lastmove}" in shown
    again.type("undo\r")
    board = again.wait_for("Your move: ").split("Taken back.")[1]
    ranks = [line for line in board.splitlines() if line[:1].isdigit()]
    assert len(ranks) == 8 and not any("@" in rank for rank in ranks)  # back to the start
    again.type("\x04")  # Ctrl-D: the end of input
    again.wait_for("Bye.")
    assert again.finish() == 0


@pytest.mark.slow
def test_colour_at_a_terminal_and_none_with_no_color(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    first = StawvsGame.new(2, seed=3).moves()[0]
    coloured = _open(terminals, "play", "--bot", "random", "--seed", "3", cwd=tmp_path, colour=True)
    coloured.wait_for("Your move: ")
    coloured.type(f"{first}\r")
    shown = coloured.wait_for("Your move: ")
    assert "\x1b[1;7;31m@1\x1b[0m" in shown  # the person's cap
    assert "\x1b[1;7;36m@2\x1b[0m" in shown  # the bot's
    assert "\x1b[4;" in shown  # the last move, underlined
    coloured.type("quit\r")
    assert coloured.finish() == 0
    plain = _open(terminals, "play", "--bot", "random", "--seed", "3", cwd=tmp_path)
    plain.wait_for("Your move: ")
    plain.type(f"{first}\r")
    plain.wait_for("Your move: ")
    plain.type("quit\r")
    assert plain.finish() == 0
    assert not SGR.search(plain.seen)
    assert f"{first}" in plain.seen and "@1" in plain.seen


@pytest.mark.slow
def test_piped_play_is_plain_text_and_bounded(tmp_path: Path) -> None:
    typed = "moves\n" + "x" * 100_000 + "\nquit\n"
    done = _piped("--bot", "random", "--colour", "auto", typed=typed)
    assert done.returncode == 0, done.stderr
    assert not SGR.search(done.stdout)
    assert "That line is too long (1000 characters at most): it is ignored." in done.stdout
    assert max(map(len, done.stdout.splitlines())) < 200  # the long line is not echoed whole


@pytest.mark.slow
def test_what_was_typed_is_said_back_without_its_control_characters(tmp_path: Path) -> None:
    # Piped input is echoed as if typed, and a refusal, a cap asked for or a
    # saved file's name repeats it: an escape in it must not reach the terminal.
    typed = "d5\x1b[2J\x07\u202e\nmoves \x1b[31mX\x07\nsave s\x1b[33m.json\nquit\n"
    done = _piped("--bot", "random", typed=typed, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "d5\ufffd[2J\ufffd\ufffd" in done.stdout
    assert "s\ufffd[33m.json" in done.stdout
    assert not any(c in done.stdout for c in "\x1b\x07\u202e")


@pytest.mark.slow
def test_the_record_of_a_game_in_progress_is_played_on(tmp_path: Path) -> None:
    record = golden_in_progress("2p-default-seed-1.json", 10)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    said = _play_piped(path, "quit\n")
    assert "Resumed after 20 moves: you are player 1 (@1)." in said


def _game_in_collection(seed: int, variants: list[str]) -> StawvsGame:
    game = StawvsGame.new(2, variants, seed=seed)
    rng = random.Random(seed)
    while game.mode == "place" or game.currplayer != 1:
        game.move(random_move(game.position, rng))
    return game


def _piped(*args: str, typed: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``stawvs-ap play ARGS`` with ``typed`` on its standard input (a pipe)."""
    return subprocess.run(
        [sys.executable, "-m", "stawvs_ap", "play", *args],
        input=typed,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(_english_environment(), PYTHONPATH=str(ROOT), TERM="xterm"),
        timeout=60,
        check=False,
    )


def _english_environment() -> dict[str, str]:
    """This environment without the variables that choose a language."""
    chosen = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    return {key: value for key, value in os.environ.items() if key not in chosen}


def _play_piped(state: Path, typed: str, *extra: str) -> str:
    done = _piped(str(state), "--bot", "random", *extra, typed=typed, cwd=state.parent)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_with_hey_a_slide_alone_is_completed_with_its_only_claim(tmp_path: Path) -> None:
    game = _game_in_collection(5, ["hey"])
    state = tmp_path / "hey.json"
    state.write_text(game.serialize())
    source, dests = next(iter(slides(game.position).items()))
    dest = next(iter(dests))
    out = _play_piped(state, f"{source}-{dest}\nsave after.json\nquit\n")
    forced = f"{source}-{dest},{source}"
    assert f"The only pyramid it can claim is on {source}: playing {forced}." in out
    after = StawvsGame((tmp_path / "after.json").read_text())
    assert after.peek() is not None and str(after.clone().pop()) != ""
    assert forced in [m for round_ in after.move_history() for m in round_]


@pytest.mark.slow
def test_moves_of_one_cap_list_where_it_goes_and_what_it_claims(tmp_path: Path) -> None:
    game = _game_in_collection(6, [])
    state = tmp_path / "game.json"
    state.write_text(game.serialize())
    caps = slides(game.position)
    source = next(iter(caps))
    out = _play_piped(state, f"moves\nmoves {source}\n{source}\nmoves a9\nquit\n")
    out = out.replace("\n    ", " ")  # long lines are wrapped to the width
    assert "Your caps can move: " in out and "Type moves SQUARE" in out
    for dest, targets in caps[source].items():
        assert f"  {source}-{dest}  claims {' '.join(targets)}" in out
    assert out.count(f"Your cap on {source} can slide to") == 2  # moves c3, and c3 alone
    assert "There is no cap of yours on a9." in out


@pytest.mark.slow
def test_refusals_are_short_and_codes_come_with_verbose(tmp_path: Path) -> None:
    game = _game_in_collection(6, [])
    state = tmp_path / "game.json"
    state.write_text(game.serialize())
    out = _play_piped(state, "zz\nquit\n")
    verbose = _play_piped(state, "zz\nquit\n", "--verbose")
    assert "That is not a move ('zz' is not a move)" in out and "[MALFORMED]" not in out
    assert "[MALFORMED]" in verbose


@pytest.mark.slow
def test_resign_ends_the_game_and_the_record_is_written(tmp_path: Path) -> None:
    target = tmp_path / "record.json"
    args = ("--bot", "random", "--players", "3", "--seed", "2", "--name", "Ann")
    out = _piped(*args, "--record", str(target), typed="resign\n").stdout
    assert "You resign." in out and "Game over. Winners: random, random #2." in out
    assert out.rstrip().endswith(f"You lose.\nThe game's record is in {target}.")
    record = json.loads(target.read_text())
    assert [p["name"] for p in record["header"]["players"]] == ["Ann", "random", "random #2"]
    assert from_record(record).gameover


@pytest.mark.slow
def test_no_record_of_a_game_left_unfinished(tmp_path: Path) -> None:
    target = tmp_path / "record.json"
    done = _piped("--bot", "random", "--record", str(target), typed="quit\n")
    assert done.returncode == 0
    assert f"The game is not over: no record written to {target}." in done.stdout
    assert not target.exists() and not list(tmp_path.iterdir())


def test_collections_wrap_between_trees_never_inside_one() -> None:
    from stawvs_ap.pictures.textboard import board_text

    game = StawvsGame.new(2, seed=8)
    rng = random.Random(8)
    while not game.gameover:
        game.move(random_move(game.position, rng))
    wide = board_text(game)
    narrow = board_text(game, width=40)
    for line in narrow.splitlines()[11:]:
        assert line.count("[") == line.count("]")  # no tree cut in two
    joined = re.sub(r"\n    ", "  ", narrow)
    assert joined == wide
    assert max(len(line) for line in narrow.splitlines()[11:]) <= 40 or "[" not in narrow


_BOARD_LINE = re.compile(r"^(\d  |   a  )")


@pytest.mark.slow
@pytest.mark.parametrize("tag", thinned([t for t in languages() if t != SOURCE_LANGUAGE], 4))
def test_every_line_the_game_says_is_in_the_players_language(tmp_path: Path, tag: str) -> None:
    game = _game_in_collection(6, [])
    state = tmp_path / "game.json"
    state.write_text(game.serialize())
    source, dests = next(iter(slides(game.position).items()))
    dest = next(iter(dests))
    typed = (
        f"help\nmoves\nmoves {source}\n{source}\n{source}-{dest}\nzz\nmoves a9\n"
        + "x" * 5000
        + "\nundo\nhint\nsave\nsave g.json\nresign\n"
    )
    args = ("--verbose", "--seed", "1", "--record", "record.json")
    english = _play_piped(state, typed, *args).replace("\n    ", " ").splitlines()
    worded = _play_piped(state, typed, *args, "--lang", tag).replace("\n    ", " ").splitlines()
    assert len(worded) == len(english)
    said = [(en, xx) for en, xx in zip(english, worded, strict=True) if not _BOARD_LINE.match(en)]
    assert len(said) > 30
    assert [en for en, xx in said if en == xx and en] == []
    assert "[MALFORMED]" in "\n".join(worded) and "save FILE" in "\n".join(worded)
