"""French typography as the reference writes it, checked on any French text (catalog, page, terminal).

- A no-break space before a colon (U+00A0), a narrow one before ``;``, ``!`` and ``?`` (U+202F or U+00A0);
  never an ordinary space there, nor none.
- Guillemets with no-break spaces inside: « texte ».
- One apostrophe: the straight one ('), as every French text of the rule data writes it.
- A true minus sign (U+2212) before a negative number, never a hyphen.
- A no-break space between a number and its unit: 15 cm.
"""

from __future__ import annotations

import re

NO_BREAK = "\u00a0\u202f"

RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("no no-break space before a colon", re.compile(rf"(?<![{NO_BREAK}-]):(?=\s|$)")),
    ("no no-break space before ; ! ?", re.compile(rf"(?<![{NO_BREAK}!?])[;!?](?=\s|$)")),
    ("an ordinary space before » or after «", re.compile(r" »|« ")),
    ("« without a no-break space after it", re.compile(rf"«(?![{NO_BREAK}])")),
    ("» without a no-break space before it", re.compile(rf"(?<![{NO_BREAK}])»")),
    ("a curly apostrophe (the reference writes ')", re.compile("\u2019")),
    ("a hyphen as a minus sign", re.compile(r"(?<![\w\-./:])-(?=\d)")),
    ("no no-break space between a number and cm", re.compile(r"\d[ \t\n\u202f]?cm\b")),
)
"""Each rule's name and what breaks it."""


def problems(text: str) -> list[str]:
    """Every place ``text`` breaks a rule, each as the rule's name and the text around it."""
    found = []
    for name, pattern in RULES:
        for match in pattern.finditer(text):
            found.append(f"{name}: {text[max(0, match.start() - 30) : match.end() + 10]!r}")
    return found
