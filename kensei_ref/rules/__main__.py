"""``python -m kensei_ref.data check``: validate the rule data while writing it.

Translation stamps are not required here (writers add them last with ``kensei-ref data stamp``);
``kensei-ref data check`` is the full check.
"""

import sys

from kensei_ref.rules.loader import DATA_DIR, DataError, load

try:
    book = load(DATA_DIR, require_stamps=False)
except DataError as error:
    print(error)
    sys.exit(1)
print(f"{len(book.chapters)} chapters, {len(book.rules)} rules, {len(book.terms)} glossary terms: valid.")
