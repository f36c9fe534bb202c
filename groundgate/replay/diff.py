"""What changed between a recorded run and its replay: results, citations, answer.

Pure functions over two run files (``record.py``); timing never counts as a change.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any

from groundgate.tools.envelope import Envelope, read_envelopes

__all__ = ["CallDiff", "RunDiff", "diff_runs"]

_RESULT_FIELDS = ("title", "kind", "snippet", "source_ids", "validity", "path", "data")
_ENVELOPE_FIELDS = ("insufficient", "reason", "error", "truncated")
_ANSWER_FIELDS = ("answered", "insufficient", "bound_tripped")
_CONTEXT = 40


@dataclass(frozen=True)
class CallDiff:
    """How one re-executed tool call's envelope differs from the recorded one.

    Attributes:
        index: 1-based position of the call in the run.
        tool: The tool's name.
        args: The call's arguments.
        changes: One line per difference, ``+``/``-``/``~`` first.
    """

    index: int
    tool: str
    args: dict[str, Any]
    changes: tuple[str, ...]

    def heading(self) -> str:
        """``call 3 get_source {"source_id": "LIB-003"}``."""
        shown = {k: v for k, v in self.args.items() if v not in (None, [], "", {})}
        return f"call {self.index} {self.tool} {json.dumps(shown, ensure_ascii=False, sort_keys=True)}"


@dataclass(frozen=True)
class RunDiff:
    """The differences between a recorded run and its replay (empty when they agree).

    Attributes:
        calls: The tool calls whose results changed, in call order.
        citations: ``+ id``/``- id`` lines for citations gained or lost.
        answer: A unified diff of the answer text.
        other: Changes to whether it answered, what it could not say, bounds, contested points.
    """

    calls: tuple[CallDiff, ...] = ()
    citations: tuple[str, ...] = ()
    answer: tuple[str, ...] = ()
    other: tuple[str, ...] = ()

    @property
    def same(self) -> bool:
        """Whether the replay agrees with the recording on results, citations and answer."""
        return not (self.calls or self.citations or self.answer or self.other)

    def lines(self) -> list[str]:
        """The diff as text, section by section."""
        out: list[str] = []
        if self.calls:
            out.append("results:")
            for call in self.calls:
                out.append(f"  {call.heading()}")
                out.extend(f"    {line}" for line in call.changes)
        if self.citations:
            out.append("citations:")
            out.extend(f"  {line}" for line in self.citations)
        if self.answer:
            out.append("answer:")
            out.extend(f"  {line}" for line in self.answer)
        if self.other:
            out.append("other:")
            out.extend(f"  {line}" for line in self.other)
        return out

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "same": self.same,
            "calls": [
                {"index": c.index, "tool": c.tool, "args": c.args, "changes": list(c.changes)}
                for c in self.calls
            ],
            "citations": list(self.citations),
            "answer": list(self.answer),
            "other": list(self.other),
        }


def _text_change(old: str, new: str) -> str:
    """Where two texts differ, with a little context: ``…ctx [-old-]{+new+} ctx…``."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    before = old[max(0, start - _CONTEXT) : start]
    after = old[len(old) - end : len(old) - end + _CONTEXT]
    lead = "…" if start > _CONTEXT else ""
    tail = "…" if end > _CONTEXT else ""
    gone, came = old[start : len(old) - end], new[start : len(new) - end]
    return _one_line(f"{lead}{before}[-{gone}-]{{+{came}+}}{after}{tail}")


def _one_line(text: str) -> str:
    return text.replace("\r", "").replace("\n", "⏎")


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _result_changes(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[str]:
    before = {r["id"]: r for r in old}
    after = {r["id"]: r for r in new}
    lines = [f"- {rid} {before[rid].get('title', '')}" for rid in before if rid not in after]
    lines += [f"+ {rid} {after[rid].get('title', '')}" for rid in after if rid not in before]
    for rid in (rid for rid in before if rid in after):
        was, now = before[rid], after[rid]
        if round(float(was.get("score", 0)), 4) != round(float(now.get("score", 0)), 4):
            lines.append(f"~ {rid} score {was.get('score')} -> {now.get('score')}")
        for name in _RESULT_FIELDS:
            if was.get(name) == now.get(name):
                continue
            if isinstance(was.get(name), str) and isinstance(now.get(name), str):
                lines.append(f"~ {rid} {name}: {_text_change(was[name], now[name])}")
            else:
                lines.append(f"~ {rid} {name}: {_show(was.get(name))} -> {_show(now.get(name))}")
    common = [rid for rid in before if rid in after]
    if common != [rid for rid in after if rid in before]:
        lines.append(f"~ order {', '.join(common)} -> {', '.join(r for r in after if r in before)}")
    return lines


def _results(envelope: Envelope) -> list[dict[str, Any]]:
    """An envelope's results as the run file holds them (the result-level diff is over JSON)."""
    return [item.model_dump(mode="json") for item in envelope.results]


def _call_diffs(recorded: list[dict[str, Any]], replayed: list[dict[str, Any]]) -> list[CallDiff]:
    old, new = read_envelopes(recorded), read_envelopes(replayed)
    diffs = []
    for index in range(max(len(old), len(new))):
        was = old[index] if index < len(old) else None
        now = new[index] if index < len(new) else None
        if was is None or now is None:  # the one that is there is only in its run
            for only, mark, where in ((now, "+", "the replay"), (was, "-", "the recording")):
                if only is not None:
                    diffs.append(CallDiff(index + 1, only.tool, only.args, (f"{mark} only in {where}",)))
            continue
        changes = [
            f"~ {name}: {_show(getattr(was, name))} -> {_show(getattr(now, name))}"
            for name in _ENVELOPE_FIELDS
            if getattr(was, name) != getattr(now, name)
        ]
        changes += _result_changes(_results(was), _results(now))
        if changes:
            diffs.append(CallDiff(index + 1, was.tool, was.args, tuple(changes)))
    return diffs


def _citation_lines(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    was = {c["source_id"]: c.get("title", "") for c in old.get("citations") or []}
    now = {c["source_id"]: c.get("title", "") for c in new.get("citations") or []}
    lines = [f"- {sid} {title}".rstrip() for sid, title in was.items() if sid not in now]
    lines += [f"+ {sid} {title}".rstrip() for sid, title in now.items() if sid not in was]
    return lines


def _contested(answer: dict[str, Any]) -> list[str]:
    points = answer.get("contested") or []
    return [" ".join(filter(None, (p.get("contradiction_id"), p.get("topic")))) for p in points]


def _other_lines(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    lines = [
        f"~ {name}: {_show(old.get(name))} -> {_show(new.get(name))}"
        for name in _ANSWER_FIELDS
        if old.get(name) != new.get(name)
    ]
    was, now = _contested(old), _contested(new)
    lines += [f"- contested {point}" for point in was if point not in now]
    lines += [f"+ contested {point}" for point in now if point not in was]
    return lines


def diff_runs(recorded: dict[str, Any], replayed: dict[str, Any]) -> RunDiff:
    """Compare two run files on tool results, citations, answer text and answer flags."""
    answer = difflib.unified_diff(
        str(recorded.get("answer", "")).splitlines(), str(replayed.get("answer", "")).splitlines(),
        "recorded", "replayed", lineterm="", n=1,
    )
    return RunDiff(
        calls=tuple(_call_diffs(recorded["record"]["envelopes"], replayed["record"]["envelopes"])),
        citations=tuple(_citation_lines(recorded, replayed)),
        answer=tuple(answer),
        other=tuple(_other_lines(recorded, replayed)),
    )
