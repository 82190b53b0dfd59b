"""A game from outside the package (``tests/plugins/tiny_game.py``), through the API and the CLI."""
from __future__ import annotations

import sys

import pytest

from guesstree import compiler
from guesstree import player
from guesstree.player.games import make_game
from guesstree.player.verify import verify


def test_make_game_loads_the_factory(plugin_path):
    game = make_game("tiny_game:make")
    assert type(game).__name__ == "Tiny"
    assert game.spec() == {"name": "tiny_game:make", "params": {"symbols": 3}}
    assert len(game.secrets) == 9
    assert game.score((0, 2), (2, 0)) == (0, 1)
    assert game.score((1, 2), (1, 0)) == (1, 2)
    assert game.score((1, 0), (1, 2)) == (1, 0)
    assert game.parse_code("21") == (2, 1) and game.format_code((2, 1)) == "21"
    assert len(make_game("tiny_game:make", symbols=4).secrets) == 16


@pytest.mark.parametrize("name, params, words", [
    ("no_such_module_xyz:make", {}, "cannot import game plugin module 'no_such_module_xyz'"),
    ("tiny_game:absent", {}, "tiny_game has no callable 'absent'"),
    ("tiny_game:not_a_game", {}, "returned str, not a player.games.Game"),
    ("tiny_game:make", {"colours": 3}, "bad parameters for game plugin 'tiny_game:make'"),
])
def test_plugin_errors(plugin_path, name, params, words):
    with pytest.raises(ValueError) as caught:
        make_game(name, **params)
    assert words in str(caught.value)


def test_build_and_verify_through_the_api(plugin_path):
    built = compiler.build(make_game("tiny_game:make"), compiler.Options(strategy="entropy"))
    tree = player.loads(compiler.to_bytes(built), plugins=["tiny_game"])
    assert tree.game.spec() == {"name": "tiny_game:make", "params": {"symbols": 3}}
    report = verify(tree)
    assert report.ok, report.errors
    assert report.secrets == 9 and report.total == built.stats["total"]
    for secret in tree.game.secrets:
        assert tree.path(secret)[-1] == (secret, (2, 1))


def test_compile_through_the_cli(plugin_path, cli, tmp_path, monkeypatch):
    path = tmp_path / "tiny.msgpack.zst"
    result = cli("compile", "tiny_game:make", "--strategy", "entropy", "-o", path)
    assert result.exit_code == 0, result.output
    assert f"wrote {path}" in result.stdout
    monkeypatch.setenv("GUESSTREE_PLUGINS", "tiny_game")  # loading runs the plugin: only when trusted
    tree = player.load(path)
    assert verify(tree).ok
    assert tree.game.name == "tiny_game:make"

    result = cli("verify", path, "--json")
    assert result.exit_code == 0, result.output
    assert '"ok": true' in result.stdout

    result = cli("solve", path, "22")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].startswith("solved 22 in ")


def test_cli_refuses_an_option_the_plugin_does_not_take(plugin_path, cli, tmp_path, clean_error):
    result = cli("compile", "tiny_game:make", "--size", "3", "--strategy", "entropy", "-o", tmp_path / "t.zst")
    assert "bad parameters for game plugin" in clean_error(result)
    assert not (tmp_path / "t.zst").exists()


def tiny_artifact(factory: str = "make") -> bytes:
    game = make_game(f"tiny_game:{factory}")
    return compiler.to_bytes(compiler.build(game, compiler.Options(strategy="minimax")))


def test_loading_does_not_run_an_untrusted_plugin(plugin_path, monkeypatch):
    data = tiny_artifact()
    monkeypatch.delenv("GUESSTREE_PLUGINS", raising=False)
    with pytest.raises(player.FormatError) as caught:
        player.loads(data, "tiny.msgpack.zst")
    message = str(caught.value)
    assert message.startswith("tiny.msgpack.zst: the game is the plugin 'tiny_game:make'")
    assert "plugins=['tiny_game']" in message and "GUESSTREE_PLUGINS=tiny_game" in message
    assert player.loads(data, plugins=["tiny_game"]).game.spec()["name"] == "tiny_game:make"
    monkeypatch.setenv("GUESSTREE_PLUGINS", "other, tiny_game")
    assert player.loads(data).nodes > 1


def test_an_imported_game_class_is_trusted(plugin_path, monkeypatch):
    monkeypatch.delenv("GUESSTREE_PLUGINS", raising=False)
    tree = player.loads(tiny_artifact("Tiny"))
    assert verify(tree).ok


