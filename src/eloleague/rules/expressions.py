"""The small expression language of rule files (docs/rule-sets.md, "Formulas").

A formula such as ``k_multiplier = "pow(abs(margin) + 3, 0.8) / (7.5 + 0.006 * lead)"`` is parsed
once, when the rule file is read, by Python's own parser (``ast.parse(mode="eval")``), and the
tree is accepted only if every node is of a whitelisted kind: numbers, the variables its key
documents, ``+ - * / ** %``, comparisons, ``and``/``or``/``not``, ``if(c, a, b)`` and the
functions of :data:`FUNCTIONS`. The tree is then turned into nested Python closures; nothing is
ever given to ``eval``. Every problem is a :class:`ExpressionError` holding its column (from 1).
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from eloleague.i18n import Text

Values = Mapping[str, float]
Compiled = Callable[[Values], float]

IF = "if"
# ``if`` is a Python keyword: the text is parsed with ``iF`` in its place (same length, so the
# columns of messages are the columns of the rule file).
_IF_STAND_IN = "iF"
_IF_CALL = re.compile(r"\bif(?=\s*\()")


def _ln(x: float) -> float:
    return math.log(x)


FUNCTIONS: dict[str, tuple[int, int, Callable[..., float]]] = {
    # name: (fewest arguments, most arguments, function)
    "ln": (1, 1, _ln),
    "log10": (1, 1, math.log10),
    "exp": (1, 1, math.exp),
    "sqrt": (1, 1, math.sqrt),
    "abs": (1, 1, abs),
    "min": (2, 16, min),
    "max": (2, 16, max),
    "pow": (2, 2, math.pow),
}
"""The functions a formula may call, besides ``if(condition, then, else)``."""

_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: math.pow,
    ast.Mod: math.fmod,
}
_COMPARE: dict[type[ast.cmpop], Callable[[float, float], bool]] = {
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
}
_SYMBOLS: dict[type[ast.AST], str] = {
    ast.BitXor: "^",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.FloorDiv: "//",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.MatMult: "@",
    ast.Invert: "~",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}
_INVALID = Text.of("not a valid formula (check the brackets and operators)")
MAX_LENGTH = 1000  # characters of one formula: a formula is a line, not a program


class ExpressionError(ValueError):
    """A formula that cannot be used: the message (a :class:`Text`) and its column (from 1)."""

    def __init__(self, message: Text, column: int, after: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column
        self.after = after  # an operator: the 0-based offset its left operand ends at

    def located(self) -> Text:
        """``column N: message``, the form rule-file errors show."""
        return Text.of("column {column}: {problem}", column=self.column, problem=self.message)


class EvaluationError(ArithmeticError):
    """A formula that has no value for one game's variables (a division by zero, ``ln(0)``)."""

    def __init__(self, message: Text, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


@dataclass(frozen=True)
class Expression:
    """A parsed formula: its text, the variables it reads, and its evaluator."""

    text: str
    names: frozenset[str]
    run: Compiled = field(repr=False, compare=False)

    def __call__(self, values: Values) -> float:
        """The formula's value for ``values`` (every variable it reads), always finite; an
        :class:`EvaluationError` (with the column of the failing part) when it has none."""
        try:
            result = self.run(values)
        except _Failed as failed:
            raise EvaluationError(failed.message, failed.column) from None
        except RecursionError:
            raise EvaluationError(Text.of("the formula is nested too deeply"), 1) from None
        if not math.isfinite(result):
            raise EvaluationError(Text.of("the result is not a finite number"), 1)
        return result


class _Failed(Exception):
    def __init__(self, message: Text, column: int) -> None:
        self.message = message
        self.column = column


def parse(text: str, variables: Mapping[str, str]) -> Expression:
    """Parse ``text`` as a formula over ``variables`` (name: meaning) or raise
    :class:`ExpressionError` with the column of the first problem."""
    if len(text) > MAX_LENGTH:
        raise ExpressionError(
            Text.of("a formula is at most {limit} characters", limit=MAX_LENGTH), 1
        )
    if not text.strip():
        raise ExpressionError(Text.of("the formula is empty"), 1)
    stand_in = re.search(rf"\b{_IF_STAND_IN}\b", text)
    if stand_in is not None:
        raise _unknown(_IF_STAND_IN, stand_in.start() + 1, variables, shown=_IF_STAND_IN)
    source = _IF_CALL.sub(_IF_STAND_IN, text)
    try:
        tree = ast.parse(source.strip("\n"), mode="eval")
    except SyntaxError as exc:
        column = exc.offset or 0
        if (exc.lineno or 1) > 1 or not 1 <= column <= len(text):
            column = len(text.rstrip()) + 1  # the formula ends too early
        raise ExpressionError(_INVALID, column) from None
    except (RecursionError, MemoryError, ValueError):
        raise ExpressionError(_INVALID, 1) from None
    names: set[str] = set()
    try:
        run = _compile(tree.body, variables, names)
    except RecursionError:
        raise ExpressionError(Text.of("the formula is nested too deeply"), 1) from None
    except ExpressionError as exc:
        if exc.after is not None:  # point at the operator: past the left operand's brackets
            at = exc.after
            while at < len(source) and source[at] in " )":
                at += 1
            exc.column = at + 1
        raise
    return Expression(text, frozenset(names), run)


def _unknown(
    name: str, column: int, variables: Mapping[str, str], shown: str | None = None
) -> ExpressionError:
    if shown is None:
        shown = "if" if name == _IF_STAND_IN else name
    return ExpressionError(
        Text.of(
            "unknown name {name} (variables here: {variables}; functions: {functions})",
            name=repr(shown),
            variables=", ".join(variables),
            functions=", ".join(["if", *FUNCTIONS]),
        ),
        column,
    )


def _column(node: ast.AST) -> int:
    return int(getattr(node, "col_offset", 0)) + 1


def _compile(node: ast.expr, variables: Mapping[str, str], names: set[str]) -> Compiled:
    """The evaluator of one node (its parts checked against the whitelist), constant parts
    computed now so that ``1 / 0`` or ``ln(0)`` is a located error of the rule file."""
    run = _node(node, variables, names)
    if not _reads_variables(node):
        try:
            value = run({})
        except _Failed as failed:
            raise ExpressionError(failed.message, failed.column) from None
        if not math.isfinite(value):
            raise ExpressionError(Text.of("the result is not a finite number"), _column(node))
        return lambda values: value
    return run


def _reads_variables(node: ast.AST) -> bool:
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    return any(isinstance(n, ast.Name) and id(n) not in called for n in ast.walk(node))


def _guard(column: int, what: Callable[[Values], float]) -> Compiled:
    """``what``, an arithmetic failure turned into a located :class:`_Failed`."""

    def run(values: Values) -> float:
        try:
            return what(values)
        except ZeroDivisionError:
            raise _Failed(Text.of("division by zero"), column) from None
        except OverflowError:
            raise _Failed(Text.of("the number is too large"), column) from None
        except ValueError:
            raise _Failed(Text.of("outside the domain of the function"), column) from None

    return run


def _node(node: ast.expr, variables: Mapping[str, str], names: set[str]) -> Compiled:
    column = _column(node)
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ExpressionError(Text.of("only numbers may be written in a formula"), column)
        number = float(value)
        if not math.isfinite(number):
            raise ExpressionError(Text.of("the number is too large"), column)
        return lambda values: number
    if isinstance(node, ast.Name):
        name = node.id
        if name not in variables:
            raise _unknown(name, column, variables)
        names.add(name)
        return lambda values: float(values[name])
    if isinstance(node, ast.UnaryOp):
        operand = _compile(node.operand, variables, names)
        if isinstance(node.op, ast.USub):
            return lambda values: -operand(values)
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(node.op, ast.Not):
            return lambda values: 0.0 if operand(values) else 1.0
        raise _operator(node.op, column)
    if isinstance(node, ast.BinOp):
        op = _BINARY.get(type(node.op))
        if op is None:
            raise _operator(node.op, _column(node.right), node.left.end_col_offset)
        left = _compile(node.left, variables, names)
        right = _compile(node.right, variables, names)
        at = _column(node.right)
        constant = not _reads_variables(node.right)
        if isinstance(node.op, ast.Div | ast.Mod) and constant and right({}) == 0:
            raise ExpressionError(Text.of("division by zero"), at)  # wrong for every game
        return _guard(at, lambda values: float(op(left(values), right(values))))
    if isinstance(node, ast.BoolOp):
        parts = [_compile(v, variables, names) for v in node.values]
        if isinstance(node.op, ast.And):
            return lambda values: 1.0 if all(p(values) for p in parts) else 0.0
        return lambda values: 1.0 if any(p(values) for p in parts) else 0.0
    if isinstance(node, ast.Compare):
        ops = []
        for op_node in node.ops:
            compare = _COMPARE.get(type(op_node))
            if compare is None:
                raise _operator(op_node, column)
            ops.append(compare)
        terms = [_compile(v, variables, names) for v in (node.left, *node.comparators)]

        def chained(values: Values) -> float:
            left = terms[0](values)
            for compare, term in zip(ops, terms[1:], strict=True):
                right = term(values)
                if not compare(left, right):
                    return 0.0
                left = right
            return 1.0

        return chained
    if isinstance(node, ast.Call):
        return _call(node, variables, names)
    if isinstance(node, ast.IfExp):
        raise ExpressionError(Text.of("write a condition as if(condition, then, else)"), column)
    raise ExpressionError(Text.of("not allowed in a formula: {what}", what=_describe(node)), column)


def _call(node: ast.Call, variables: Mapping[str, str], names: set[str]) -> Compiled:
    column = _column(node)
    func = node.func
    if not isinstance(func, ast.Name):
        raise ExpressionError(Text.of("only the listed functions may be called"), column)
    if node.keywords:
        raise ExpressionError(
            Text.of("{name}() takes its arguments in order, without names", name=func.id),
            _column(node.keywords[0].value),
        )
    if any(isinstance(a, ast.Starred) for a in node.args):
        raise ExpressionError(Text.of("not allowed in a formula: {what}", what="*"), column)
    count = len(node.args)
    if func.id == _IF_STAND_IN:
        if count != 3:
            raise ExpressionError(
                Text.of("if() takes 3 arguments (condition, then, else), not {count}", count=count),
                column,
            )
        condition, then, otherwise = (_compile(a, variables, names) for a in node.args)
        return lambda values: then(values) if condition(values) else otherwise(values)
    spec = FUNCTIONS.get(func.id)
    if spec is None:
        if func.id in variables:
            raise ExpressionError(
                Text.of("{name} is a variable, not a function", name=repr(func.id)), column
            )
        raise _unknown(func.id, column, variables)
    fewest, most, function = spec
    if not fewest <= count <= most:
        wanted = str(fewest) if fewest == most else f"{fewest}-{most}"
        raise ExpressionError(
            Text.plural(
                "{name}() takes {wanted} argument, not {given}",
                "{name}() takes {wanted} arguments, not {given}",
                2 if fewest != most else fewest,
                name=func.id,
                wanted=wanted,
                given=count,
            ),
            column,
        )
    args = [_compile(a, variables, names) for a in node.args]
    return _guard(column, lambda values: float(function(*(a(values) for a in args))))


def _operator(op: ast.AST, column: int, after: int | None = None) -> ExpressionError:
    symbol = _SYMBOLS.get(type(op), type(op).__name__)
    if symbol == "^":
        message = Text.of("operator ^ is not allowed in a formula: write pow(a, b) or a ** b")
    else:
        message = Text.of("operator {symbol} is not allowed in a formula", symbol=symbol)
    return ExpressionError(message, max(column, 1), after)


def _describe(node: ast.AST) -> str:
    kinds = {
        ast.Attribute: "attributes (a.b)",
        ast.Subscript: "indexing (a[b])",
        ast.Lambda: "lambda",
        ast.List: "lists",
        ast.Tuple: "tuples (a, b)",
        ast.Dict: "tables",
        ast.Set: "sets",
        ast.JoinedStr: "text",
        ast.ListComp: "comprehensions",
        ast.GeneratorExp: "comprehensions",
        ast.NamedExpr: ":=",
        ast.Await: "await",
        ast.Starred: "*",
    }
    return kinds.get(type(node), type(node).__name__)
