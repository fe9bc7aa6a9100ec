"""The exact odds of one order sequence: the shots and the charge it declares, through the calculators.

A row's figures are those of the calculators run with the inputs its links carry: the shooting
calculator for each shot (or one run with Multiple Shots for fire, reload, fire), the charge
calculator for the chance to reach, the melee calculator for the combat. Where a shot comes before
a charge, the melee is run once for each number of Wounds the shot may deal, with the enemy's
Wounds taken off one model at a time in the order of its profile. When the enemy withstands and
shoots, its shot (the shooting calculator again, with the Wounds it has left) comes before the
charge roll, and the melee is run for each number of Wounds each side lost before it.

Every figure is of what can happen on the table: the Wounds the shots deal are capped at the Wounds
the enemy has (the calculators' own figures, which the links give, count every hit, as a lone volley
at a larger unit would), the reaction shot's at yours. An enemy your shots destroy is a victory and
is not charged; your unit destroyed by the reaction shot is a defeat and makes no charge.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

from . import action_points, charge, movement, shooting
from .choices import NONE
from .errors import CalculatorInputError
from .melee_grid import (
    MeleeGrid,
    MeleeSetting,
    PairTables,
    Sizes,
    TablesKey,
    checked_melee_inputs,
    melee_setting,
    table_sizes,
)
from .orders import MOVES, SHOTS, Situation, action_cost, sequences
from .pmf import multiply
from .profiles import Profile
from .results import over_one_denominator
from .rulebook import RuleValues
from .unit_inputs import ACTION_POINTS_TYPES, CHARGE_BONUS_TYPES, CHARGE_DICE_TYPES, MOVEMENT_TYPES

LONE_TYPES = ("character", "lone_model")
"""The unit types the charge dice table gives no row: they charge only under the other reading."""

CHARGE_DISTANCE_CAP = 100
"""The charge calculator's largest distance; every charge roll falls far short of it."""


@dataclass(frozen=True)
class Link:
    """A calculator run a row used: its name and inputs (a page link, or a terminal command)."""

    calculator: str
    inputs: Mapping[str, Any]
    side: str = "mine"
    """Whose roll the run is: ``mine``, or ``enemy`` for the enemy's reaction shot."""
    averaged: bool = False
    """Whether the row's figures average this run with others like it (the enemy's sizes after your
    shots, your unit's after its reaction shot): the run linked is the largest, one of them, and
    its own figures are not the row's."""


class RowLeftOut(Exception):
    """A calculator a sequence needs refuses its inputs (a volley of more dice than the shooting
    calculator takes, a melee of more Wounds than the melee calculator takes): the row is left out
    of the table with this reason, and the other rows stand."""

    def __init__(self, calculator: str, error: CalculatorInputError) -> None:
        super().__init__(f"{calculator}: {error}")
        self.calculator = calculator
        self.error = error


def _evaluate(name: str, calculator: Any, mapping: Mapping[str, Any], rules: RuleValues) -> Any:
    """``calculator``'s result for ``mapping``, or :class:`RowLeftOut` naming it and its refusal."""
    try:
        return calculator.evaluate(mapping, rules)
    except CalculatorInputError as error:
        raise RowLeftOut(name, error) from None


@dataclass(frozen=True)
class Keeps:
    """What a sequence leaves the player besides its odds (its action points left are the Advice's)."""

    loaded_after: bool
    """Whether the unit's weapon is loaded once its orders are carried out."""
    moves: int
    """How many of its orders move the unit (a march, a run or a charge)."""


