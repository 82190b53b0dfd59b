"""Comparing strategies on one game: rows, the table, the SVG picture, the command."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree

import pytest
from parts import missing

from guesstree import player
from guesstree.compiler.compare import DEFAULT_STRATEGIES, Row, compare, parse_strategies, plot_svg, table
from guesstree.player.games import make_game

MM43 = ["mastermind", "--colours", "4", "--holes", "3"]
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def mm43_rows():
    return compare(make_game("mastermind", colours=4, holes=3), ["entropy", "minimax", "first"])


def test_rows_are_the_built_trees_statistics(mm43_rows, build_cached):
    assert [row.strategy for row in mm43_rows] == ["entropy", "minimax", "first"]
    for row in mm43_rows:
        built = build_cached("mastermind", row.strategy, colours=4, holes=3)
        assert row.stats == built.stats and row.nodes == built.nodes
        assert row.spec == {"name": row.strategy, "candidates": "consistent" if row.strategy == "first" else "all"}
        assert row.seconds > 0 and row.path is None
        assert sum(row.distribution()) == 64 and row.stats["secrets"] == 64


def test_rows_match_the_golden_trees(golden_path):
    mm32, = compare(make_game("mastermind", colours=3, holes=2), ["entropy"])
    assert (mm32.stats["total"], mm32.stats["worst"], mm32.distribution()) == (21, 3, [1, 4, 4])
    twod, = compare(make_game("twod", size=3), ["minimax"])
    assert twod.stats == player.load(golden_path("twod-s3-minimax.msgpack.zst")).stats


def test_settings_apply_to_every_strategy_in_the_list():
    rows = compare(make_game("twod", size=4), ["first", "entropy"], {"candidates": "consistent"})
    assert [row.spec for row in rows] == [{"name": "first", "candidates": "consistent"},
                                          {"name": "entropy", "candidates": "consistent"}]
    rows = compare(make_game("twod", size=4), ["first", "entropy"])  # first's own candidates do not leak
    assert rows[1].spec == {"name": "entropy", "candidates": "all"}


def test_each_build_is_planned_once(monkeypatch, cli, tmp_path):
    """compare and compile ask ``plan`` once a build (to refuse one that cannot finish before any
    work), and the build follows that plan instead of making it again."""
    from guesstree.compiler import compare as comparing
    from guesstree.compiler.builder import runner

    planned, plan = [], runner.plan

    def counted(game, options, *arguments, **keywords):
        planned.append(options.name)
        return plan(game, options, *arguments, **keywords)

    monkeypatch.setattr(runner, "plan", counted)
    monkeypatch.setattr(comparing, "plan", counted)
    rows = compare(make_game("mastermind", colours=3, holes=2), ["entropy", "first"])
    assert planned == ["entropy", "first"] and rows[0].stats["total"] == 21
    planned.clear()
    result = cli("compile", "mastermind", "--colours", "3", "--holes", "2", "--strategy", "entropy",
                 "-o", tmp_path / "mm32.msgpack.zst")
    assert result.exit_code == 0, result.output
    assert planned == ["entropy"] and player.load(tmp_path / "mm32.msgpack.zst").stats.total == 21


def test_parse_strategies():
    assert parse_strategies(" entropy, minimax ,first") == ["entropy", "minimax", "first"]
    with pytest.raises(ValueError, match="unknown strategy: 'fastest'; choose from first, random, entropy"):
        parse_strategies("entropy,fastest")
    assert parse_strategies("Knuth,kooi,irving") == ["minimax", "most-parts", "expected-size"]  # by author
    with pytest.raises(ValueError, match="names 'most-parts' twice"):
        parse_strategies("most-parts,kooi")
    with pytest.raises(ValueError, match="names 'entropy' twice"):
        parse_strategies("entropy,minimax,entropy")
    with pytest.raises(ValueError, match="empty name"):
        parse_strategies("entropy,,minimax")


def test_trees_directory_saves_then_loads(tmp_path):
    game = make_game("twod", size=4)
    compiled = compare(game, ["entropy", "random"], {"seed": 3}, trees=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["twod-s4-entropy.msgpack.zst",
                                                          "twod-s4-random-seed3.msgpack.zst"]
    assert all(row.seconds is not None for row in compiled)
    loaded = compare(game, ["entropy", "random"], {"seed": 3}, trees=tmp_path)
    assert [row.seconds for row in loaded] == [None, None]
    assert [row.path for row in loaded] == [str(tmp_path / "twod-s4-entropy.msgpack.zst"),
                                            str(tmp_path / "twod-s4-random-seed3.msgpack.zst")]
    assert [(r.stats, r.nodes, r.spec) for r in loaded] == [(r.stats, r.nodes, r.spec) for r in compiled]
    (tmp_path / "twod-s4-minimax.msgpack.zst").write_bytes((tmp_path / "twod-s4-entropy.msgpack.zst").read_bytes())
    with pytest.raises(ValueError, match="holds another tree"):
        compare(game, ["minimax"], trees=tmp_path)


def fake_row(name: str, histogram: dict, seconds=1.5) -> Row:
    total = sum(k * v for k, v in histogram.items())
    secrets = sum(histogram.values())
    stats = {"secrets": secrets, "total": total, "average": total / secrets, "worst": max(histogram),
             "histogram": histogram, "determined_total": total - secrets,
             "determined_average": (total - secrets) / secrets, "determined_worst": max(histogram) - 1,
             "determined_histogram": {}}
    return Row(name, {"name": name}, stats, secrets, seconds)


def test_table_columns():
    rows = [fake_row("entropy", {1: 1, 2: 4, 3: 4}), fake_row("first", {1: 1, 2: 2, 3: 4, 4: 2}, None)]
    assert table(rows).splitlines() == [
        "                                   secrets won in N guesses",
        "strategy    total  average  worst    1    2    3    4  to know   compile",
        "entropy        21    2.333      3    1    4    4    -    1.333    1.50 s",
        "first          25    2.778      4    1    2    4    2    1.778    loaded",
    ]


def test_table_lists_a_long_distribution():
    row = fake_row("first", {k: 1 for k in range(1, 15)})
    line = table([row]).splitlines()[-1]
    assert ", ".join(str(1) for _ in range(14)) in line


def test_plot_is_svg_with_bars_legend_and_labels(mm43_rows):
    text = plot_svg(mm43_rows, "Guesses to win: Mastermind <4 colours> & 3 holes")
    root = ElementTree.fromstring(text)  # well-formed, the title escaped
    assert root.tag == f"{SVG}svg"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Guesses to win: Mastermind <4 colours> & 3 holes" in texts
    assert "guesses to win" in texts and "secrets" in texts
    legend = [t.text for g in root.iter(f"{SVG}g") if g.get("class") == "legend" for t in g.iter(f"{SVG}text")]
    assert legend == [f"{row.strategy} ({row.stats['average']:.3f})" for row in mm43_rows]
    bars = {(r.get("data-strategy"), int(r.get("data-guesses"))): int(r.get("data-secrets"))
            for r in root.iter(f"{SVG}rect") if r.get("class") == "bar"}
    assert bars == {(row.strategy, k): v for row in mm43_rows for k, v in row.stats["histogram"].items() if v}
    fills = {r.get("fill") for r in root.iter(f"{SVG}rect") if r.get("class") == "bar"}
    assert len(fills) == len(mm43_rows)  # one colour per strategy
    worst = max(row.stats["worst"] for row in mm43_rows)
    assert all(str(k) in texts for k in range(1, worst + 1))  # a label under each group of bars


# -- the command ---------------------------------------------------------------

def test_cli_compare_prints_the_table(cli, mm43_rows):
    result = cli("compare", *MM43, "--strategies", "entropy,minimax,first")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Mastermind, 4 colours, 3 holes, 64 secrets"
    assert len(lines) == 1 + 2 + 3 + 1 and lines[-1].startswith("total, average, worst: guesses to win;")
    expected = table(mm43_rows).splitlines()
    assert lines[1:3] == expected[:2]
    for line, row in zip(lines[3:-1], expected[2:], strict=True):
        assert line.rsplit("  ", 1)[0] == row.rsplit("  ", 1)[0]  # all but the compile time


def test_cli_compare_default_strategies(cli):
    result = cli("compare", "twod", "--size", "4", "--json")
    assert result.exit_code == 0, result.output
    assert [row["strategy"] for row in json.loads(result.stdout)["rows"]] == list(DEFAULT_STRATEGIES)


def test_cli_compare_json_and_plot(cli, tmp_path, mm43_rows):
    plot = tmp_path / "mm.svg"
    result = cli("compare", *MM43, "--strategies", "entropy,minimax,first", "--json", "--plot", plot)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["game"] == make_game("mastermind", colours=4, holes=3).spec()
    assert report["secrets"] == 64 and report["plot"] == str(plot)
    for got, row in zip(report["rows"], mm43_rows, strict=True):
        assert got["strategy"] == row.strategy and got["source"] == "compiled"
        assert (got["total"], got["worst"], got["nodes"]) == (row.stats["total"], row.stats["worst"], row.nodes)
        assert got["histogram"] == {str(k): v for k, v in row.stats["histogram"].items()}
        assert got["determined_average"] == row.stats["determined_average"]
    root = ElementTree.fromstring(plot.read_text())
    assert "Guesses to win: Mastermind, 4 colours, 3 holes (64 secrets)" in [t.text for t in root.iter(f"{SVG}text")]
    assert [p.name for p in plot.parent.iterdir()] == ["mm.svg"]


def test_cli_compare_reuses_a_trees_directory(cli, tmp_path):
    args = ["compare", "twod", "--size", "4", "--strategies", "entropy", "--trees", tmp_path / "trees", "--json"]
    first = json.loads(cli(*args).stdout)["rows"][0]
    again = json.loads(cli(*args).stdout)["rows"][0]
    assert (first["source"], again["source"]) == ("compiled", "loaded")
    assert again["seconds"] is None and again["total"] == first["total"]


@pytest.mark.parametrize("args, message", [
    (MM43 + ["--strategies", "entropy,fastest"], "error: unknown strategy: 'fastest'; choose from first, random, "),
    (MM43 + ["--strategies", "entropy", "--candidates", "some"], "error: --candidates must be 'all' or 'consistent'"),
    (["twod", "--colours", "3"], "error: --colours does not apply to twod"),
    (["chess"], "error: unknown game: 'chess'"),
    (MM43 + ["--max-memory", "0"], "error: --max-memory must be a positive number of GiB"),
])
def test_cli_compare_bad_input(cli, clean_error, args, message):
    assert clean_error(cli("compare", *args), 2).startswith(message)


def test_cli_compare_trees_must_be_a_directory(cli, clean_error, tmp_path):
    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("")
    line = clean_error(cli("compare", *MM43, "--strategies", "first", "--trees", not_a_directory), 2)
    assert line == f"error: --trees {not_a_directory} is not a directory"


MM55_TITLE = "Guesses to win: Mastermind, 5 colours, 5 holes (distinct colours, guesses may repeat) (120 secrets)"
FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",  # Linux's usual sans-serif: a wide one
         "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf")  # Arial's metrics


def _titles(text: str) -> tuple[float, list]:
    root = ElementTree.fromstring(text)
    return float(root.get("width")), [t for t in root.iter(f"{SVG}text") if t.get("class") == "title"]


@pytest.mark.parametrize("font", FONTS)
def test_plot_title_fits_in_the_picture_as_a_font_draws_it(mm43_rows, font):
    ImageFont = pytest.importorskip("PIL.ImageFont")
    import os

    if not os.path.exists(font):
        missing(f"the plot's title test needs the font {font} (apt-get install fonts-liberation)")
    for title in (MM55_TITLE, "Guesses to win: " + "W" * 90, "short"):
        width, lines = _titles(plot_svg(mm43_rows, title))
        assert " ".join(t.text for t in lines) == title
        for line in lines:
            drawn = ImageFont.truetype(font, float(line.get("font-size"))).getlength(line.text)
            x = float(line.get("x"))
            assert line.get("text-anchor") == "middle" and 0 <= x - drawn / 2 and x + drawn / 2 <= width, line.text


def test_plot_breaks_a_long_title_and_widens_for_a_long_word(mm43_rows):
    width, lines = _titles(plot_svg(mm43_rows, "Guesses to win: Mastermind <4 colours> & 3 holes"))
    assert len(lines) == 1  # a title that fits stays one line
    wrapped_width, lines = _titles(plot_svg(mm43_rows, MM55_TITLE))
    assert len(lines) == 2 and wrapped_width == width  # broken at a space, the picture as wide
    assert [float(t.get("y")) for t in lines] == [30, 52]
    wide, lines = _titles(plot_svg(mm43_rows, "W" * 120))
    assert [t.text for t in lines] == ["W" * 120] and wide > width + 1000
    root = ElementTree.fromstring(plot_svg(mm43_rows, MM55_TITLE))  # the plot moved down below the title
    grid = [float(line.get("y1")) for line in root.iter(f"{SVG}line")]
    assert min(grid) >= 52 + 20
