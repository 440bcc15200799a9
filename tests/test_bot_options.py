"""Bot options and specs: each option is declared once (type, range, default, help),
and specs, constructors, budgets, ``--help`` and docs/bots.md all hold to it.

A spec is ``NAME[:KEY=VALUE,...]``; any text at all is either a spec whose
every value lies in its option's range, or ``BAD_ARGUMENT`` naming the
problem, never another exception.
"""

from __future__ import annotations

import dataclasses
import math
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stawvs_ap.bots import (
    BOTS,
    MAX_ITERATIONS,
    MAX_SECONDS,
    Bot,
    BotSpec,
    Budget,
    GreedyBot,
    MCTSBot,
    MCTSSettings,
    Option,
    Settings,
    UCTBot,
    make_bot,
)
from stawvs_ap.bots.options import options_of
from stawvs_ap.bots.spec import MAX_SPEC_LENGTH, options_help, options_table
from stawvs_ap.errors import ErrorCode, StawvsError
from tests.hostile import scaled

BOTS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "bots.md"


def _refused(call: Any, *words: str) -> StawvsError:
    with pytest.raises(StawvsError) as caught:
        call()
    assert caught.value.code == ErrorCode.BAD_ARGUMENT
    for word in words:
        assert word in caught.value.message, caught.value.message
    return caught.value


# -- declarations ------------------------------------------------------------------


def _settings_class(bot: type[Bot]) -> type[Settings] | None:
    """The settings dataclass a bot's constructor takes, if it takes one."""
    hint = typing.get_type_hints(bot.__init__).get("settings")
    found = [kind for kind in typing.get_args(hint) if kind is not type(None)]
    return found[0] if found else None


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_option_is_declared_once_a_budget_or_a_field_of_the_bots_settings(
    name: str,
) -> None:
    bot = BOTS[name]
    budget = {"seconds", "iterations", "command"}  # the budget every bot takes; exec's program
    settings = _settings_class(bot)
    own = [option for option in bot.options if option.name not in budget]
    if settings is None:
        assert not own
    else:
        assert own == list(options_of(settings))
        assert [f.name for f in dataclasses.fields(settings)] == [o.name for o in own]
    for option in bot.options:
        assert option.help and option.kind in (int, float, bool, str)
        if option.kind in (int, float):
            assert option.low is not None and option.high is not None, option
        if option.default is not None:
            assert option.check(option.default) == option.default


@pytest.mark.parametrize("bot", [MCTSBot, UCTBot])
def test_a_constructor_takes_settings_and_changes_by_name_each_checked(bot: type[Bot]) -> None:
    settings = _settings_class(bot)
    assert settings is not None
    made = bot(iterations=10)
    assert made.settings == settings()  # type: ignore[attr-defined]
    assert bot(iterations=10, memory=50).settings.memory == 50  # type: ignore[attr-defined]
    given = settings(memory=60)  # type: ignore[call-arg]
    assert bot(iterations=10, settings=given).settings is given  # type: ignore[attr-defined]
    _refused(lambda: bot(iterations=10, memory=0), "option memory must be")
    _refused(lambda: settings(memory=0), "option memory must be")  # type: ignore[call-arg]
    _refused(lambda: bot(iterations=10, depth=3), f"bot {bot.name} takes the options", "'depth'")


def test_mcts_settings_hold_every_option_the_spec_gives() -> None:
    bot = BotSpec.parse("mcts:iterations=5,exploration=0.7,reuse=false").make(seed=1)
    assert bot.settings == MCTSSettings(exploration=0.7, reuse=False)  # type: ignore[attr-defined]
    assert MCTSSettings(exploration=1).exploration == 1.0  # a whole number for a float


def test_the_issues_crashing_options_are_refused_naming_the_option_and_its_range() -> None:
    for text, option in [
        ("mcts:temperature=0", "temperature"),
        ("mcts:widening=-1", "widening"),
        ("mcts:seconds=1e306", "seconds"),
        ("mcts:seconds=1e300", "seconds"),
        ("uct:iterations=1.5", "iterations"),
        ("mcts:iterations=100000000000000", "iterations"),
        ("mcts:samples=2000", "samples"),
        ("greedy:seconds=nan", "seconds"),
        ("mcts:seconds=inf", "seconds"),
        ("mcts:reuse=maybe", "reuse"),
        ("mcts:plies=-2", "plies"),
        ("uct:memory=0", "memory"),
    ]:
        error = _refused(lambda text=text: BotSpec.parse(text), f"option {option} must be")
        declared = BOTS[text.split(":")[0]].option(option)
        assert declared.describe() in error.message