@dataclass(frozen=True)
class Row:
    """One sequence and its exact odds."""

    actions: tuple[str, ...]
    cost: int
    dealt: tuple[Fraction, ...]
    """P(exactly k Wounds dealt), k from 0."""
    p_reach: Fraction | None = None
    """A charge's chance to reach the enemy (``None`` without a charge)."""
    victory: Fraction = Fraction(0)
    """The enemy destroyed by your shots, beaten in the melee, or fleeing from the charge."""
    draw: Fraction = Fraction(0)
    defeat: Fraction = Fraction(0)
    """Your unit destroyed by the reaction shot, or beaten in the melee."""
    expected_taken: Fraction = Fraction(0)
    links: tuple[Link, ...] = ()
    rules: tuple[str, ...] = ()
    p_charged: Fraction | None = None
    """The chance the charge is made at all: the enemy is still there, and so is your unit."""
    keeps: Keeps = field(default_factory=lambda: Keeps(False, 0))
    """What the orders leave the player, which ranks rows of equal figures."""
    reply: str | None = None
    """The enemy's reply to the charge the figures are for (``None`` without a charge to answer)."""
    fled: Fraction = Fraction(0)
    """The chance the enemy runs away from the charge (a victory too)."""
    p_counter: Fraction | None = None
    """The chance your charge fails and the enemy's counter-charge reaches your unit."""
    replies: tuple[Row, ...] = ()
    """The row under each reply weighed (see :mod:`calculators.enemy_reply`), this one among them."""

    @property
    def loaded_after(self) -> bool:
        return self.keeps.loaded_after

    @property
    def moves(self) -> int:
        return self.keeps.moves

    @cached_property
    def destroyed(self) -> Fraction:
        """The chance the enemy loses its last Wound this turn (the last entry of :attr:`dealt`, which
        is capped at the enemy's Wounds and so never longer than they are, plus one)."""
        return self.dealt[-1] if len(self.dealt) > 1 else Fraction(0)

    @cached_property
    def net(self) -> Fraction:
        """Wounds dealt minus Wounds taken, expected."""
        return self.expected_dealt - self.expected_taken

    @cached_property
    def _dealt_numerators(self) -> tuple[list[int], int]:
        """:attr:`dealt` over one denominator, which the mean and every tail are summed over."""
        return over_one_denominator(self.dealt)

    @cached_property
    def expected_dealt(self) -> Fraction:
        numerators, denominator = self._dealt_numerators
        return Fraction(sum(k * weight for k, weight in enumerate(numerators)), denominator)

    @cached_property
    def _tails(self) -> dict[int, Fraction]:
        """P(at least k Wounds), kept as asked: the ranking asks one or two of them of every row."""
        return {}

    def at_least(self, wounds: int) -> Fraction:
        if wounds not in self._tails:
            numerators, denominator = self._dealt_numerators
            self._tails[wounds] = Fraction(sum(numerators[wounds:]), denominator)
        return self._tails[wounds]


def wounds_left(wounds: tuple[int, ...], lost: int) -> tuple[int, int]:
    """The Wounds and models a unit has left after losing ``lost`` Wounds, taken off one model at a
    time in the order given (a model is removed when its last Wound goes)."""
    left = _wounds_after(wounds, lost)
    return sum(left), sum(1 for each in left if each > 0)


