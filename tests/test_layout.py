"""The house's rules, read from the code: data flows games -> compiler -> artifact -> player, so
``guesstree.player`` never imports ``guesstree.compiler``, no modules import each other in a circle, and the player's
commands run (and the compiler's say what to install) without numpy and numba."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).parent.parent
PACKAGES = ("player", "compiler")


def imports() -> dict[str, set[str]]:
    """Module -> the project's modules it imports anywhere (top level or inside a function)."""
    found: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            module = ".".join(("guesstree", *path.relative_to(REPO).with_suffix("").parts)).removesuffix(".__init__")
            targets = found.setdefault(module, set())
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    if node.level:  # relative: from . import x, from .x import y
                        base = module.split(".")[:len(module.split(".")) - node.level + (path.name == "__init__.py")]
                        stem = ".".join(base + ([node.module] if node.module else []))
                    else:
                        stem = node.module or ""
                    names = [stem] + [f"{stem}.{alias.name}" for alias in node.names]
                else:
                    continue
                targets.update(name for name in names if name.split(".")[:2] in (["guesstree", p] for p in PACKAGES))
    modules = set(found)
    return {module: {t for t in targets if t in modules and t != module} for module, targets in found.items()}


def test_the_player_never_imports_the_compiler():
    offenders = {module: sorted(t for t in targets if t.startswith("guesstree.compiler"))
                 for module, targets in imports().items() if module.startswith("guesstree.player")}
    assert {m: t for m, t in offenders.items() if t} == {}


