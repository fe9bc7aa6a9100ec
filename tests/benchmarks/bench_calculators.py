"""Benchmark of the exact calculators: against icepool and against a Monte Carlo estimate.

Run from the project root::

    python tests/benchmarks/bench_calculators.py [--out bench.json] [--repeats 7] [--trials 100000]

Prints a Markdown table and writes the figures as JSON to ``--out``. Times are medians over
``--repeats`` runs with :func:`time.perf_counter`. The Monte Carlo estimate rolls every die of
every trial (Attack, Defense and Damage rolls) with a seeded generator, once; its error is the
largest absolute difference between its frequencies and the exact probabilities. The orders advisor
is timed for 10 against 10 models of one Wound (in Python, and as ``kensei-ref advise`` in a new
process) and, among the largest inputs, for 40 against 40 models of 5 Wounds. This file is not
collected by pytest (it is not named ``test_*``); the product itself never samples.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from machine import this_machine

from calculators import CALCULATORS, RuleValues
from calculators.advisor import advise
from calculators.profiles import read_units

RULES = RuleValues.bundled().as_dict()
SHOT = {"attack": 5, "defense": 5, "armor": 3}


def median_time(function: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def ours_shooting(dice: int) -> dict:
    return CALCULATORS["shooting"].run({"dice": dice, **SHOT})


def die_wounds(hit: int, defense_roll: int, damage: int) -> int:
    """One die's Wounds from its three rolls (threshold reading), as the rules read."""
    attack, defense, armor = SHOT["attack"], SHOT["defense"], SHOT["armor"]
    if hit <= attack:
        return 0
    if hit == 10:
        defense -= RULES["kensei.roll-of-ten"]["defense_reduction"]
    if defense_roll == 1 or defense_roll < defense or damage == 1:
        return 0
    if damage == 10:
        return RULES["kensei.damage-roll"]["critical_wounds"]
    return int(damage > armor)


def icepool_shooting(dice: int) -> list[float]:
    """The same distribution with icepool, the per-die expression built afresh (no warm cache)."""
    import icepool

    die = icepool.map(die_wounds, icepool.d10, icepool.d10, icepool.d10)
    total = dice @ die
    return [float(total.probability(k)) if k in total else 0.0 for k in range(total.max_outcome() + 1)]


def monte_carlo_shooting(dice: int, trials: int, seed: int = 2013) -> list[float]:
    """Frequencies of each total over ``trials`` volleys, every roll of every die drawn."""
    rng = random.Random(seed)
    roll = rng.randrange
    counts: dict[int, int] = {}
    for _ in range(trials):
        total = 0
        for _ in range(dice):
            hit = roll(1, 11)
            if hit <= SHOT["attack"]:
                continue
            total += die_wounds(hit, roll(1, 11), roll(1, 11))
        counts[total] = counts.get(total, 0) + 1
    high = max(counts)
    return [counts.get(k, 0) / trials for k in range(high + 1)]


def largest_error(exact: list[float], estimate: list[float]) -> float:
    length = max(len(exact), len(estimate))
    padded = [values + [0.0] * (length - len(values)) for values in (exact, estimate)]
    return max(abs(a - b) for a, b in zip(*padded, strict=True))


def melee_inputs(wounds: int) -> dict:
    side = {"models": wounds, "wounds": wounds, "attack": 5, "defense": 5, "armor": 3, "initiative": 3}
    return {f"{s}_{k}": v for s in "ab" for k, v in side.items()} | {"first": "roll"}


ADVISOR_UNITS = {
    "format": "kensei-ref/units",
    "version": 1,
    "units": [
        {"name": "archers", "game": "kensei", "unit_type": "infantry", "wounds": [1] * 10, "attack": 6, "defense": 5,
         "armor": 3, "initiative": 4, "ranged": True, "loaded": True, "short_range_cm": 10, "range_cm": 30,
         "long_range_cm": 45},
        {"name": "samurai", "game": "kensei", "unit_type": "infantry", "wounds": [1] * 10, "attack": 5, "defense": 6,
         "armor": 4, "initiative": 5},
    ],
}  # fmt: skip
"""The advisor's figure: 10 archers against 10 samurai, 8 cm apart, a march allowed before the charge."""
ADVISOR_SITUATION = {"distance": 8, "charge_reading": "after-move"}


