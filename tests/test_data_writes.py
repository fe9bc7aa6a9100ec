"""The files ``kensei-ref data stamp`` and ``data values`` write are replaced whole or not at all: a
full disk found as the new text is flushed leaves the old file as it was, and no temporary file behind;
and ``data stamp``'s refusal of an unknown id is one line whatever was typed."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest
from cli_capture import run_cli

from kensei_ref.cli import main as cli
from kensei_ref.rules import freshness
from kensei_ref.rules.atomic import replace_file
from kensei_ref.rules.loader import DATA_DIR


def _full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_file_replaced_whole_keeps_its_mode_and_leaves_nothing_behind(tmp_path):
    path = tmp_path / "values.json"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o640)
    replace_file(path, "new ё\n")
    assert path.read_text(encoding="utf-8") == "new ё\n"
    assert path.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["values.json"]


def test_data_values_on_a_full_disk_leaves_the_old_file(tmp_path, monkeypatch, capsys):
    from kensei_ref.rules import values_export

    target = tmp_path / "rule_values.json"
    target.write_text("the old values", encoding="utf-8")
    monkeypatch.setattr(values_export, "RULE_VALUES_PATH", target)
    monkeypatch.setattr(os, "fsync", _full_disk)
    status, out, err = run_cli(cli.main, capsys, "data", "values")
    assert (status, out, err) == (1, "", "kensei-ref data values: nothing written: No space left on device\n")
    assert target.read_text(encoding="utf-8") == "the old values"
    assert [p.name for p in tmp_path.iterdir()] == ["rule_values.json"]


def test_data_stamp_on_a_full_disk_leaves_every_data_file_as_it_was(tmp_path, monkeypatch):
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    before = {path: path.read_bytes() for path in data.rglob("*.yaml")}
    monkeypatch.setattr(os, "fsync", _full_disk)
    with pytest.raises(OSError):
        freshness.write_stamps(data, {"kensei.regroup": "0123456789"}, {"kensei.regroup"})
    assert {path: path.read_bytes() for path in data.rglob("*.yaml")} == before
    assert sorted(Path(p).name for p in data.rglob("*") if Path(p).name.startswith(".")) == []


def test_an_unknown_id_to_stamp_is_one_line_whatever_was_typed(capsys):
    status, out, err = run_cli(cli.main, capsys, "data", "stamp", "--update", "kensei.x\nforged line")
    assert (status, out) == (2, "")
    assert err == "kensei-ref data stamp: --update: unknown id(s) 'kensei.x\\nforged line'\n"