class Turn:
    """Your unit's turn against the enemy: what it may do, and each sequence's odds (cached, since
    many sequences share a shot or a melee)."""

    def __init__(self, mine: Profile, enemy: Profile, inputs: Any, reply: str | None = None) -> None:
        self.mine = mine
        self.enemy = enemy
        self.inputs = inputs
        self.reply: str = reply or (inputs.enemy_reaction if inputs.enemy_reaction in ("fight", "shoot") else "fight")
        """The enemy's answer to a charge this turn's melees are for: ``fight`` or ``shoot`` (it withstands),
        ``counter-charge`` (your charge reaches an enemy that declared one) or ``counter-charged`` (its
        counter-charge reaches your unit after your charge failed)."""
        self.rules: RuleValues = inputs.rules
        self.situation = self._situation()
        self.enemy_total = sum(enemy.wounds)
        self.mine_total = sum(mine.wounds)
        self._shots: dict[tuple[Any, ...], tuple[tuple[Fraction, ...], tuple[Link, ...]]] = {}
        self._variants: dict[str, Turn] = {self.reply: self}
        self._setting: MeleeSetting | None = None
        self._grids: dict[tuple[int, ...], MeleeGrid] = {}
        self._tables: dict[TablesKey, PairTables] = {}
        self._planned: Sizes = {}
        self._reaction_dice: dict[tuple[Any, ...], tuple[int, ...]] = {}
        self._reaches: dict[tuple[str, ...], tuple[Fraction, Link]] = {}
        self._distances: dict[tuple[str, ...], int] = {}
        self._checked: dict[tuple[int, int], dict[str, Any] | RowLeftOut] = {}
        self._melees: Turn | None = None

    def replying(self, reply: str) -> Turn:
        """This turn with the enemy answering a charge by ``reply``: the same shots (their work shared),
        the melees of that reply."""
        if reply not in self._variants:
            variant = Turn(self.mine, self.enemy, self.inputs, reply)
            variant._shots = self._shots
            variant._distances = self._distances
            variant._tables = self._tables  # kept by the dice they are made from
            variant._planned = self._planned
            variant._variants = self._variants
            variant._melees = None if self._melees is None else self._melees.replying(reply)
            self._variants[reply] = variant
        return self._variants[reply]

    def share_melees(self, other: Turn) -> None:
        """Take the melees from ``other``, a turn of units with the same statistics and the same inputs
        but the distance, which changes none of them: the Command phase plan meets one pair of profiles
        at many distances. Called before any melee of this turn is made."""
        for reply, variant in self._variants.items():
            variant._melees = other.replying(reply)

    def _situation(self) -> Situation:
        rules, inputs, unit = self.rules, self.inputs, self.mine
        left: Any = action_points.CALCULATOR.evaluate(
            {"unit_type": ACTION_POINTS_TYPES[unit.unit_type], "reactions": inputs.reactions}, rules
        )
        loaded = unit.loaded if inputs.weapon == "as_profile" else inputs.weapon == "loaded"
        return Situation(
            action_points=left.action_points,
            ranged=unit.ranged,
            loaded=bool(loaded) and unit.ranged,
            can_charge=self.charge_type(unit) is not None,
            can_move=unit.movement_cm is not None or unit.unit_type in MOVEMENT_TYPES,
            failed_charge=inputs.failed_charge,
            charge_reading=inputs.charge_reading,
        )

    # ---- Distances --------------------------------------------------------------------------

    def move_distance(self, move: str) -> int:
        """How far a march or a run takes the unit (kensei.movement, kensei.running)."""
        running = move == "run"
        if self.mine.movement_cm is None:
            unit_type = MOVEMENT_TYPES[self.mine.unit_type]
            distance: int = movement.run({"unit_type": unit_type, "running": running}, self.rules)["distance_cm"]
            return distance
        multiplier: int = self.rules.value("kensei.running", "multiplier") if running else 1
        return int(self.mine.movement_cm) * multiplier

    def distance_after(self, moves: tuple[str, ...]) -> int:
        """The distance to the enemy after ``moves``, straight at it, kept clear by kensei.five-cm-rule
        (kept: every row, reply and reaction shot asks again, and each move is a movement calculator run)."""
        if moves not in self._distances:
            distance = int(self.inputs.distance)
            keep: int = self.rules.value("kensei.five-cm-rule", "distance_cm")
            for move in moves:
                distance = max(min(distance, keep), distance - self.move_distance(move))
            self._distances[moves] = distance
        return self._distances[moves]

    def range_band(self, distance: int, unit: Profile | None = None) -> str:
        """The shot's range band from the weapon's ranges in the profile (kensei.firing); from a hill the
        maximum range of your unit is longer (kensei.hills)."""
        unit = self.mine if unit is None else unit
        farthest = int(unit.long_range_cm)
        if self.inputs.on_hill and unit is self.mine:
            farthest += self.rules.value("kensei.hills", "range_bonus_cm")
        if distance <= unit.short_range_cm:
            return "short"
        if distance <= unit.range_cm:
            return "normal"
        return "long" if distance <= farthest else "out"

    def charge_type(self, unit: Profile) -> str | None:
        """The row of kensei.charge-dice (and the bonuses) a unit charges by, ``None`` when it cannot
        charge: a character or a lone model has none, unless the player reads it as infantry or as
        cavalry (``lone_charge``: the other reading of kensei.charge-dice#unlisted-types)."""
        if unit.unit_type in CHARGE_DICE_TYPES:
            return CHARGE_DICE_TYPES[unit.unit_type]
        lone = str(self.inputs.lone_charge)
        return lone if unit.unit_type in LONE_TYPES and lone != NONE else None

    def enemy_movement(self) -> int | None:
        """How far the enemy moves in one Movement, or ``None`` when nothing gives its Movement."""
        return self._enemy_movement

    @cached_property
    def _enemy_movement(self) -> int | None:
        """:meth:`enemy_movement`, kept: each charge row's replies ask again, and the answer is a
        movement calculator run."""
        enemy = self.enemy
        if enemy.movement_cm is not None:
            return int(enemy.movement_cm)
        if enemy.unit_type not in MOVEMENT_TYPES:
            return None
        moved: int = movement.run({"unit_type": MOVEMENT_TYPES[enemy.unit_type]}, self.rules)["distance_cm"]
        return moved

    @property
    def enemy_may_charge(self) -> bool:
        """Whether the enemy may charge at all: its type rolls charge dice (kensei.charge-dice)."""
        return self.charge_type(self.enemy) is not None

    def counter_reach(self, actions: tuple[str, ...]) -> Fraction:
        """The chance your charge fails and the enemy's counter-charge then reaches your unit: it charges
        over its Movement (kensei.counter-charge), from where your failed charge stopped, the distance
        less your roll (the reading of kensei.counter-charge#counter-charge-reach)."""
        start = self.distance_after(tuple(action for action in actions if action in MOVES))
        result: Any = _evaluate("charge", charge.CALCULATOR, self.charge_inputs(start), self.rules)
        reach = self.enemy_movement() or 0
        return sum(
            (p for roll, p in enumerate(result.roll.pmf) if roll < result.required_roll and start - roll <= reach),
            Fraction(0),
        )

    def counter_link(self, shot: tuple[Fraction, ...]) -> Link | None:
        """The melee of the enemy's counter-charge at the largest size your shots may leave it."""
        lost = next((lost for lost, p in enumerate(shot[: self.enemy_total]) if p), None)
        if lost is None:
            return None
        return Link("melee", self.checked_melee(lost, 0), averaged=shot[lost] < 1)

    # ---- Shots ------------------------------------------------------------------------------

    def shooting_inputs(self, distance: int, moved: str, **volley: bool) -> dict[str, Any]:
        """The shooting calculator's inputs for one volley (or both, with ``multiple_shots``)."""
        inputs = self.inputs
        return {
            "wounds": list(self.mine.wounds),
            "attack": self.mine.attack,
            "defense": self.enemy.defense,
            "armor": self.enemy.armor,
            "range": self.range_band(distance),
            "moved": moved,
            "cover": inputs.enemy_cover,
            "shooter_in": inputs.shooter_in,
            "target_in_water": inputs.enemy_in_water,
            "damage_rule": inputs.damage_rule,
            **{key: value for key, value in volley.items() if value},
        }

    def shots(self, actions: tuple[str, ...]) -> tuple[tuple[Fraction, ...], tuple[Link, ...]]:
        """The Wounds the shots of ``actions`` deal, and the shooting runs behind them."""
        if actions in self._shots:
            return self._shots[actions]
        weights: tuple[int, ...] = (1,)
        denominator = 1
        links = []
        for volley in _volleys(actions):
            moves = tuple(action for action in actions[: volley["at"]] if action in MOVES)
            moved = moves[-1] if moves else "none"
            flags = {key: volley[key] for key in ("precision", "second_shot", "multiple_shots")}
            mapping = self.shooting_inputs(self.distance_after(moves), moved, **flags)
            result = _evaluate("shooting", shooting.CALCULATOR, mapping, self.rules)
            weights = capped_weights(multiply(weights, result.wounds.weights), self.enemy_total)
            denominator *= result.wounds.total
            links.append(Link("shooting", mapping))
        total = tuple(Fraction(weight, denominator) for weight in weights)
        self._shots[actions] = (total, tuple(links))
        return self._shots[actions]

    # ---- Charge and melee -------------------------------------------------------------------

    def charge_inputs(self, distance: int) -> dict[str, Any]:
        return {
            "unit_type": self.charge_type(self.mine),
            "distance": min(distance, CHARGE_DISTANCE_CAP),
            "indirect": self.inputs.indirect,
        }

    def reach(self, actions: tuple[str, ...]) -> tuple[Fraction, Link]:
        """The chance the charge at the end of ``actions`` reaches, from where the moves before it stop
        (kept: every reply and every plan of the turn asks again)."""
        if actions not in self._reaches:
            moves = tuple(action for action in actions if action in MOVES)
            mapping = self.charge_inputs(self.distance_after(moves))
            result = _evaluate("charge", charge.CALCULATOR, mapping, self.rules)
            self._reaches[actions] = (result.p_success, Link("charge", mapping))
        return self._reaches[actions]

    @property
    def enemy_shoots(self) -> bool:
        """Whether the enemy answers the charge with Withstand and shoot (kensei.withstand-and-shoot)."""
        return self.reply == "shoot"

    def reaction_inputs(self, lost: int, distance: int) -> dict[str, Any]:
        """The shooting calculator's inputs for the enemy's reaction shot: its Wounds left after losing
        ``lost``, at the distance the charge starts from, at your unit where it stands then, in its
        cover and water (the reading of kensei.withstand-and-shoot#reaction-shot)."""
        enemy, inputs = self.enemy, self.inputs
        return {
            "wounds": [each for each in _wounds_after(enemy.wounds, lost) if each],
            "attack": enemy.attack,
            "defense": self.mine.defense,
            "armor": self.mine.armor,
            "range": self.range_band(distance, enemy),
            "cover": inputs.cover,
            "shooter_in": "water" if inputs.enemy_in_water else "none",
            "target_in_water": inputs.shooter_in == "water",
            "damage_rule": inputs.damage_rule,
        }

    def reaction_die(self, distance: int) -> tuple[int, ...]:
        """The weights of the Wounds one enemy Wound's reaction dice deal (the shooting calculator's
        own volley of one Wound); ``(1,)``, no roll, when the enemy fights."""
        if not self.enemy_shoots:
            return (1,)
        mapping = self.reaction_inputs(0, distance) | {"wounds": [1]}
        key = (mapping["range"], mapping["shooter_in"], mapping["cover"], mapping["target_in_water"])
        if key not in self._reaction_dice:
            result: Any = _evaluate("shooting", shooting.CALCULATOR, mapping, self.rules)
            self._reaction_dice[key] = tuple(result.wounds.weights)
        return self._reaction_dice[key]

    def grid(self, distance: int) -> MeleeGrid:
        """Every melee of a charge from ``distance``, summed at once (:mod:`calculators.melee_grid`),
        made for every enemy size the turn's charges from there may meet, in one pass."""
        if self._melees is not None:
            return self._melees.grid(distance)
        die = self.reaction_die(distance)
        if die not in self._grids:
            self._grids[die] = MeleeGrid(self.setting(), die, self._tables, self._planned)
            self._grids[die].slices(self._charged_sizes(die))
        return self._grids[die]

    def setting(self) -> MeleeSetting:
        """What every melee of this turn's reply shares (:func:`melee_setting`)."""
        if self._setting is None:
            mine = [wounds_left(self.mine.wounds, lost)[1] for lost in range(self.mine_total + 1)]
            enemy = [wounds_left(self.enemy.wounds, lost)[1] for lost in range(self.enemy_total + 1)]
            self._setting = melee_setting(self.melee_inputs, mine, enemy, self.rules)
        return self._setting

    def plan_melees(self, replies: tuple[str, ...]) -> None:
        """Before any melee is made, have the turn's tables made as large as the melees of all
        ``replies`` need (their melee variants: a counter-charge's also the enemy's counter-charge
        reaching your unit), so that the replies share one set of tables for each pair of dice
        instead of making tables again a few dice larger (a counter-charge's bonus dice)."""
        if self._melees is not None:
            self._melees.plan_melees(replies)
            return
        if self._planned or self._tables:
            return
        variants = {"counter-charge": ("counter-charge", "counter-charged"), "run-away": ()}
        grids = []
        for melee in dict.fromkeys(each for reply in replies for each in variants.get(reply, (reply,))):
            try:
                setting = self.replying(melee).setting()
            except CalculatorInputError:
                continue  # the melee calculator refuses this reply's melee: its rows say so when made
            if setting.a_dice:  # none when the calculator refuses every enemy size
                grids.append(MeleeGrid(setting, (1,)))
        self._planned.update(table_sizes(grids))

    def _charged_sizes(self, die: tuple[int, ...]) -> set[int]:
        """The Wounds the enemy may have lost when a charge of this turn meets it, among the charges whose
        reaction shot is ``die``."""
        sizes: set[int] = set()
        for actions in sequences(self.situation, self.rules):
            moves = tuple(action for action in actions if action in MOVES)
            if not actions or actions[-1] != "charge" or self.reaction_die(self.distance_after(moves)) != die:
                continue
            try:
                shot, _ = self.shots(actions)
            except RowLeftOut:
                continue
            sizes.update(lost for lost, p in enumerate(shot[: self.enemy_total]) if p)
        return sizes

    def melee_inputs(self, lost: int, lost_mine: int = 0) -> dict[str, Any]:
        """The melee calculator's inputs: your unit charging after losing ``lost_mine`` Wounds, the enemy
        after losing ``lost``. An enemy that withstood and shot takes no Defensive Position
        (kensei.withstand-and-shoot)."""
        mine, enemy, inputs = self.mine, self.enemy, self.inputs
        wounds, models = wounds_left(enemy.wounds, lost)
        my_wounds, my_models = wounds_left(mine.wounds, lost_mine)
        return {
            "a_models": my_models,
            "a_wounds": my_wounds,
            "a_attack": mine.attack,
            "a_defense": mine.defense,
            "a_armor": mine.armor,
            "a_initiative": mine.initiative,
            "a_charge": CHARGE_BONUS_TYPES[str(self.charge_type(mine))],
            "b_models": models,
            "b_wounds": wounds,
            "b_attack": enemy.attack,
            "b_defense": enemy.defense,
            "b_armor": enemy.armor,
            "b_initiative": enemy.initiative,
            "b_cover": inputs.enemy_cover,
            "b_in_water": inputs.enemy_in_water,
            "b_defensive": 0 if self.enemy_shoots else inputs.enemy_defensive,
        } | self._reply_inputs()

    def _reply_inputs(self) -> dict[str, Any]:
        """What the enemy's reply changes in the melee (kensei.counter-charge): an enemy that declared a
        counter-charge takes no Defensive Position, and the side whose charge succeeded against it gets
        the bonus dice; when its counter-charge reaches your unit, it is the enemy that charged, out of
        its cover, at your unit standing where its failed charge left it, in the open."""
        if self.reply == "counter-charge":
            return {"a_counter_charge": True, "b_defensive": 0}
        if self.reply != "counter-charged":
            return {}
        return {
            "a_charge": NONE,
            "b_charge": CHARGE_BONUS_TYPES[str(self.charge_type(self.enemy))],
            "b_counter_charge": True,
            "b_defensive": 0,
            "b_cover": NONE,
            "b_in_water": False,
        }

    def checked_melee(self, lost: int, lost_mine: int) -> dict[str, Any]:
        """The melee calculator's inputs for these losses as it accepts them (the enemy takes as much
        Defensive Position as its dice pay for), or :class:`RowLeftOut` with its refusal."""
        if self._melees is not None:
            return self._melees.checked_melee(lost, lost_mine)
        key = (lost, lost_mine)
        if key not in self._checked:
            try:
                self._checked[key] = checked_melee_inputs(self.melee_inputs(lost, lost_mine), self.rules)
            except CalculatorInputError as error:
                self._checked[key] = RowLeftOut("melee", error)
        found = self._checked[key]
        if isinstance(found, RowLeftOut):
            raise found
        return dict(found)

    def reaction_link(self, lost: int, distance: int) -> Link | None:
        """The enemy's reaction shot once it lost ``lost`` Wounds, as the shooting calculator accepts it
        (none when the enemy fights), or :class:`RowLeftOut` with its refusal."""
        if not self.enemy_shoots:
            return None
        mapping = self.reaction_inputs(lost, distance)
        try:
            shooting.ShootingInputs.from_dict(mapping, self.rules)
        except CalculatorInputError as error:
            raise RowLeftOut("shooting", error) from None
        return Link("shooting", mapping, side="enemy")