def advisor_table() -> int:
    mine, enemy = read_units(ADVISOR_UNITS)
    return len(advise(mine, enemy, ADVISOR_SITUATION).rows)


def archers(name: str, models: int, wounds: int) -> dict:
    """Infantry with loaded bows, ``models`` of ``wounds`` Wounds: the enemy may withstand and shoot."""
    return {"name": name, "game": "kensei", "unit_type": "infantry", "wounds": [wounds] * models, "attack": 5,
            "defense": 5, "armor": 3, "initiative": 4, "ranged": True, "loaded": True, "short_range_cm": 8,
            "range_cm": 20, "long_range_cm": 40}  # fmt: skip


LARGEST_UNITS = {"format": "kensei-ref/units", "version": 1, "units": [archers("mine", 40, 5), archers("enemy", 40, 5)]}
"""The largest units the advisor's melees take: 40 models of 5 Wounds on each side (200 against 200
Wounds), 9 cm apart. Their charge after a shot meets about 30,000 pairs of sizes, each an exact melee."""


def largest_advisor(reaction: str) -> Callable[[], int]:
    """The whole table of the largest units, the enemy answering the charge with ``reaction``."""
    mine, enemy = read_units(LARGEST_UNITS)
    return lambda: len(advise(mine, enemy, {"distance": 9, "enemy_reaction": reaction}).rows)


def _warband_units(mine: int = 10, enemy: int = 10) -> dict:
    kinds = [archers("archers", 6, 1), {**archers("samurai", 8, 1), "ranged": False, "loaded": False,
             "attack": 4, "short_range_cm": None, "range_cm": None, "long_range_cm": None},
             {**archers("cavalry", 5, 2), "unit_type": "cavalry", "ranged": False, "loaded": False,
              "short_range_cm": None, "range_cm": None, "long_range_cm": None}]  # fmt: skip
    sides = (("mine", mine), ("enemy", enemy))
    units = [{**kinds[i % 3], "name": f"{side}{i}", "honor": 6} for side, count in sides for i in range(count)]
    return {"format": "kensei-ref/units", "version": 1, "units": units}


WARBAND_UNITS = _warband_units()
"""The Command phase plan's units: archers, samurai and cavalry in turn, ten on each side."""

WARBAND_TABLE = {
    "format": "kensei-ref/table", "version": 1, "game": "kensei", "general": "daimyo", "dominance": True,
    "ki": 6, "mine": [{"unit": f"mine{i}", "state": "fleeing" if i >= 6 else "ready"} for i in range(10)],
    "enemy": [{"unit": f"enemy{i}"} for i in range(10)],
    "distances": [{"mine": f"mine{i}", "enemy": f"enemy{j}", "cm": 8 + (3 * i + 5 * j) % 18}
                  for i in range(6) for j in range(10)],
}  # fmt: skip
"""The Command phase plan's figure: a warband of 10 units (4 of them fleeing) against 10 enemies, every
pair of a ready unit and an enemy within reach (8 to 25 cm), a Daimyo on the hill with Ki 6."""


def warband_table() -> Any:
    """:data:`WARBAND_TABLE` read against :data:`WARBAND_UNITS`."""
    from calculators.table import read_table

    return read_table(WARBAND_TABLE, read_units(WARBAND_UNITS))


LARGEST_PLAN_TABLE = {
    "format": "kensei-ref/table", "version": 1, "game": "kensei", "general": "daimyo", "dominance": True,
    "ki": 6, "mine": [{"unit": f"mine{i}"} for i in range(12)], "enemy": [{"unit": f"enemy{j}"} for j in range(20)],
    "distances": [{"mine": f"mine{i}", "enemy": f"enemy{j}", "cm": 8 + (3 * i + 5 * j) % 18}
                  for i in range(12) for j in range(20)],
}  # fmt: skip
"""The largest Command phase plan the table file allows: 12 ready units (the most a plan takes) against
20 enemies (the most a side holds), archers, samurai and cavalry in turn, every pair within reach."""


