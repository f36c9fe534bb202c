"""The pure-Python layered placement behind every drawing: layers, no overlaps, routes end to end."""

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from groundgate.viz.ascii import render_ascii
from groundgate.viz.draw import agent_wiring
from groundgate.viz.layered import place
from groundgate.viz.layout import layout_graph


def _sizes(nodes, w=40.0, h=20.0):
    return {n: (w, h) for n in nodes}


def _apart(placed, sizes, gap):
    centres = list(placed.centres.items())
    for i, (a, (ax, ay)) in enumerate(centres):
        for b, (bx, by) in centres[i + 1:]:
            if ay == by:
                assert abs(ax - bx) >= (sizes[a][0] + sizes[b][0]) / 2 + gap - 1e-9, f"{a} and {b} overlap"


def test_a_chain_goes_down_one_layer_per_edge():
    nodes = ["a", "b", "c"]
    placed = place(nodes, _sizes(nodes), [("a", "b"), ("b", "c")], x_space=10, y_space=30)
    ys = [placed.centres[n][1] for n in nodes]
    assert ys == sorted(ys) and len(set(ys)) == 3
    assert [len(r) for r in placed.routes] == [2, 2]


def test_a_cycle_is_drawn_with_its_back_edge_running_from_source_to_target():
    nodes = ["start", "plan", "act", "check", "end"]
    edges = [("start", "plan"), ("plan", "act"), ("act", "check"), ("check", "plan"), ("plan", "end")]
    sizes = _sizes(nodes)
    placed = place(nodes, sizes, edges, x_space=10, y_space=30)
    y = {n: c[1] for n, c in placed.centres.items()}
    assert y["start"] < y["plan"] < y["act"] < y["check"]
    back = placed.routes[3]
    assert back[0] == placed.centres["check"] and back[-1] == placed.centres["plan"]
    assert len(back) == 3, "the back edge bends once, beside act"
    _apart(placed, sizes, 10)


def test_a_long_edge_bends_in_every_layer_it_crosses_and_nothing_overlaps():
    nodes = ["a", "b", "c", "d"]
    sizes = _sizes(nodes)
    placed = place(nodes, sizes, [("a", "b"), ("b", "c"), ("c", "d"), ("a", "d")], x_space=10, y_space=30,
                   bend_width=6)
    long = placed.routes[3]
    assert len(long) == 4 and [p[1] for p in long] == sorted(p[1] for p in long)
    for bend in long[1:-1]:
        row = [n for n, c in placed.centres.items() if c[1] == bend[1]]
        assert all(abs(placed.centres[n][0] - bend[0]) >= 20 + 3 + 10 - 1e-9 for n in row)


def test_self_loops_and_separate_components_are_placed():
    nodes = ["a", "b", "x", "y"]
    sizes = _sizes(nodes)
    placed = place(nodes, sizes, [("a", "b"), ("b", "b"), ("x", "y")], x_space=10, y_space=30)
    loop = placed.routes[1]
    assert len(loop) == 4 and all(px > placed.centres["b"][0] for px, _ in loop)
    _apart(placed, sizes, 10)


def test_the_agent_layout_keeps_the_graph_order_top_to_bottom():
    layout = layout_graph(agent_wiring().get_graph())
    y = {box.id: box.y for box in layout.boxes.values()}
    order = ["__start__", "plan", "tool_call", "bound_check", "compose", "grounding_check", "gate", "__end__"]
    assert [y[n] for n in order] == sorted(y[n] for n in order)
    for route in layout.routes:
        src, dst = layout.boxes[route.source], layout.boxes[route.target]
        assert abs(route.points[0][1] - src.y) <= src.h / 2 + 1e-6
        assert abs(route.points[-1][1] - dst.y) <= dst.h / 2 + 1e-6


class _S(TypedDict):
    n: int


def test_ascii_draws_boxes_edges_and_arrowheads():
    g = StateGraph(_S)
    g.add_node("fetch", lambda s: s)
    g.add_node("parse", lambda s: s)
    g.add_edge(START, "fetch")
    g.add_conditional_edges("fetch", lambda s: "parse", ["parse", END])
    g.add_edge("parse", END)
    art = render_ascii(g.compile().get_graph())
    lines = art.splitlines()
    assert "| fetch |" in art and "| parse |" in art and "| start |" in art and "| end |" in art
    row = {name: next(i for i, line in enumerate(lines) if f"| {name} |" in line)
           for name in ("start", "fetch", "parse", "end")}
    assert row["start"] < row["fetch"] < row["parse"] < row["end"]
    assert "*" in art and "." in art, "solid and conditional edges are told apart"
    assert art.count("v") >= 4, "every edge ends in an arrowhead"
