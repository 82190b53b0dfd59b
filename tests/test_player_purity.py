"""``from guesstree import player`` pulls in only the standard library, msgpack and zstandard."""
from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = ("numpy", "numba", "typer", "click", "rich", "guesstree.compiler")


def imported_after(code: str) -> list[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return json.loads(result.stdout.splitlines()[-1])


def forbidden(modules: list[str]) -> list[str]:
    return [m for m in modules if m.split(".")[0] in FORBIDDEN or m.startswith("guesstree.compiler")]


def test_import_player_loads_no_heavy_dependency():
    modules = imported_after("from guesstree import player")
    assert "guesstree.player" in modules and "msgpack" in modules and "zstandard" in modules
    assert forbidden(modules) == []


def test_loading_and_verifying_a_tree_loads_no_heavy_dependency(mm32_path):
    modules = imported_after(
        "from guesstree import player\nimport guesstree.player.session\n"
        "from guesstree.player.verify import verify\n"
        f"tree = player.load({str(mm32_path)!r})\n"
        "assert tree.next_guess([]) == (0, 1)\n"
        "assert verify(tree).ok\n"
        "guesstree.player.session.Session(tree).answer('1B')\n")
    assert forbidden(modules) == []


def test_the_players_cli_commands_do_not_import_the_compiler(mm32_path):
    """The CLI may import typer, but play, solve, info and verify never touch the compiler."""
    modules = imported_after(
        "from typer.testing import CliRunner\n"
        "from guesstree.player.cli import app\n"
        "runner = CliRunner()\n"
        f"for args in (['verify', {str(mm32_path)!r}], ['info', {str(mm32_path)!r}],\n"
        f"             ['solve', {str(mm32_path)!r}, 'CA'], ['play', {str(mm32_path)!r}]):\n"
        "    result = runner.invoke(app, args, input='2B\\n')\n"
        "    assert result.exit_code == 0, (args, result.output)\n")
    assert [m for m in modules if m.startswith("guesstree.compiler") or m.split(".")[0] in ("numpy", "numba")] == []


def test_the_probe_can_see_a_forbidden_import():
    """The control: the same probe does notice the compiler when it is imported."""
    assert "guesstree.compiler" in forbidden(imported_after("from guesstree import player, compiler"))
