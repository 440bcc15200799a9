"""The terminal game (``stawvs-ap play``): a person against bots.

The person types moves and commands (``play.help``); the bots answer.
A turn on which the person can only pass is passed for them, with a line
saying so; a slide whose claim is forced is completed; a cap's square alone
(``e5``) or a slide alone (``e5-f6``) shows what can follow. The board is
shown before each of the person's turns, with the last move marked and, in
colour, the caps in their owners' colours. Every text is a message of
:mod:`~stawvs_ap.cli.messages`, worded in the game's language.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Collection, Sequence

from ..bots import Bot
from ..bots.base import play_turn
from ..core.moves import Move, MoveSyntaxError
from ..core.position import Position
from ..core.squares import Square
from ..errors import StawvsError
from ..host.game import StawvsGame
from ..i18n import LIST_SEPARATOR, Argument, Catalogue, Message, Phrase, catalogue, printable
from ..pictures.textboard import board_text
from ..service.hints import choice_note, hint_rows
from ..state.format import MAX_STATE_BYTES
from . import messages as m
from .console import EXCERPT, MAX_LINE
from .safe_io import FileError, Transaction
from .terminal import TOO_LONG, Console

__all__ = ["COMMANDS", "TerminalGame", "slides"]

#: The commands a person may type besides moves (Tab completes them too).
COMMANDS = ("help", "hint", "moves", "quit", "resign", "save", "undo")


def slides(position: Position) -> dict[str, dict[str, list[str]]]:
    """The collection moves of the player to move by cap and landing square: for
    each ``FROM`` that can slide, each ``TO`` with the ``TARGET`` squares it can
    claim, in the order of :meth:`Position.continuations
    <stawvs_ap.Position.continuations>`. Empty in the placement phase.

    >>> board = "/".join(["........"] * 7 + ["PI1@1BL1GR1OR1@2...."])
    >>> slides(Position.from_notation(board + " 1 collect -,- -"))
    {'a1': {'b1': ['a1', 'c1'], 'c1': ['b1', 'a1']}}
    """
    if position.mode != "collect":
        return {}
    return {
        str(cap.source): {
            str(slide.dest): [str(move.target) for move in position.continuations(slide)]
            for slide in position.continuations(cap)
        }
        for cap in position.continuations()
        if not cap.is_pass
    }


class TerminalGame:
    """One game: ``seat`` is the person's, ``bots`` play the other seats.

    ``resume_command(path)`` is the command that resumes a game saved to
    ``path``; ``verbose`` adds the codes to refusals.
    """

    def __init__(
        self,
        game: StawvsGame,
        bots: dict[int, Bot],
        names: list[str],
        seat: int,
        console: Console,
        *,
        resume_command: Callable[[str], str],
        verbose: bool = False,
    ) -> None:
        self.game, self.bots, self.names, self.seat = game, bots, names, seat
        self.console, self.verbose = console, verbose
        self.resume_command = resume_command
        self.words: Catalogue = catalogue(game.locale)
        self._shown = -1  # the ply whose board was shown last

    def _worded(self, said: Message | str, /, **args: Argument) -> str:
        """``said`` in the game's language: a declared message worded with
        ``args``, or text already worded (such as a board) as it is."""
        return said if isinstance(said, str) else self.words.say(Phrase(said, args))

    def say(self, said: Message | str, /, **args: Argument) -> None:
        """Say ``said`` (see :meth:`_worded`). Text in ``args`` may come from outside
        (what was typed, a path, a bot's reason), so it is shown printable."""
        shown = {k: printable(v) if isinstance(v, str) else v for k, v in args.items()}
        self.console.say(self._worded(said, **shown))

    # -- the game --------------------------------------------------------------------

    def run(self, *, resumed: bool = False) -> bool:
        """Play until the game ends (True) or the person leaves (False)."""
        game, say = self.game, self.say
        if resumed:
            say(m.PLAY_RESUMED, moves=self._ply(), seat=self.seat)
        else:
            say(m.PLAY_INTRO, players=game.numplayers, seat=self.seat)
        while not self.game.gameover:
            game = self.game
            player = game.currplayer
            if player in self.bots:
                self._bot_turn(player)
            elif game.position.must_pass():
                if player not in game.position.eliminated:
                    say(m.PLAY_YOU_PASS)
                game.move("pass")
            else:
                if self._shown != self._ply():
                    self.show()
                if not self._turn():
                    say(m.PLAY_BYE)
                    return False
        self.show()
        winners = self.game.winner
        if self.seat not in winners:
            say(m.PLAY_YOU_LOSE)
        else:
            say(m.PLAY_YOU_SHARE if len(winners) > 1 else m.PLAY_YOU_WIN)
        return True

    def _bot_turn(self, player: int) -> None:
        game, name = self.game, self.names[player - 1]
        passed = player in game.position.eliminated
        with self.console.thinking(self._worded(m.PLAY_THINKING, name=name, player=player)):
            failure = play_turn(game, self.bots[player])
        if failure is not None and failure.kind == "timeout":
            self.say(m.PLAY_BOT_TIMEOUT, name=name, player=player)
        elif failure is not None:
            self.say(m.PLAY_BOT_FORFEIT, name=name, player=player, reason=failure.reason)
        elif game.lastmove != "pass":
            self.say(m.PLAY_BOT_PLAYS, name=name, player=player, move=str(game.lastmove))
        elif not passed:
            self.say(m.PLAY_BOT_PASSES, name=name, player=player)

    def _turn(self) -> bool:
        """Read and carry out one line; False when the person leaves."""
        text = self.console.ask(self.words.say(m.PLAY_PROMPT), self.complete)
        if text is None:
            return False
        if text == TOO_LONG:
            self.say(m.PLAY_TOO_LONG, limit=MAX_LINE)
            return True
        command, _, argument = text.partition(" ")
        command, argument = command.lower(), argument.strip()
        if command in ("quit", "exit"):
            return False
        actions: dict[str, Callable[[str], None]] = {
            "help": lambda _: self.say(m.PLAY_HELP),
            "?": lambda _: self.say(m.PLAY_HELP),
            "moves": self.moves,
            "hint": lambda _: self.hint(),
            "undo": lambda _: self.undo(),
            "save": self.save,
            "resign": lambda _: self.resign(),
        }
        if command in actions:
            actions[command](argument)
        elif text:
            self.play(text)
        return True

    # -- moves -----------------------------------------------------------------------

    def play(self, text: str) -> None:
        """Play ``text``; a partial move shows what may follow, and a slide with a
        single claim is completed."""
        game = self.game
        verdict = game.validate_move(text)
        if not verdict.valid:
            refusal = printable(verdict.message, 200)
            if self.verbose and verdict.code:
                self.say(m.PLAY_REFUSED_CODE, message=refusal, code=str(verdict.code))
            else:
                self.say(refusal)
            return
        if verdict.complete != 1:
            move = Move.parse(text)
            source = str(move.source)
            if move.dest is None:
                self.moves(source)
                return
            dest = str(move.dest)
            targets = [str(m.target) for m in game.position.continuations(move)]
            if len(targets) != 1:
                example = f"{source}-{dest},{targets[0]}"
                self.say(m.PLAY_CLAIMS_FROM, dest=dest, targets=" ".join(targets), example=example)
                self.show(reach=[Square.parse(t) for t in targets])
                return
            text = f"{source}-{dest},{targets[0]}"
            self.say(m.PLAY_FORCED_CLAIM, target=targets[0], move=text)
        game.move(text)

    def moves(self, argument: str) -> None:
        """``moves``: a summary of the person's moves; ``moves SQUARE``: one cap's."""
        game = self.game
        legal = game.moves()
        if game.mode == "place":
            if argument and argument.lower() not in legal:
                self.play(argument)  # the verdict says why not
            else:
                squares = [argument.lower()] if argument else legal
                self._say_wrapped(
                    m.PLAY_PLACE_SQUARES, count=len(squares), squares=" ".join(squares)
                )
            return
        caps = slides(game.position)
        if not argument:
            reach = [
                self._worded(
                    m.PLAY_CAP_REACH,
                    square=source,
                    count=len(dests),
                    moves=Phrase(m.PLAY_MOVE_COUNT, {"count": sum(map(len, dests.values()))}),
                )
                for source, dests in caps.items()
            ]
            self._say_wrapped(m.PLAY_CAPS, caps=self._worded(LIST_SEPARATOR).join(reach))
            return
        square = argument.lower()
        if square not in caps:
            try:
                own = game.position.cap_at(Square.parse(square)) == self.seat
            except ValueError:
                own = False
            self.say(m.PLAY_CAP_STUCK if own else m.PLAY_NO_CAP, square=square[:EXCERPT])
            return
        self._cap_moves(square, caps[square])
        self.show(reach=[Square.parse(dest) for dest in caps[square]])

    def complete(self, line: str, word: str) -> list[str]:
        """What Tab offers for ``word``: commands and legal moves, or after ``moves``
        the squares of the person's caps that can move."""
        before = line.lstrip().lower().split()
        if before and (len(before) > 1 or line.endswith(" ")):
            options: Sequence[str] = (
                list(slides(self.game.position)) if before[0] == "moves" else ()
            )
        else:
            options = [*COMMANDS, *self.game.moves()]
        return sorted(o for o in options if o.startswith(word.lower()))

    # -- commands --------------------------------------------------------------------

    def hint(self) -> None:
        adviser = next(iter(self.bots.values()))
        with self.console.thinking(self.words.say(m.THINKING)):
            best = hint_rows(self.game, adviser.analyse(self.game, top=3))  # within its budget
        adviser.forget()  # its tree is now rooted at the person's turn
        candidates = [row.words(self.words) for row in best]
        self.say(m.PLAY_HINT, candidates=self.words.say(LIST_SEPARATOR).join(candidates))
        note = choice_note(best)
        if note is not None:  # why the choice comes first, in the same words as stawvs-ap hint
            self.say(self.words.say(note))

    def undo(self) -> None:
        """Take back the person's last move of their own choosing and what followed."""
        probe = self.game.clone()
        while True:
            try:
                move = probe.pop()
            except StawvsError:
                self.say(m.PLAY_NO_UNDO)
                return
            forced = move is not None and move.is_pass and probe.position.must_pass()
            if probe.currplayer == self.seat and not forced:
                break
        self.game = probe
        for bot in self.bots.values():
            bot.forget()
        self.say(m.PLAY_TAKEN_BACK)
        self.show()

    def save(self, path: str) -> None:
        if not path:
            self.say(m.PLAY_SAVE_WHERE)
            return
        try:
            with Transaction(MAX_STATE_BYTES) as io:
                io.commit({path: self.game.serialize() + "\n"})
        except (FileError, StawvsError) as exc:
            self.say(m.PLAY_NOT_SAVED, why=str(exc))
            return
        self.say(m.PLAY_SAVED, path=path)
        self.say(m.PLAY_RESUME_WITH, command=self.resume_command(path))

    def resign(self) -> None:
        self.game.resign(self.seat)
        self.say(m.PLAY_RESIGNED)

    # -- showing ---------------------------------------------------------------------

    def show(self, reach: Collection[int] = ()) -> None:
        """The board, the last move marked; ``reach``: squares to pick out."""
        game, palette = self.game, self.console.palette
        marked = _squares_of(game.lastmove)
        paint = (
            (lambda sq, token: palette.token(token, marked=sq in marked, reachable=sq in reach))
            if palette.on
            else None
        )
        text = board_text(game, names=self.names, width=self.console.width, paint=paint)
        self.console.say(text.rstrip("\n"))
        self._shown = self._ply()

    def _cap_moves(self, square: str, destinations: dict[str, list[str]]) -> None:
        """Where the cap on ``square`` can slide, and what it can claim from each square."""
        claims = {tuple(targets) for targets in destinations.values()}
        if len(claims) == 1:  # with hey: the square it leaves, from everywhere
            [same] = claims
            self._say_wrapped(
                m.PLAY_CAP_SLIDES_CLAIMING,
                square=square,
                count=len(destinations),
                targets=" ".join(same),
                squares=" ".join(destinations),
            )
            return
        self._say_wrapped(m.PLAY_CAP_SLIDES, square=square, count=len(destinations))
        for dest, targets in destinations.items():
            slide = self._worded(
                m.PLAY_SLIDE_CLAIMS, slide=f"{square}-{dest}", targets=" ".join(targets)
            )
            self._say_wrapped("  " + slide)

    def _say_wrapped(self, said: Message | str, /, **args: Argument) -> None:
        width = max(40, self.console.width - 1)
        text = textwrap.fill(
            self._worded(said, **args),
            width,
            subsequent_indent="    ",
            break_on_hyphens=False,
            break_long_words=False,
        )
        self.console.say(text)

    def _ply(self) -> int:
        return sum(len(round_) for round_ in self.game.move_history())


def _squares_of(lastmove: str | None) -> set[int]:
    """The squares a move names (none for a pass or an ending)."""
    try:
        move = Move.parse(lastmove or "")
    except MoveSyntaxError:
        return set()
    return {sq for sq in (move.source, move.dest, move.target) if sq is not None}