def _wounds_after(wounds: tuple[int, ...], lost: int) -> list[int]:
    """Each model's Wounds after the unit loses ``lost``, taken off as :func:`wounds_left` does."""
    left = list(wounds)
    for index, each in enumerate(left):
        taken = min(each, lost)
        left[index] -= taken
        lost -= taken
    return left


def _volleys(actions: tuple[str, ...]) -> list[dict[str, Any]]:
    """The volleys of ``actions``: where each is declared and how it is shot. Fire, reload, fire is one
    run of the shooting calculator with Multiple Shots; any other second shot is a volley of its own."""
    shots = [index for index, action in enumerate(actions) if action in SHOTS]
    if [actions[index] for index in shots] == ["fire", "fire"] and "reload" in actions[shots[0] : shots[1]]:
        return [{"at": shots[0], "precision": False, "second_shot": False, "multiple_shots": True}]
    return [
        {"at": at, "precision": actions[at] == "precise-fire", "second_shot": order > 0, "multiple_shots": False}
        for order, at in enumerate(shots)
    ]


def capped(pmf: tuple[Fraction, ...], cap: int) -> tuple[Fraction, ...]:
    """The distribution of min(X, cap): what is dealt beyond a unit's last Wound is not on the table.
    A distribution that is exactly 0 beyond ``cap`` keeps its length, but never past ``cap``."""
    if len(pmf) <= cap + 1:
        return pmf
    return (*pmf[:cap], sum(pmf[cap:], Fraction(0)))


