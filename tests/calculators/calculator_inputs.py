"""A valid base of inputs per calculator, shared by the tests that vary it and those that break it."""

BASE = {
    "shooting": {"dice": 3, "attack": 5, "defense": 5, "armor": 3},
    "melee": {
        "a_models": 3, "a_wounds": 3, "a_attack": 5, "a_defense": 5, "a_armor": 3, "a_initiative": 3,
        "b_models": 3, "b_wounds": 3, "b_attack": 5, "b_defense": 5, "b_armor": 3, "b_initiative": 3,
    },
    "regroup": {"honor": 6},
    "planner": {"honors": [6, 7]},
    "charge": {"dice": "1d10", "distance": 6},
    "movement": {},
    "action-points": {},
    "spells": {"levels": [1, 3]},
    "damage-roll": {"roll": 5, "armor": 2},
    "dice-split": {"combat_dice": 7},
    "morale": {"morale": 7},
    "morale-states": {"morale": 7},
    "rank-test": {"rank": 3},
    "drowning": {},
    "priority": {},
    "morale-trigger": {"starting_fighters": 10},
}  # fmt: skip
