"""The enemy's reply to your charge (kensei.reactions), and the reply a charge row is scored under.

A charged unit answers with one of four reactions, each computed exactly:

- ``fight``, withstand and combat (kensei.withstand-and-combat): the melee, with the Defensive Position
  the player gives the enemy;
- ``shoot``, withstand and shoot (kensei.withstand-and-shoot), for an enemy with a loaded ranged
  weapon: its shot as the charge is declared, then the melee;
- ``counter-charge`` (kensei.counter-charge), for an enemy that could charge itself: if your charge
  reaches, your unit gets the bonus dice; if it fails, the enemy charges over its Movement from where
  your roll left your unit, and gets them (the reading of kensei.counter-charge#counter-charge-reach);
- ``run-away`` (kensei.run-away): the enemy flees before the charge: no melee, and the advisor counts
  an enemy that flees as a victory (the reading of kensei.run-away#fleeing-from-a-charge).

An enemy that charged earlier in the turn may only withstand and fight. Unless the player fixes one,
each charge row is scored under the reply that is worst for the player by the table's objective (the
enemy's best reply), and says which it is; ``best-standing`` leaves running away out of the choice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from .advisor_odds import Row, Turn, charge_row, charges, plain_row, start_of
from .params import N_

REPLIES = ("fight", "shoot", "counter-charge", "run-away")
"""Every reaction to a charge, in the order a tie between them is settled (the first is kept)."""

REACTION_CHOICES = ("best", "best-standing", *REPLIES)
"""The advisor's ``enemy_reaction`` input: the enemy's best reply, its best reply without running
away, or one reply fixed by the player. ``fight`` and ``shoot`` keep the meaning they had in every
address written before the others existed."""

REPLY_LABELS = {
    "fight": N_("Withstand and fight"),
    "shoot": N_("Withstand and shoot"),
    "counter-charge": N_("Counter-charge"),
    "run-away": N_("Run away"),
}
"""Each reply's words, for the terminal and the page alike."""

REPLY_RULES = {
    "fight": "kensei.withstand-and-combat",
    "shoot": "kensei.withstand-and-shoot",
    "counter-charge": "kensei.counter-charge",
    "run-away": "kensei.run-away",
}
"""The rule each reply follows, for the row's links."""


def open_replies(turn: Turn) -> tuple[str, ...]:
    """The replies the enemy's profile and state allow: withstanding and shooting needs a loaded
    ranged weapon, a counter-charge a unit that may charge and move; after a charge of its own this
    turn, only withstanding and fighting (kensei.reactions)."""
    if turn.inputs.enemy_charged:
        return ("fight",)
    enemy = turn.enemy
    allowed = {
        "fight": True,
        "shoot": bool(enemy.ranged and enemy.loaded),
        "counter-charge": turn.enemy_movement() is not None and turn.enemy_may_charge,
        "run-away": True,
    }
    return tuple(reply for reply in REPLIES if allowed[reply])


def replies_weighed(turn: Turn) -> tuple[str, ...]:
    """The replies a charge row is scored under: all those open to the enemy, those that stand, or the
    one the player fixed (checked by :func:`reply_refusal`)."""
    asked = str(turn.inputs.enemy_reaction)
    if asked == "best":
        return open_replies(turn)
    if asked == "best-standing":
        return tuple(reply for reply in open_replies(turn) if reply != "run-away")
    return (asked,)


def reply_refusal(turn: Turn) -> tuple[str, tuple[str, ...]] | None:
    """Why the reply the player fixed cannot be given here (a message and the inputs it names), or
    ``None``."""
    asked = str(turn.inputs.enemy_reaction)
    if asked in ("best", "best-standing") or asked in open_replies(turn):
        return None
    if turn.inputs.enemy_charged:
        return N_("an enemy that charged this turn ({0}) may only withstand and fight"), ("enemy_charged",)
    if asked == "shoot":
        return N_("needs a loaded ranged weapon in the enemy's profile to withstand and shoot"), ()
    return N_("needs an enemy that may charge and move: its profile's type rolls no charge dice"), ()


def scored_row(
    turn: Turn, actions: tuple[str, ...], rank: Callable[[Row], Any], shot: tuple[Fraction, ...] | None = None
) -> Row:
    """The row of ``actions``: a charge that may be made is scored under each reply weighed, and the
    row kept is the one ``rank`` puts last (the worst for the player), with every reply's row in
    :attr:`Row.replies`; orders without a charge meet no reply. ``shot``: the Wounds the enemy loses
    before the charge when other units shoot at it too (the Command phase plan), instead of this
    unit's shots alone."""
    plain = plain_row(turn, actions)
    if shot is not None:
        plain = replace(plain, dealt=shot, victory=shot[turn.enemy_total])
    if not charges(turn, plain):
        return plain
    replies = replies_weighed(turn)
    if len(replies) > 1:
        turn.plan_melees(replies)
    rows = tuple(reply_row(turn, plain, reply) for reply in replies)
    worst = max(rows, key=rank)  # the first of equal rows: the order of REPLIES
    return replace(worst, replies=rows)


def reply_row(turn: Turn, plain: Row, reply: str) -> Row:
    """``plain``'s shots and its charge, the enemy answering with ``reply``."""
    rules = (*plain.rules, "kensei.reactions", REPLY_RULES[reply])
    if reply == "run-away":
        return _run_away(turn, plain, rules)
    row = charge_row(turn.replying(reply), plain)
    if reply == "counter-charge":
        row = _counter_charged(turn, plain, row)
    return replace(row, reply=reply, rules=tuple(dict.fromkeys((*row.rules, *rules))))


def _run_away(turn: Turn, plain: Row, rules: tuple[str, ...]) -> Row:
    """The enemy flees as your charge is declared: no melee, no roll, and an enemy still on the table
    after your shots is an enemy fleeing: a victory."""
    fled = 1 - plain.dealt[turn.enemy_total]
    return replace(
        plain,
        victory=Fraction(1),
        fled=fled,
        p_charged=fled,
        reply="run-away",
        rules=tuple(dict.fromkeys(rules)),
    )


def _counter_charged(turn: Turn, plain: Row, met: Row) -> Row:
    """``met`` (your charge reaching an enemy that declared a counter-charge) with what follows when it
    falls short: the enemy's counter-charge, which reaches your unit with the chance
    :meth:`Turn.counter_reach` gives, and the melee it starts, with the enemy charging."""
    reach = turn.counter_reach(plain.actions)
    if not reach:
        return met
    counter = turn.replying("counter-charged")
    odds = counter.grid(start_of(turn, plain.actions)).odds(plain.dealt, reach)
    shot = plain.dealt
    destroyed = shot[turn.enemy_total]
    melee_link = counter.counter_link(plain.dealt)
    return replace(
        met,
        dealt=tuple(a + b - s for a, b, s in zip(met.dealt, odds.dealt, shot, strict=True)),
        victory=met.victory + odds.victory - destroyed,
        draw=met.draw + odds.draw,
        defeat=met.defeat + odds.defeat,
        expected_taken=met.expected_taken + odds.taken,
        links=(*met.links, *((melee_link,) if melee_link else ())),
        p_counter=reach,
    )
