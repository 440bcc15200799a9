"""Random steps per second through the research adapters (the rl extra), against
the engine's own step as an adapter must take it: list the legal moves, play one.

    python benchmarks/research.py [--steps N]

Prints one line per way of stepping, with its cost relative to the engine's
step (docs/research.md keeps the figures; issue 39 asks for at most 3x), and
the share of the PettingZoo step spent building the action mask.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel

import stawvs_ap.openspiel  # noqa: F401 -- registers python_stawvs
from stawvs_ap import Position
from stawvs_ap.encoding import NUM_ACTIONS, legal_actions
from stawvs_ap.pettingzoo import raw_env

PLAYERS = 3


def engine_steps(steps: int, rng: random.Random) -> int:
    done = 0
    while done < steps:
        position = Position.initial(PLAYERS, seed=rng.randrange(1 << 63))
        while not position.is_over and done < steps:
            position, _ = position.play(rng.choice(list(position.legal_moves())))
            done += 1
    return done


def openspiel_steps(steps: int, rng: random.Random) -> int:
    game = pyspiel.load_game(f"python_stawvs(players={PLAYERS},seed=1)")
    done = 0
    while done < steps:
        state = game.new_initial_state()
        state.position = Position.initial(PLAYERS, seed=rng.randrange(1 << 63))
        while not state.is_terminal() and done < steps:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return done


def pettingzoo_steps(steps: int, rng: random.Random) -> float:
    """Seconds spent in the environment (observe, then step) for ``steps`` random
    steps; the agent's own reading of the mask (a pass over 33,409 entries) is
    left out, being the agent's cost whatever the environment."""
    environment = raw_env(players=PLAYERS)
    done = 0
    inside = 0.0
    while done < steps:
        environment.reset(seed=rng.randrange(1 << 30))
        while environment.agents and done < steps:
            agent = environment.agent_selection
            if environment.terminations[agent]:
                environment.step(None)
                continue
            started = time.perf_counter()
            mask = environment.observe(agent)["action_mask"]
            inside += time.perf_counter() - started
            action = rng.choice(np.flatnonzero(mask).tolist())
            started = time.perf_counter()
            environment.step(action)
            inside += time.perf_counter() - started
            done += 1
    return inside


def mask_only(steps: int, rng: random.Random) -> int:
    done = 0
    while done < steps:
        position = Position.initial(PLAYERS, seed=rng.randrange(1 << 63))
        while not position.is_over and done < steps:
            mask = np.zeros(NUM_ACTIONS, np.int8)
            mask[legal_actions(position)] = 1
            position, _ = position.play(rng.choice(list(position.legal_moves())))
            done += 1
    return done


ROUNDS = 3  # the best of three: the machine may be shared


def rate(run: Callable[[int, random.Random], int], steps: int) -> float:
    best = 0.0
    for _ in range(ROUNDS):
        started = time.perf_counter()
        done = run(steps, random.Random(1))
        best = max(best, done / (time.perf_counter() - started))
    return best


def rate_inside(run: Callable[[int, random.Random], float], steps: int) -> float:
    return max(steps / run(steps, random.Random(1)) for _ in range(ROUNDS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    steps = parser.parse_args().steps
    base = rate(engine_steps, steps)
    print(f"{'engine step (list, play one)':32s}: {base:10.0f} steps/s  1.00x")
    figures = (
        ("OpenSpiel (legal_actions, apply)", rate(openspiel_steps, steps)),
        ("PettingZoo (observe, step)", rate_inside(pettingzoo_steps, steps)),
        ("engine step + action mask", rate(mask_only, steps)),
    )
    for name, per_second in figures:
        print(f"{name:32s}: {per_second:10.0f} steps/s  {base / per_second:.2f}x")


if __name__ == "__main__":
    main()
