"""Every command explains itself: ``--help`` renders and names the command's options."""

import pytest

from editengine.cli import COMMANDS, main


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_prints_its_help(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: editengine {command}")
    assert "--" in out.split("options:", 1)[-1]


def test_the_top_level_help_lists_every_command(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert all(command in out for command in COMMANDS)
