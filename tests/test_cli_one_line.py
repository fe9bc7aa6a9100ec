"""Whatever is typed, a command-line error is one line on stderr with exit status 2."""

from __future__ import annotations

import pytest
from cli_capture import run_cli

from kensei_ref.cli.main import main


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["calc", "regroup", "--honor", "5", "--lang", "{x}"], id="braces-in-lang"),
        pytest.param(["calc", "regroup", "--honor", "5", "--lang", "{0}"], id="index-in-lang"),
        pytest.param(["calc", "action-points", "\n"], id="newline-as-a-stray-word"),
        pytest.param(["calc", "regroup", "--honor", "5", "a\rb\x1b[31mc"], id="return-and-escape"),
        pytest.param(["calc", "regroup", "--honor", "5", "x\u2028y"], id="line-separator"),
        pytest.param(["rule", "regroup", "--nope\nx"], id="newline-in-an-unknown-option"),
    ],
)
def test_an_error_is_one_line(capsys, argv):
    status, out, err = run_cli(main, capsys, *argv)
    assert status == 2
    assert out == ""
    assert len(err.splitlines()) == 1 and err.endswith("\n"), err
    assert "error: " in err