def test_specs_read_names_and_keys_in_any_case_and_refuse_what_no_bot_takes() -> None:
    spec = BotSpec.parse(" MCTS : Seconds=0.25, expand-after=3 ,REUSE=False")
    assert spec == BotSpec("mcts", (("seconds", 0.25), ("expand_after", 3), ("reuse", False)))
    assert str(spec) == "mcts:seconds=0.25,expand_after=3,reuse=false"
    assert BotSpec.parse(str(spec)) == spec
    assert BotSpec.parse("greedy").options == ()
    _refused(lambda: BotSpec.parse("alphazero"), "unknown bot", "known: exec, greedy, mcts")
    _refused(lambda: BotSpec.parse("mcts:depth=3"), "takes the options seconds")
    _refused(lambda: BotSpec.parse("mcts:seconds"), "KEY=VALUE")
    _refused(lambda: BotSpec.parse("mcts:seconds=1,Seconds=2"), "seconds is given twice")
    _refused(lambda: BotSpec.parse("uct:exploration=1"), "takes the options")
    _refused(lambda: BotSpec.parse("m" * (MAX_SPEC_LENGTH + 1)), "at most")
    _refused(lambda: BotSpec.parse(5), "text")  # type: ignore[arg-type]


def test_what_a_refusal_quotes_of_the_input_is_short() -> None:
    error = _refused(lambda: BotSpec.parse("mcts:temperature=" + "9" * 400))
    assert len(error.message) < 200
    error = _refused(lambda: BotSpec.parse("x" * 400))
    assert len(error.message) < 200


def test_options_given_as_python_values_are_checked_the_same_way() -> None:
    assert BotSpec.of("mcts", {"seconds": 1, "reuse": False}) == BotSpec.parse(
        "mcts:seconds=1,reuse=false"
    )
    _refused(lambda: BotSpec.of("mcts", {"seconds": "1"}), "option seconds must be a number")
    _refused(lambda: BotSpec.of("mcts", {"iterations": True}), "whole number")
    _refused(lambda: BotSpec.of("mcts", {"iterations": 2.0}), "whole number")
    _refused(lambda: BotSpec.of("mcts", {"reuse": 1}), "true or false")
    _refused(lambda: BotSpec.of("mcts", {"temperature": math.nan}), "temperature")
    _refused(lambda: BotSpec.of("mcts", [("seconds", 1)]), "map")  # type: ignore[arg-type]
    _refused(lambda: BotSpec.of(None), "text")  # type: ignore[arg-type]


def test_constructors_check_their_options_as_specs_do() -> None:
    _refused(lambda: MCTSBot(temperature=0), "option temperature")
    _refused(lambda: MCTSBot(widening=-1), "option widening")
    _refused(lambda: MCTSBot(samples=1.5), "option samples")  # type: ignore[arg-type]
    _refused(lambda: UCTBot(memory=10**9), "option memory")
    _refused(lambda: GreedyBot(seconds=MAX_SECONDS * 2), "option seconds")
    _refused(lambda: GreedyBot(iterations=0), "option iterations")
    assert MCTSBot(exploration=1).settings.exploration == 1.0  # a whole number is a number


def test_budgets_have_maxima_and_an_iteration_budget_stops_at_the_longest_think() -> None:
    assert Budget(seconds=MAX_SECONDS).seconds == MAX_SECONDS
    assert Budget(iterations=MAX_ITERATIONS).iterations == MAX_ITERATIONS
    _refused(lambda: Budget(seconds=MAX_SECONDS + 1), "seconds")
    _refused(lambda: Budget(iterations=MAX_ITERATIONS + 1), "iterations")
    _refused(lambda: Budget(seconds=math.inf), "seconds")
    _refused(lambda: Budget(iterations=True), "iterations")  # type: ignore[arg-type]
    assert Budget(iterations=10).deadline(100.0) == 100.0 + MAX_SECONDS
    assert Budget(seconds=2).deadline(100.0) == 102.0
    _refused(lambda: GreedyBot().analyse(_game(), top=0), "option top")
    _refused(lambda: GreedyBot().analyse(_game(), top=2.5), "option top")  # type: ignore[arg-type]


def _game() -> Any:
    from stawvs_ap import StawvsGame

    return StawvsGame.new(2, seed=1)


def test_make_bot_takes_the_calls_budget_else_the_specs_else_the_bots() -> None:
    bot, budget = make_bot("mcts:iterations=300,temperature=3", seed=7)
    assert isinstance(bot, MCTSBot) and bot.settings.temperature == 3.0 and bot.seed == 7
    assert budget == Budget(iterations=300)
    assert make_bot("mcts:iterations=300", seconds=0.5)[1] == Budget(seconds=0.5)
    assert make_bot("mcts")[1] == Budget(seconds=1.0)
    assert make_bot("greedy")[1] == Budget()
    assert make_bot(BotSpec.parse("uct"), iterations=5)[1] == Budget(iterations=5)
    _refused(lambda: make_bot("mcts", seconds=-1), "option seconds")
    _refused(lambda: make_bot("mcts", seed="7"), "a seed is a whole number from 0 to 2^63-1")