def test_no_modules_import_each_other_in_a_circle():
    graph = imports()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    circles = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                circles.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target, path + [target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert circles == []


# The compiler's floors, from the ground up: a module imports its own floor's or those below, never
# one above (DEVELOPING.md draws them). The player is below them all.
FLOORS = (("workers",), ("engine",), ("search",), ("catalogue", "options", "strategies"), ("builder",),
          ("exact", "host_search", "compare", "review", "warm", "__init__"), ("cli", "__main__"))


def floor(module: str) -> int:
    """The floor of a compiler module (``guesstree.compiler.x...``): the one whose names hold its first part."""
    first = (module.split(".") + ["__init__"])[2]
    return next(level for level, names in enumerate(FLOORS) if first in names)


def test_no_compiler_import_climbs_up_a_floor():
    climbs = sorted(f"{module} -> {target}" for module, targets in imports().items() if module.startswith("guesstree.compiler")
                    for target in targets - {"guesstree.compiler"}  # (its __init__ imports nothing when loaded)
                    if target.startswith("guesstree.compiler") and floor(target) > floor(module))
    assert climbs == []


def test_every_compiler_module_has_a_floor():
    """The control: a new room is placed on a floor (or the rule above would not see it), and the
    rule sees a climb where there is one."""
    assert all(floor(module) >= 0 for module in imports() if module.startswith("guesstree.compiler"))
    assert floor("guesstree.compiler.engine.scorer") < floor("guesstree.compiler.builder.runner")


def test_the_import_reader_sees_imports():
    """The control: the reader finds the arrows that are there, lazy ones included."""
    graph = imports()
    assert "guesstree.player.game" in graph["guesstree.player.words"]
    assert "guesstree.compiler.search.solver" in graph["guesstree.compiler.strategies"]


def run_without_the_compiler_dependencies(*args: str) -> subprocess.CompletedProcess:
    """``guesstree ARGS`` in a fresh interpreter where numpy and numba cannot be imported."""
    code = ("import sys\n"
            "sys.modules['numpy'] = sys.modules['numba'] = None  # as on a base install\n"
            "from guesstree.player.cli import main\n"
            f"sys.argv = ['guesstree', *{list(args)!r}]\n"
            "main()\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_a_base_install_reads_trees_and_says_which_extra_compiles_them(mm32_path):
    verified = run_without_the_compiler_dependencies("verify", str(mm32_path))
    assert verified.returncode == 0 and verified.stdout.startswith("ok "), verified.stderr
    listed = run_without_the_compiler_dependencies("--help")
    assert listed.returncode == 0 and "compile" in listed.stdout and "bound" in listed.stdout
    names = run_without_the_compiler_dependencies("list")  # it only prints names
    assert names.returncode == 0, names.stderr
    assert "  optimal-expected  a tree of the fewest guesses in total" in names.stdout and "  mastermind " in names.stdout
    warmed = run_without_the_compiler_dependencies("warm")
    assert warmed.returncode == 2 and warmed.stderr.strip().splitlines() == [
        "error: this command needs the compiler's dependencies (numpy is missing): pip install 'guesstree[compiler]'"]
    compiled = run_without_the_compiler_dependencies("compile", "mastermind", "--strategy", "entropy")
    assert compiled.returncode == 2 and "Traceback" not in compiled.stderr
    assert compiled.stderr.strip().splitlines() == [
        "error: this command needs the compiler's dependencies (numpy is missing): pip install 'guesstree[compiler]'"]


def test_the_player_commands_load_no_compiler_module(mm32_path):
    code = ("import sys\n"
            "from guesstree.player.cli import main\n"
            f"sys.argv = ['guesstree', 'verify', {str(mm32_path)!r}]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('guesstree.compiler') or m.split('.')[0] in ('numpy', 'numba')))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.stdout.strip().splitlines()[-1] == "[]", result.stderr


# The compiled recursion is one function on purpose: split into helpers, the search ran 10 to 20%
# slower (numba does not inline them into a recursive function); its docstring says so.
LONG_ON_PURPOSE = {("compiler/search/recursion.py", "min_total")}


def test_rooms_stay_small():
    """No function over 80 lines and no class over 300 in the packages: a reader finds the room
    for a change by its name, and can read it whole."""
    too_big = []
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                size = getattr(node, "end_lineno", 0) - getattr(node, "lineno", 0) + 1
                if (str(path.relative_to(REPO)), getattr(node, "name", "")) in LONG_ON_PURPOSE:
                    continue
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and size > 80 \
                        or isinstance(node, ast.ClassDef) and size > 300:
                    too_big.append(f"{path.relative_to(REPO)}:{node.lineno} {node.name} ({size} lines)")
    assert too_big == []


def test_modules_stay_small():
    """No module over 500 lines in the packages."""
    too_long = [f"{path.relative_to(REPO)} ({length} lines)" for package in PACKAGES for path in (REPO / package).rglob("*.py")
                if (length := len(path.read_text().splitlines())) > 500]
    assert too_long == []


def _compiled(function: ast.FunctionDef) -> bool:
    """Is it a numba kernel (``@njit(...)``)? Its parameters are the arrays it reads: no object holds them."""
    return any("njit" in ast.unparse(decorator) for decorator in function.decorator_list)


def test_no_function_takes_more_than_eight_parameters():
    """Outside the kernels (the compiled ones, and ``compiler/engine/kernels.py`` and ``packed.py``, whose entry points hand
    the kernels their arrays), a function that needs more than eight values takes an object that
    holds them (``SearchSettings``, ``Options``, a command's ``settings``)."""
    too_many = []
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            if path in (REPO / "compiler" / "engine" / "kernels.py", REPO / "compiler" / "engine" / "packed.py"):
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or _compiled(node):
                    continue
                given = node.args
                names = [a.arg for a in (*given.posonlyargs, *given.args, *given.kwonlyargs)]
                names += [a.arg for a in (given.vararg, given.kwarg) if a is not None]
                count = len(names) - (names[:1] in (["self"], ["cls"]))
                if count > 8:
                    too_many.append(f"{path.relative_to(REPO)}:{node.lineno} {node.name} ({count} parameters)")
    assert too_many == []


def test_developing_maps_every_module():
    """DEVELOPING.md's map names every module of the packages (a new room is placed on the map)."""
    text = (REPO / "DEVELOPING.md").read_text()
    missing = [str(path.relative_to(REPO)) for package in PACKAGES for path in (REPO / package).rglob("*.py")
               if path.name not in ("__init__.py", "__main__.py") and path.name not in text]
    assert missing == []