def test_an_artifact_whose_plugin_is_gone_is_unusable(plugin_path, monkeypatch):
    data = tiny_artifact()
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(plugin_path)])
    monkeypatch.delitem(sys.modules, "tiny_game")
    with pytest.raises(player.FormatError, match="cannot rebuild the game 'tiny_game:make'"):
        player.loads(data, "tiny.msgpack.zst", plugins=["tiny_game"])


def test_the_cli_trusts_a_plugin_only_when_told(plugin_path, cli, tmp_path, monkeypatch, clean_error):
    path = tmp_path / "tiny.msgpack.zst"
    assert cli("compile", "tiny_game:make", "--strategy", "minimax", "-o", path, "-q").exit_code == 0
    monkeypatch.delenv("GUESSTREE_PLUGINS", raising=False)
    refused = cli("verify", path)
    assert refused.exit_code == 2 and "--plugin tiny_game" in refused.output
    for command in (("verify", path), ("info", path), ("solve", path, "22"), ("export", path, "--format", "text")):
        result = cli(*command, "--plugin", "tiny_game")
        assert result.exit_code == 0, (command, result.output)


def test_the_refusal_names_a_command_that_works(plugin_path, cli, tmp_path, monkeypatch):
    """The refusal's advice is a whole command (the --plugin option belongs to each command, not to
    guesstree): run as written, it loads the tree."""
    import shlex

    path = tmp_path / "tiny.msgpack.zst"
    assert cli("compile", "tiny_game:make", "--strategy", "minimax", "-o", path, "-q").exit_code == 0
    monkeypatch.delenv("GUESSTREE_PLUGINS", raising=False)
    refused = cli("info", path)
    advice = refused.output.split("(e.g. ", 1)[1].split(")", 1)[0]
    words = shlex.split(advice)
    assert words[:3] == ["guesstree", "info", str(path)] and words[3:] == ["--plugin", "tiny_game"]
    result = cli(*words[1:])
    assert result.exit_code == 0 and "  game       Tiny, symbols 3\n" in result.output, result.output


def test_a_factory_that_raises_is_one_line_naming_the_plugin_the_factory_and_the_exception(plugin_path, cli, clean_error):
    """Issue 67: a plugin whose factory raised printed a 57-line traceback."""
    assert clean_error(cli("compile", "tiny_game:broken", "--strategy", "entropy"), 2) == \
        "error: game plugin 'tiny_game:broken': its factory broken() raised RuntimeError: no board today"
    with pytest.raises(ValueError, match=r"^game plugin 'tiny_game:broken': its factory broken\(\) raised RuntimeError"):
        make_game("tiny_game:broken")


def test_a_module_that_raises_as_it_is_imported_is_one_line(plugin_path, cli, clean_error, tmp_path, monkeypatch):
    (tmp_path / "raising_game.py").write_text("raise KeyError('boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert clean_error(cli("compile", "raising_game:make", "--strategy", "entropy"), 2) == \
        "error: cannot import game plugin module 'raising_game': it raised KeyError: 'boom'"


def test_a_plugin_game_is_titled_by_its_class_and_parameters_not_its_repr(plugin_path, cli, tmp_path, monkeypatch):
    """Issue 67: a plugin game's title was its repr, Tiny(symbols=3), in info and on the page."""
    game = make_game("tiny_game:make")
    assert (game.title(), str(game), repr(game)) == ("Tiny, symbols 3", "Tiny, symbols 3", "Tiny(symbols=3)")
    path = tmp_path / "tiny.msgpack.zst"
    monkeypatch.setenv("GUESSTREE_PLUGINS", "tiny_game")
    assert cli("compile", "tiny_game:make", "--strategy", "minimax", "-o", path).stdout.startswith(
        f"wrote {path}: Tiny, symbols 3, minimax, ")
    assert "  game       Tiny, symbols 3\n" in cli("info", path).stdout
    page = cli("export", path, "--format", "html").stdout
    assert "<title>guesstree: Tiny, symbols 3: minimax" in page and "Tiny(" not in page


def test_a_plugin_scorer_that_lies_is_named_by_its_title_not_its_repr(plugin_path, cli, clean_error):
    assert clean_error(cli("compile", "tiny_game:lying", "--strategy", "entropy", "--engine", "reference"), 2) == \
        "error: Lying, symbols 3: score(00, ...) gave (9, 9), which is not in the game's feedbacks()"
