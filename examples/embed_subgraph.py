"""Embed groundgate in a parent graph whose state is different, and watch it work.

The parent is a claims-desk workflow over a ``Ticket``. It maps the ticket into the agent's
input (``triage``), runs the compiled agent as a subgraph node (``groundgate``), and maps
the agent's answer back out into a reply with its sources (``reply``). The agent keeps its
own store, model, bounds and policies inside the parent.

    python examples/embed_subgraph.py "What is the subsidence excess?"
    groundgate graph --graph examples/embed_subgraph.py:parent_wiring --xray --format svg -o desk.svg
"""

from __future__ import annotations

import sys
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph


class Ticket(TypedDict, total=False):
    """The parent's state: a customer ticket. Only three keys are shared with the agent."""

    subject: str
    received: str
    reply: str
    sources: list[str]
    # Shared with the agent's input and output schemas:
    question: str
    as_of: str | None
    answer: dict[str, Any]
    trace: dict[str, Any]


def triage(ticket: Ticket) -> Ticket:
    """Map in: the ticket's subject is the question, asked as of the day it was received."""
    return {"question": ticket["subject"], "as_of": ticket.get("received")}


def reply(ticket: Ticket) -> Ticket:
    """Map out: the agent's answer becomes the reply, with the sources it cites."""
    answer = ticket["answer"]
    return {
        "reply": answer["text"] + "\n-- Claims desk",
        "sources": [c["source_id"] for c in answer["citations"]],
    }


def build_parent(agent: CompiledStateGraph) -> CompiledStateGraph:
    """The desk workflow around a compiled groundgate agent."""
    desk = StateGraph(Ticket)
    desk.add_node("triage", triage)
    desk.add_node("groundgate", agent)
    desk.add_node("reply", reply)
    desk.add_edge(START, "triage")
    desk.add_edge("triage", "groundgate")
    desk.add_edge("groundgate", "reply")
    desk.add_edge("reply", END)
    return desk.compile(name="claims-desk")


def parent_wiring() -> CompiledStateGraph:
    """The workflow's wiring only (no store or model), for drawing it."""
    from groundgate.graph.build import build_graph

    return build_parent(build_graph().compile(name="groundgate"))


def main(subject: str) -> None:
    """Run one ticket over the bundled corpus with the offline model, printing each update."""
    from pathlib import Path

    from groundgate.graph.build import build_agent
    from groundgate.knowledge.default import open_store
    from groundgate.models.factory import make_chat_model

    store = open_store(None, cache_dir=Path.home() / ".cache" / "groundgate")
    desk = build_parent(build_agent(store, make_chat_model("offline")))
    final: Ticket = {}
    for namespace, update in desk.stream({"subject": subject}, subgraphs=True):
        where = "/".join(part.split(":")[0] for part in namespace) or "desk"
        for node in update:
            print(f"[{where}] {node}")
        final.update(*(u for u in update.values() if u))
    print()
    print(final.get("reply", ""))
    store.close()


if __name__ == "__main__":
    main(" ".join(sys.argv[1:]) or "What is the subsidence excess?")