# -- random specs ----------------------------------------------------------------------


def _value_text(option: Option[Any], draw: st.DrawFn) -> str:
    if option.kind is bool:
        return draw(st.sampled_from(["true", "false", "True", "FALSE"]))
    if option.kind is int:
        return str(draw(st.integers(int(option.low or 0), int(option.high or 0))))
    value = draw(
        st.floats(option.low or 0, option.high or 0, exclude_min=option.above, allow_nan=False)
    )
    return repr(value)


@st.composite
def valid_specs(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    name = draw(st.sampled_from(sorted(BOTS)))
    options = draw(st.lists(st.sampled_from(BOTS[name].options), unique=True, max_size=6))
    given = {option.name: _value_text(option, draw) for option in options}
    return name, given


@settings(max_examples=scaled(400))
@given(valid_specs())
def test_every_value_in_its_declared_range_is_accepted_and_round_trips(
    case: tuple[str, dict[str, str]],
) -> None:
    name, given = case
    spec = BotSpec.parse(name + ":" + ",".join(f"{k}={v}" for k, v in given.items()))
    assert [key for key, _ in spec.options] == list(given)
    assert BotSpec.parse(str(spec)) == spec
    bot = spec.make(1)
    for key, value in spec.options:
        settings = getattr(bot, "settings", None)  # the bots with options of their own
        assert getattr(settings, key, None) == value or key in ("seconds", "iterations")


_SPEC_TEXT = st.one_of(
    st.text(max_size=80),
    st.builds(
        lambda name, pairs: name + ":" + ",".join(f"{k}={v}" for k, v in pairs),
        st.sampled_from([*BOTS, "MCTS", "x"]),
        st.lists(
            st.tuples(
                st.sampled_from([o.name for b in BOTS.values() for o in b.options] + ["x"]),
                st.one_of(
                    st.integers(-(10**20), 10**20).map(str),
                    st.floats().map(repr),
                    st.sampled_from(["true", "nan", "-inf", "1e400", "", "0x10", "1_0"]),
                    st.text(max_size=8),
                ),
            ),
            max_size=5,
        ),
    ),
)


@pytest.mark.slow
@settings(max_examples=scaled(1500))
@given(_SPEC_TEXT)
def test_any_text_is_a_checked_spec_or_bad_argument(text: str) -> None:
    try:
        spec = BotSpec.parse(text)
    except StawvsError as exc:
        assert exc.code == ErrorCode.BAD_ARGUMENT
        assert exc.message and len(exc.message) < 400
        return
    bot = BOTS[spec.name]
    for key, value in spec.options:
        assert bot.option(key).check(value) == value


# -- documentation -----------------------------------------------------------------------


def test_the_documented_table_of_options_is_the_declarations() -> None:
    lines = BOTS_PAGE.read_text(encoding="utf-8").splitlines()
    table = options_table()
    start = lines.index(table[0])
    assert lines[start : start + len(table)] == table


def test_help_lists_every_option_with_its_range() -> None:
    text = options_help()
    for name, bot in BOTS.items():
        assert f"  {name}:" in text
        for option in bot.options:
            assert re.search(rf"{option.name}: {re.escape(option.describe())}, default", text)


def test_a_bot_class_of_its_own_declares_options_the_same_way() -> None:
    # What a plug-in bot (issue 27) does: declare its options; the checks follow.
    depth = Option("depth", int, 3, "how deep to look", low=1, high=8)

    class Deep(Bot):
        name = "deep"
        options = (*Bot.options, depth)

        def __init__(self, *, seed: int | str | None = None, depth: int = 3, **budget: Any):
            super().__init__(seed=seed, **budget)
            self.depth = self.option("depth").check(depth)

        def _choose(self, position: Any, budget: Budget) -> Any:
            raise NotImplementedError

        def _analyse(self, position: Any, budget: Budget) -> Any:
            raise NotImplementedError

    assert Deep(depth=8).depth == 8
    _refused(lambda: Deep(depth=9), "option depth must be a whole number from 1 to 8")
    assert depth.parse(" 4 ") == 4


def test_a_shared_option_is_a_field_of_its_own_name() -> None:
    from stawvs_ap.bots.options import MEMORY, Settings, options_of, shared_setting

    @dataclasses.dataclass(frozen=True)
    class Kept(Settings):
        memory: int = shared_setting(MEMORY)

    @dataclasses.dataclass(frozen=True)
    class Misnamed(Settings):
        mem: int = shared_setting(MEMORY)

    assert options_of(Kept) == (MEMORY,) and Kept().memory == MEMORY.default
    # a spec would set "memory", which Misnamed has no field for
    with pytest.raises(TypeError, match="'mem' shares the option 'memory'"):
        options_of(Misnamed)