def capped_weights(weights: tuple[int, ...], cap: int) -> tuple[int, ...]:
    """:func:`capped` for integer weights over one denominator (the volleys' product of totals): the
    fractions are made once, when every volley is in."""
    return weights if len(weights) <= cap + 1 else (*weights[:cap], sum(weights[cap:]))


def sequence_row(turn: Turn, actions: tuple[str, ...]) -> Row:
    """The exact odds of ``actions``: the shots, then the charge if it ends with one, which the enemy
    answers with the turn's reply (:attr:`Turn.reply`)."""
    plain = plain_row(turn, actions)
    return charge_row(turn, plain) if charges(turn, plain) else plain


def plain_row(turn: Turn, actions: tuple[str, ...]) -> Row:
    """The odds of the shots of ``actions`` alone: the whole row when no charge follows them."""
    shot, links = turn.shots(actions)
    shot = shot + (Fraction(0),) * (turn.enemy_total + 1 - len(shot))  # every outcome up to destroyed
    cost = sum(action_cost(action, turn.rules) for action in actions)
    keeps = Keeps(loaded_after(actions, turn.situation.loaded), sum(1 for a in actions if a in (*MOVES, "charge")))
    rules = tuple(dict.fromkeys(_rules_of(actions)))
    return Row(actions, cost, shot, victory=shot[turn.enemy_total], links=links, rules=rules, keeps=keeps)


