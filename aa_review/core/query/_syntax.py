"""The query syntax tree, its tokens and the recursive-descent parser (no data needed).

Grammar (``OR`` binds loosest, then ``AND`` or juxtaposition, then ``NOT``/``-``)::

    query   := [or_expr] EOF
    or_expr := and_expr ("OR" and_expr)*
    and_expr:= unary (["AND"] unary)*
    unary   := ("NOT" | "-") unary | "(" or_expr ")" | term
    term    := FIELD OP VALUE | VALUE          OP: < <= > >= = != :   (spaces allowed around OP)
    VALUE   := "quoted \\" text" | bare          bare: up to a space or a parenthesis

``OR``, ``AND`` and ``NOT`` are keywords in any case; quote them to search for the word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from aa_review.core.util.errors import AAReviewError

__all__ = [
    "QueryError",
    "Term",
    "Not",
    "And",
    "Or",
    "Node",
    "parse_query",
    "OPERATORS",
    "tokenize",
    "Token",
]

OPERATORS = ("<=", ">=", "!=", "<", ">", "=", ":")
_FIELD_OP = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)[ \t]*(<=|>=|!=|<|>|=|:)")
_KEYWORDS = {"or": "OR", "and": "AND", "not": "NOT"}
_STOP = set("()") | {" ", "\t", "\n", "\r"}
MAX_DEPTH = 64  # nested parentheses and negations; deeper is refused, never a crash


class QueryError(AAReviewError):
    """A query that cannot be understood; ``column`` is 1-based, ``message`` says the fix."""

    def __init__(self, query: str, column: int, message: str) -> None:
        self.query = query
        self.column = column
        self.message = message
        super().__init__(f"query column {column}: {message}\n  {query}\n  {' ' * (column - 1)}^")


@dataclass(frozen=True)
class Term:
    """``field op value``, or free text when ``field`` is None.

    ``start``/``end`` are 0-based offsets of the whole term in the query,
    ``value_start`` of its value; ``column`` is the 1-based start.
    """

    field: str | None
    op: str
    value: str
    start: int
    end: int
    value_start: int
    quoted: bool = False

    @property
    def column(self) -> int:
        return self.start + 1


@dataclass(frozen=True)
class Not:
    node: Node
    start: int
    end: int


@dataclass(frozen=True)
class And:
    nodes: tuple[Node, ...]
    start: int
    end: int
    grouped: bool = False


@dataclass(frozen=True)
class Or:
    nodes: tuple[Node, ...]
    start: int
    end: int
    grouped: bool = False


Node = Term | Not | And | Or


@dataclass(frozen=True)
class Token:
    """``kind``: ( ) NEG NOT AND OR TERM EOF; ``term`` for TERM."""

    kind: str
    start: int
    end: int
    term: Term | None = None


def _read_value(q: str, i: int, tolerant: bool) -> tuple[str, int, bool]:
    """The value at ``i``: a quoted string (``\\"`` and ``\\\\`` escaped) or a bare word."""
    if i < len(q) and q[i] == '"':
        out, j = [], i + 1
        while j < len(q) and q[j] != '"':
            if q[j] == "\\" and j + 1 < len(q) and q[j + 1] in '"\\':
                j += 1
            out.append(q[j])
            j += 1
        if j >= len(q):
            if tolerant:
                return "".join(out), j, True
            raise QueryError(q, i + 1, 'unclosed quote: end the text with another "')
        return "".join(out), j + 1, True
    j = i
    while j < len(q) and q[j] not in _STOP:
        j += 1
    return q[i:j], j, False


def tokenize(q: str, *, tolerant: bool = False) -> list[Token]:
    """Split ``q`` into tokens; ``tolerant`` (for completion) accepts unfinished input."""
    out: list[Token] = []
    i, n = 0, len(q)
    while i < n:
        c = q[i]
        if c.isspace():
            i += 1
            continue
        if c in "()":
            out.append(Token(c, i, i + 1))
            i += 1
            continue
        if c == "-":
            if i + 1 >= n or q[i + 1].isspace() or q[i + 1] == ")":
                if tolerant:
                    i += 1
                    continue
                raise QueryError(
                    q,
                    i + 1,
                    "'-' negates the term right after it, with no space "
                    '(-type:x); to search for a dash, quote it: "-"',
                )
            out.append(Token("NEG", i, i + 1))
            i += 1
            continue
        m = _FIELD_OP.match(q, i)
        if m:
            j = m.end()
            while j < n and q[j] in " \t":
                j += 1
            value, end, quoted = _read_value(q, j, tolerant)
            if not value and not quoted and not tolerant:
                raise QueryError(
                    q,
                    j + 1,
                    f"'{m.group(1)}{m.group(2)}' needs a value after it "
                    f"(e.g. {_example(m.group(1), m.group(2))})",
                )
            term = Term(m.group(1).lower(), m.group(2), value, i, end, j, quoted)
            out.append(Token("TERM", i, end, term))
            i = end
            continue
        value, end, quoted = _read_value(q, i, tolerant)
        kw = None if quoted else _KEYWORDS.get(value.lower())
        if kw:
            out.append(Token(kw, i, end))
        else:
            out.append(Token("TERM", i, end, Term(None, ":", value, i, end, i, quoted)))
        i = end
    out.append(Token("EOF", n, n))
    return out


def _example(field: str, op: str) -> str:
    return (
        f"{field}{op}0.5"
        if op in ("<", "<=", ">", ">=")
        else f'{field}{op}value or {field}{op}"two words"'
    )


class _Parser:
    def __init__(self, q: str) -> None:
        self.q = q
        self.toks = tokenize(q)
        self.i = 0
        self.depth = 0

    @property
    def tok(self) -> Token:
        return self.toks[self.i]

    def fail(self, tok: Token, message: str) -> QueryError:
        return QueryError(self.q, tok.start + 1, message)

    def parse(self) -> Node | None:
        if self.tok.kind == "EOF":
            return None
        node = self.or_expr()
        if self.tok.kind == ")":
            raise self.fail(self.tok, "')' closes no '(': remove it or add the '(' it closes")
        return node

    def or_expr(self) -> Node:
        items = [self.and_expr()]
        while self.tok.kind == "OR":
            op = self.tok
            self.i += 1
            if self.tok.kind in ("EOF", ")", "OR", "AND"):
                raise self.fail(op, "OR needs a term on both sides (type:a OR type:b)")
            items.append(self.and_expr())
        return items[0] if len(items) == 1 else Or(tuple(items), items[0].start, items[-1].end)

    def and_expr(self) -> Node:
        items = [self.unary()]
        while self.tok.kind not in ("EOF", ")", "OR"):
            if self.tok.kind == "AND":
                op = self.tok
                self.i += 1
                if self.tok.kind in ("EOF", ")", "OR", "AND"):
                    raise self.fail(
                        op,
                        "AND needs a term on both sides (type:a AND "
                        "confidence<0.5; AND may be left out)",
                    )
            items.append(self.unary())
        return items[0] if len(items) == 1 else And(tuple(items), items[0].start, items[-1].end)

    def unary(self) -> Node:
        tok = self.tok
        if tok.kind in ("NEG", "NOT", "("):
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.fail(tok, f"nested more than {MAX_DEPTH} deep: simplify the query")
            try:
                return self.nested(tok)
            finally:
                self.depth -= 1
        if tok.kind == "TERM":
            self.i += 1
            assert tok.term is not None
            return tok.term
        if tok.kind == ")":
            raise self.fail(tok, "')' closes no '(': remove it or add the '(' it closes")
        if tok.kind == "EOF":
            raise self.fail(tok, "the query ends where a term should be")
        raise self.fail(tok, f"{tok.kind} needs a term before it (type:a {tok.kind} type:b)")

    def nested(self, tok: Token) -> Node:
        """A negation or a parenthesised group starting at ``tok``."""
        if tok.kind in ("NEG", "NOT"):
            self.i += 1
            if self.tok.kind in ("EOF", ")", "OR", "AND"):
                raise self.fail(
                    tok,
                    f"{'NOT' if tok.kind == 'NOT' else '-'} needs a term after "
                    "it (NOT type:x, -type:x)",
                )
            inner = self.unary()
            return Not(inner, tok.start, inner.end)
        self.i += 1  # past '('
        if self.tok.kind == "EOF":
            raise self.fail(tok, "this '(' is never closed: add terms and ')'")
        if self.tok.kind == ")":
            raise self.fail(tok, "empty parentheses: put terms inside, e.g. (type:a OR type:b)")
        inner = self.or_expr()
        if self.tok.kind != ")":
            raise self.fail(tok, "this '(' is never closed: add ')'")
        close = self.tok
        self.i += 1
        if isinstance(inner, (And, Or)):
            return replace(inner, start=tok.start, end=close.end, grouped=True)
        return inner


def parse_query(q: str) -> Node | None:
    """The syntax tree of ``q`` (None when it holds no term); raises :class:`QueryError`."""
    return _Parser(q).parse()
