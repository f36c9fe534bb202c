"""Whether a table row states the value for the case and the column a question asks about.

A Markdown table row is read as one statement that keeps its column names (``Office:
Mill Street; Town: Fellmoor; Staff parking spaces: 40.``, see ``reading/evidence.py``).
A row is one case of its table: its first cell says which (an office, a version, a kind of
vehicle), its other cells give that case's values under their columns' names. So a row
answers a question only when it is the row of the question's case (a question that gives
its own number or identifier for the key column, "version 3.3", is not answered by the row
of version 3.4), and the column holding the value is the one asked about:
a column that shares words with the question and adds one the question does not use
("Staff parking spaces" for "visitor parking spaces") is a sibling detail, not the asked
one. A question that reaches the row through another hop ("the vehicle the scheme
helps you buy") does not name the case itself and is not judged here.
"""

from __future__ import annotations

import re

from groundgate.knowledge.text import STOPWORDS
from groundgate.reading.cases import other_case, word_keys
from groundgate.reading.question import Question
from groundgate.reading.score import typed
from groundgate.reading.text import has_value, term_key

__all__ = ["row_cells", "unbound_row"]

_CELL = re.compile(r"^([A-Z][^:;]{0,40}): (.+)$")
_WORD = re.compile(r"[^\W_]+(?:[.,]\d+)*")


def row_cells(text: str) -> list[tuple[str, str]]:
    """The (column, cell) pairs of a table row statement; empty when ``text`` is not one.

    A cell that holds ``;`` itself ("Room groups; weekly summary email") continues the
    cell before it.
    """
    cells: list[tuple[str, str]] = []
    case, dash, rest = text.partition(" — ")
    if dash and ": " not in case:
        # a table whose first column is unnamed: "Interment, child under 18 — Parishioner:
        # No charge; Non-parishioner: £210" is the row of its first cell
        cells.append(("", case))
        text = rest
    for part in text.rstrip(".").split("; "):
        if ": " in part and part.count(": ") > 1:
            return []  # "From: A To: B": an e-mail header, not a row
        field = _CELL.match(part)
        if field:
            cells.append((field.group(1), field.group(2)))
        elif cells:
            cells[-1] = (cells[-1][0], f"{cells[-1][1]}; {part}")
        else:
            return []
    return cells if len(cells) >= 2 else []


def _keys(text: str) -> set[str]:
    """Comparison keys of a text's words, a negation kept as ``not``.

    "not a parishioner" asks for the column "Non-parishioner".
    """
    words = [w.lower() for w in _WORD.findall(text)]
    return {"not" if w in _NEGATIONS else term_key(w) for w in words
            if w in _NEGATIONS or w not in STOPWORDS}


_NEGATIONS = {"not", "non"}


def _other_case(question: str, column: str, cell: str) -> str | None:
    """The question's own value for the row's key column when the row holds another.

    "version 3.3" against the row ``Version: 3.4``: the question names the key column and
    gives a number or identifier next to it that the row's first cell does not hold.
    """
    words = _WORD.findall(question)
    names = _keys(column)
    held = {w.lower() for w in _WORD.findall(cell)}
    for i, word in enumerate(words):
        if term_key(word.lower()) not in names:
            continue
        for j in range(max(0, i - 1), min(len(words), i + 3)):
            near = words[j]
            if any(ch.isdigit() for ch in near) and near.lower() not in held:
                return f"{word} {near}" if j > i else f"{near} {word}"
    return None


def unbound_row(q: Question, text: str) -> str | None:
    """Why a row does not state the asked value for the question's case, or ``None``."""
    cells = row_cells(text)
    if not cells or q.relative:
        return None
    asked = _keys(q.text)
    conflict = _other_case(q.text, *cells[0]) if cells[0][0] else None
    if conflict:
        return f"the sources state it for {cells[0][0].lower()} {cells[0][1]}, not {conflict}"
    columns = [(len(_keys(name) & asked), name) for name, cell in cells[1:]
               if typed(q, f"{name}: {cell}")]
    if not columns:
        return None
    shared, name = max(columns)
    # a column of another case of the asked thing ("Staff parking spaces" for visitor
    # parking spaces, "Non-member" for a member, "Until 31 March 2025" for another time);
    # a column that only says more ("Kelsham residents and local groups" for residents)
    # is the asked one
    extra = _keys(name) - asked
    if shared and extra and ("not" in extra or has_value(name, "date")
                             or other_case(q.text, q.mentions, name, "", word_keys(q.text))):
        return f"the sources give the {name.lower()}, not the detail the question asks about"
    return None