def charges(turn: Turn, plain: Row) -> bool:
    """Whether ``plain``'s orders end with a charge that may be made: the shots before it may leave
    the enemy on the table (an enemy they always destroy is not charged). The calculator runs the
    charge needs are checked first: a row they refuse is left out whatever the shots do."""
    if not plain.actions or plain.actions[-1] != "charge":
        return False
    p_reach, _ = turn.reach(plain.actions)
    _first_runs(turn, plain.dealt, start_of(turn, plain.actions), p_reach)
    return any(plain.dealt[: turn.enemy_total])


def start_of(turn: Turn, actions: tuple[str, ...]) -> int:
    """The distance the charge of ``actions`` starts from, after the moves before it."""
    return turn.distance_after(tuple(action for action in actions if action in MOVES))


def charge_row(turn: Turn, plain: Row) -> Row:
    """``plain``'s shots and the charge after them, the enemy answering with ``turn.reply``."""
    shot, actions = plain.dealt, plain.actions
    p_reach, charge_link = turn.reach(actions)
    start = start_of(turn, actions)
    reaction_links, melee_links = _first_runs(turn, shot, start, p_reach)
    odds = turn.grid(start).odds(shot, p_reach)
    rules = plain.rules
    if reaction_links:
        rules = (*rules, "kensei.reactions", "kensei.withstand-and-shoot")
    charged = odds.charged
    links = (*plain.links, *reaction_links, *((charge_link,) if charged else ()), *melee_links)
    return replace(
        plain,
        dealt=odds.dealt,
        p_reach=p_reach if charged else None,
        victory=odds.victory,
        draw=odds.draw,
        defeat=odds.defeat,
        expected_taken=odds.taken,
        links=links,
        rules=rules,
        p_charged=charged,
    )


