"""The rule texts as gettext PO files, for the tools translators work in (Poedit, Weblate, Lokalize).

The YAML stays the one source of truth; a PO file is a view of one data file in one language, written
and read with Babel (:mod:`babel.messages.pofile`): one message per text, its context the item's id and
field (``kensei.regroup/body``), its ``msgid`` the English, its ``msgstr`` the translation, ``fuzzy``
where the translation's freshness stamp no longer matches its English.

- :mod:`.texts` finds every translatable text of a data file, with where it stands in the YAML;
- :mod:`.placeholders` names what a translation must keep (inline references, link addresses);
- :mod:`.export` writes the PO files;
- :mod:`.checks` reads them back and says what is wrong with each message;
- :mod:`.yaml_edits` writes a translation or a stamp into the YAML text, leaving every other byte;
- :mod:`.imports` puts them together: everything checked before anything is written.
"""
