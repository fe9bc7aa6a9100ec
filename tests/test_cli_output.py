"""The terminal as a Unix tool: an output that cannot be written (a full disk, a closed output) is one
line on stderr and exit status 1, never a traceback; an output whose encoding cannot show a character
shows ``?`` for it. Each case is the sweep's own command line, run as a player's shell runs it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kensei_ref.cli.main import OUTPUT_LOST
from kensei_ref.languages import get_translations

COMMAND = str(Path(sys.executable).with_name("kensei-ref"))


def _shell(line: str, **environ: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **environ}
    return subprocess.run(
        ["sh", "-c", line.replace("kensei-ref", COMMAND)], capture_output=True, text=True, env=env, check=False
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize(
    ("line", "lang"),
    [
        pytest.param("kensei-ref rule 8.3.2 > /dev/full", "en", id="rule-to-a-full-disk"),
        pytest.param("kensei-ref data export > /dev/full", "en", id="export-to-a-full-disk"),
        pytest.param("kensei-ref --help > /dev/full", "en", id="help-to-a-full-disk"),
        pytest.param("kensei-ref --lang fr rule 8.3.2 > /dev/full", "fr", id="in-french"),
    ],
)
def test_a_full_disk_is_one_line_and_status_1(line, lang):
    done = _shell(line)
    reason = os.strerror(28)  # ENOSPC
    expected = get_translations(lang).gettext(OUTPUT_LOST).format(reason=reason)
    assert (done.returncode, done.stderr) == (1, expected + "\n")


def test_a_closed_output_is_one_line_and_status_1():
    done = _shell("kensei-ref glossary naginata >&-")
    assert done.returncode == 1
    assert done.stderr == OUTPUT_LOST.format(reason=os.strerror(9)) + "\n"  # EBADF


def test_an_output_that_cannot_show_a_letter_shows_a_question_mark():
    done = _shell("kensei-ref search тяжёлого", PYTHONIOENCODING="ascii")
    assert (done.returncode, done.stderr) == (0, "")
    assert "kensei.heavy-cover" in done.stdout and "?" in done.stdout


def test_a_reader_that_goes_away_is_no_error():
    if shutil.which("head") is None:
        pytest.skip("no head")
    done = _shell("kensei-ref data export | head -c 10")
    assert (done.returncode, done.stderr) == (0, "")