def _first_runs(turn: Turn, shot: tuple[Fraction, ...], start: int, p_reach: Fraction) -> tuple[list[Link], list[Link]]:
    """The calculator runs a charge row links to: the enemy's reaction shot at the largest size the
    shots may leave it, and the first melee that may follow, the largest too: a calculator that
    refuses any run of the row refuses these, and the row is left out with that refusal."""
    reaction_links: list[Link] = []
    reaction_die = turn.reaction_die(start)
    for lost, p_shot in enumerate(shot[: turn.enemy_total]):
        if not p_shot:
            continue
        answer_link = turn.reaction_link(lost, start)
        if answer_link is not None and not reaction_links:  # one of several unless the shots leave one size
            reaction_links.append(replace(answer_link, averaged=p_shot < 1))
        lowest = next(face for face, weight in enumerate(reaction_die) if weight)
        lost_mine = lowest * (turn.enemy_total - lost)
        if lost_mine < turn.mine_total:  # one of several unless this pair of sizes is certain
            averaged = p_shot < 1 or sum(1 for weight in reaction_die if weight) > 1
            fight = Link("melee", turn.checked_melee(lost, lost_mine), averaged=averaged)
            return reaction_links, [fight] if p_reach else []
    return reaction_links, []


def loaded_after(actions: tuple[str, ...], loaded: bool) -> bool:
    """Whether the weapon is loaded once ``actions`` are carried out: a shot unloads it, a reload
    loads it (kensei.firing, kensei.loading)."""
    for action in actions:
        if action in SHOTS:
            loaded = False
        elif action == "reload":
            loaded = True
    return loaded


RULES_OF_ACTION = {
    "march": ("kensei.movement", "kensei.marching"),
    "run": ("kensei.movement", "kensei.running"),
    "fire": ("kensei.firing", "kensei.hit-roll"),
    "precise-fire": ("kensei.greater-precision", "kensei.hit-roll"),
    "reload": ("kensei.loading",),
    "charge": ("kensei.charge-orders", "kensei.charge-dice", "kensei.combat-dice"),
}
"""The rules each action uses, for the row's links."""


def _rules_of(actions: tuple[str, ...]) -> list[str]:
    found = ["kensei.action-points"]
    for action in actions:
        found += RULES_OF_ACTION[action]
    if [action for action in actions if action in SHOTS] == ["fire", "fire"]:
        found.append("kensei.multiple-shots")
    if any(action in MOVES for action in actions) and any(action in SHOTS for action in actions):
        found.append("kensei.moving-before-shooting")
    return found
