"""The one ``guesstree`` program's shape: its commands in a user's order (with those other packages
add through entry points), and every mistake on the command line as one ``error:`` line."""
from __future__ import annotations

import contextlib
import copy
import difflib
import functools
import re
import sys
import warnings
from importlib.metadata import entry_points

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

CLICK = sys.modules[typer.BadParameter.__module__]  # click's exceptions, as the click that typer runs on (it may vendor one)
COMMANDS = "guesstree.commands"  # entry-point group: name -> function returning {name: click command}
EXIT_INVALID, EXIT_UNUSABLE = 1, 2
ORDER = ["play", "solve", "next", "review", "info", "verify", "manifest", "export", "trees", "list",  # --help's order; others after
         "compile", "bound", "compare", "openers", "warm"]


class Program(TyperGroup):
    """The one ``guesstree`` program: the player's commands, then those other packages add."""

    @functools.cached_property
    def _entry_points(self) -> dict:  # read from the installed metadata once
        return {point.name: point for point in entry_points(group=COMMANDS)}

    def _added(self) -> dict:
        return {name: point for name, point in self._entry_points.items() if name not in self.commands}

    def list_commands(self, ctx) -> list[str]:
        """In a user's order: playing and reading a tree, checking and shipping trees, then making them."""
        names = [*self.commands, *self._added()]
        return sorted(names, key=lambda name: ORDER.index(name) if name in ORDER else len(ORDER) + names.index(name))

    def get_command(self, ctx, name: str):
        point = self._added().get(name) if name not in self.commands else None
        if point is not None:
            for added, command in point.load()().items():
                self.commands.setdefault(added, command)
        return self.commands.get(name)

    def make_context(self, *args, **kwargs):
        with _one_line_usage_errors():
            return super().make_context(*args, **kwargs)

    def resolve_command(self, ctx, args):
        with _one_line_usage_errors():
            return super().resolve_command(ctx, args)

    def invoke(self, ctx):
        with _warnings_as_lines():
            return super().invoke(ctx)


class Command(TyperCommand):
    """A command whose help names its arguments (GAME, TREE...) without typer's type placeholders,
    and whose numeric options refuse a word in one line of our own (``--colours six``)."""

    def make_context(self, info_name, args, parent=None, **extra):
        with _one_line_usage_errors(self.name):  # (click's parser raises some without their context)
            return super().make_context(info_name, args, parent, **extra)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for param in self.params:
            if isinstance(param, TyperArgument):
                shown = param.metavar or param.name.upper()
                param.display_type_rich = lambda ctx: None
                param.get_usage_pieces = lambda ctx, shown=shown: [shown]
            wanted = NUMBERS.get(getattr(param.type, "name", None))
            if wanted is not None:  # a copy: click shares one type object among its options
                param.type = copy.copy(param.type)
                param.type.convert = functools.partial(_number, param.type.convert, wanted)


class FreeArguments(Command):
    """A command whose arguments may begin with a dash, as Wordle's feedback does (``-Y---``, the
    form ``solve`` prints), where click would read an option: every word that is not one of the
    command's options (or its value) is an argument, in the order given; a word shaped like a long
    option it lacks (``--jsn``) is still refused, and its long options (``--json``) are taken
    anywhere, even after ``--``, which no code or feedback spells."""

    def parse_args(self, ctx, args):
        return super().parse_args(ctx, _options_first(self, ctx, args))


def _options_first(command, ctx, args: list[str]) -> list[str]:
    """``args`` as the command's options (and unknown long ones, for click to refuse by name),
    then ``--`` and every other word: the arguments, dashes and all."""
    takes_value = {name: not (param.is_flag or param.count) for param in command.get_params(ctx)
                   if param.param_type_name == "option" for name in (*param.opts, *param.secondary_opts)}
    options, arguments, words, separated = [], [], iter(args), False
    for word in words:
        name = word.split("=", 1)[0]
        if word == "--" and not separated:
            separated = True
        elif name in takes_value and (name.startswith("--") or not separated):
            options.append(word)
            if takes_value[name] and "=" not in word:
                value = next(words, None)
                if value is None:
                    raise CLICK.BadOptionUsage(name, f"Option {name!r} requires an argument.", ctx)
                options.append(value)
        elif re.match(r"--[A-Za-z]", word) and not separated:
            options.append(word)  # an option this command lacks: click names it, with the nearest
        else:
            arguments.append(word)
    return [*options, "--", *arguments] if arguments else options


@contextlib.contextmanager
def _one_line_usage_errors(command: str | None = None):
    """A mistake on the command line as one ``error:`` line and exit 2, like every other: not
    click's usage block, and a suggestion only where an option of the command is near the one typed."""
    try:
        yield
    except CLICK.UsageError as error:
        if type(error).__name__ == "NoArgsIsHelpError":  # no arguments at all: the help, as asked
            raise
        raise fail(_usage_line(error, command)) from None


@contextlib.contextmanager
def _warnings_as_lines():
    """A warning of guesstree's own (``words.DuplicateWords``) as one ``warning:`` line on stderr,
    once, where Python would print two lines, the second the source line that warned; others as
    Python prints them."""
    said, python = set(), warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if not category.__module__.startswith("guesstree."):
            return python(message, category, filename, lineno, file, line)
        if str(message) not in said:
            said.add(str(message))
            typer.echo(f"warning: {message}", err=True)

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


def _usage_line(error, command: str | None = None) -> str:
    """``error`` as one line that names the command as typed (however invoked): its context's, else
    ``command``, the one being parsed."""
    ctx = error.ctx
    path = " ".join(["guesstree", *(ctx.command_path.split()[1:] if ctx is not None else [command] if command else [])])
    if isinstance(error, CLICK.NoSuchOption):
        options = [opt for param in ctx.command.get_params(ctx) for opt in param.opts + param.secondary_opts
                   if opt.startswith("--")] if ctx is not None else []
        near = difflib.get_close_matches(error.option_name.lstrip("-"), [o[2:] for o in options], n=2, cutoff=0.75)
        hint = f"did you mean {' or '.join('--' + n for n in near)}?" if near else f"{path} -h lists its options"
        return f"{path} has no option {error.option_name} ({hint})"
    if isinstance(error, CLICK.MissingParameter) and error.param is not None:
        param = error.param
        shown = (max(param.opts, key=len) + (f" {param.metavar}" if param.metavar else "")
                 if not isinstance(param, TyperArgument) else (param.metavar or (param.name or "").upper()))
        return f"{path} needs {shown} ({path} -h says what it takes)"
    message = error.format_message()
    if message.startswith("No such command"):
        name = message.split("'")[1] if "'" in message else message
        near = difflib.get_close_matches(name, ctx.command.list_commands(ctx), n=2, cutoff=0.6) if ctx else []
        hint = f"did you mean {' or '.join(near)}?" if near else "guesstree -h lists them"
        return f"no command {name!r} ({hint})"
    return f"{path}: {message[0].lower()}{message[1:]}".rstrip(".")


def fail(message: str, code: int = EXIT_UNUSABLE) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


NUMBERS = {"int": "a whole number", "integer": "a whole number", "float": "a number"}  # click's type names


def _number(convert, wanted: str, value, param, ctx):
    """``--colours must be a whole number, not 'six'``, where click would print its usage and
    "'six' is not a valid int"."""
    try:
        return convert(value, param, ctx)
    except typer.BadParameter:
        name = next((opt for opt in param.opts if opt.startswith("--")), param.opts[0])
        raise fail(f"{name} must be {wanted}, not {value!r}") from None