def largest_plan_table() -> Any:
    """:data:`LARGEST_PLAN_TABLE` read against its units: :data:`WARBAND_UNITS`' kinds, 12 and 20."""
    from calculators.table import read_table

    return read_table(LARGEST_PLAN_TABLE, read_units(_warband_units(12, 20)))


def advise_command(repeats: int) -> dict:
    """``kensei-ref advise`` for the advisor's figure (10 against 10 models of one Wound), as a player
    runs it: a new process of the installed script, timed from its start to its exit (median). As in
    ``bench_terminal.py``, twice: with the modules' bytecode cached, as ``pip install`` leaves a
    package, and with every module compiled from its source on each run (``PYTHONDONTWRITEBYTECODE``,
    as this checkout runs), which alone costs about 40 ms; the first, caching run is not counted."""
    script = Path(sys.executable).with_name("kensei-ref")
    figures: dict = {}
    with tempfile.TemporaryDirectory() as folder:
        units = Path(folder) / "units.json"
        units.write_text(json.dumps(ADVISOR_UNITS), encoding="utf-8")
        argv = [str(script), "advise", "--units", str(units), "--mine", "archers", "--enemy", "samurai",
                "--distance", "8", "--charge-reading", "after-move"]  # fmt: skip
        figures["argv"] = ["kensei-ref", *argv[1:3], "units.json", *argv[4:]]
        for key, bytecode in (("median_s", True), ("compiled_each_run_median_s", False)):
            environ = {
                k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")
            }
            if bytecode:
                environ["PYTHONPYCACHEPREFIX"] = f"{folder}/bytecode"  # not beside the sources of the checkout
            else:
                environ["PYTHONDONTWRITEBYTECODE"] = "1"
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=environ)
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=environ)
                times.append(time.perf_counter() - start)
            figures[key] = statistics.median(times)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    parser.add_argument("--repeats", type=int, default=7, help="timed runs per figure (median)")
    parser.add_argument("--trials", type=int, default=100_000, help="Monte Carlo volleys")
    args = parser.parse_args(argv)

    rows = []
    for dice in (10, 40, 100):
        exact = ours_shooting(dice)["pmf"]
        ours = median_time(lambda d=dice: ours_shooting(d), args.repeats)
        oracle = icepool_shooting(dice)
        pool = median_time(lambda d=dice: icepool_shooting(d), args.repeats)
        start = time.perf_counter()
        estimate = monte_carlo_shooting(dice, args.trials)
        sampled = time.perf_counter() - start
        rows.append({
            "case": f"shooting, {dice} dice", "calculator": "shooting", "size": dice,
            "ours_s": ours, "icepool_s": pool, "icepool_ratio": pool / ours,
            "icepool_max_abs_diff": largest_error(exact, oracle), "monte_carlo_s": sampled,
            "monte_carlo_ratio": sampled / ours, "monte_carlo_max_abs_error": largest_error(exact, estimate),
        })  # fmt: skip
    for wounds in (10, 30):
        inputs = melee_inputs(wounds)
        rows.append(
            {
                "case": f"melee, {wounds} v {wounds} Wounds, Initiative rolled",
                "calculator": "melee",
                "size": wounds,
                "ours_s": median_time(lambda i=inputs: CALCULATORS["melee"].run(i), args.repeats),
            }
        )
    start = time.perf_counter()
    advisor_table()  # the first table of the process: nothing computed before
    first = time.perf_counter() - start
    rows.append(
        {
            "case": "orders advisor, 10 v 10 models, every order",
            "calculator": "advisor",
            "size": 10,
            "first_s": first,
            "ours_s": median_time(advisor_table, args.repeats),
        }
    )
    planner = {"general": "daimyo", "dominance": True, "honors": [5, 6, 7, 8, 4, 3]}
    rows.append(
        {
            "case": "planner, 6 units, 6 points",
            "calculator": "planner",
            "size": 6,
            "ours_s": median_time(lambda: CALCULATORS["planner"].run(planner), args.repeats),
        }
    )

    # The largest inputs the bounds allow: none may take more than a second.
    largest = {
        "shooting, 200 dice, subtractive": ("shooting", {"dice": 200, "attack": 0, "defense": 0, "armor": 0,
                                                         "damage_rule": "subtractive"}),
        "melee, 200 against 200 Wounds, every bonus": ("melee", melee_inputs(200) | {"a_extra_dice": 20}),
        "planner, 10 units, 20 points": ("planner", {"points": 20, "honors": [5, 6, 7, 8, 4, 3, 5, 6, 7, 9]}),
        "morale over 20 turns": ("morale-states", {"morale": 7, "turns": 20, "triggers": [1] * 20, "banner": True}),
    }  # fmt: skip
    largest_inputs = {
        case: median_time(lambda n=name, i=inputs: CALCULATORS[n].run(i), 3) for case, (name, inputs) in largest.items()
    }
    replies = (
        ("shoot", "withstands and shoots"),
        ("fight", "withstands and fights"),
        ("counter-charge", "counter-charges"),
        ("best", "gives its best reply (each of four computed)"),
    )
    for reaction, words in replies:
        case = f"orders advisor, 40 v 40 models of 5 Wounds (200 v 200), the enemy {words}"
        largest_inputs[case] = median_time(largest_advisor(reaction), 3)
    from calculators.command_plan import plan_turn

    table = warband_table()
    for objective in ("expected_wounds", "victory"):
        case = f"Command phase plan, 10 units (4 fleeing) against 10 enemies, {objective}"
        largest_inputs[case] = median_time(lambda o=objective: len(plan_turn(table, o)), 3)
    largest = largest_plan_table()
    for objective in ("expected_wounds", "victory"):
        case = f"Command phase plan, 12 ready units against 20 enemies (the most allowed), {objective}"
        largest_inputs[case] = median_time(lambda o=objective: len(plan_turn(largest, o)), 3)
    command = advise_command(args.repeats)

    def show(row: dict, key: str, pattern: str, scale: float = 1) -> str:
        return pattern.format(row[key] * scale) if key in row else ""

    print(f"Medians of {args.repeats} runs; Monte Carlo: {args.trials:,} trials, one run.\n")
    print("| case | ours (ms) | icepool (ms) | icepool / ours | icepool max abs diff "
          "| Monte Carlo (ms) | MC / ours | MC max abs error |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        cells = [
            row["case"],
            show(row, "ours_s", "{:.2f}", 1000),
            show(row, "icepool_s", "{:.2f}", 1000),
            show(row, "icepool_ratio", "{:.1f}x"),
            show(row, "icepool_max_abs_diff", "{:.1e}"),
            show(row, "monte_carlo_s", "{:.0f}", 1000),
            show(row, "monte_carlo_ratio", "{:.0f}x"),
            show(row, "monte_carlo_max_abs_error", "{:.4f}"),
        ]
        print("| " + " | ".join(cells) + " |")
    advisor = next(row for row in rows if row["calculator"] == "advisor")
    print(
        f"\nOrders advisor, 10 v 10: {advisor['first_s'] * 1000:.0f} ms for the first table of a process, "
        f"{advisor['ours_s'] * 1000:.1f} ms for the next (median)"
    )
    print(
        f"`{' '.join(command['argv'])}`: {command['median_s'] * 1000:.0f} ms, a new process (median; "
        f"{command['compiled_each_run_median_s'] * 1000:.0f} ms with every module compiled on each run)"
    )
    print("\nLargest inputs within the bounds (median of 3 runs):")
    for case, seconds in largest_inputs.items():
        print(f"- {case}: {seconds * 1000:.0f} ms")
    if args.out:
        figures = {
            "measured": time.strftime("%Y-%m-%d"),
            "python": platform.python_version(),
            "machine": this_machine(),
            "repeats": args.repeats,
            "trials": args.trials,
            "rows": rows,
            "largest_inputs_s": largest_inputs,
            "advise_command": command,
        }
        args.out.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
