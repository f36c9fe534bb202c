"""`groundgate graph` draws the agent offline in four formats."""

import io
from pathlib import Path
from xml.etree import ElementTree

from PIL import Image
from typer.testing import CliRunner

from groundgate.cli import app
from groundgate.viz.draw import agent_wiring, draw_graph
from groundgate.viz.layout import layout_graph

SNAPSHOT = Path(__file__).parents[1] / "graph" / "agent.mmd"
NODES = ["plan", "tool_call", "bound_check", "compose", "grounding_check", "gate"]
SVG = {"s": "http://www.w3.org/2000/svg"}


def test_mermaid_is_the_committed_wiring_snapshot():
    result = CliRunner().invoke(app, ["graph"])
    assert result.exit_code == 0
    assert result.output.strip() == SNAPSHOT.read_text().strip()


def test_ascii_shows_every_node():
    result = CliRunner().invoke(app, ["graph", "--format", "ascii"])
    assert result.exit_code == 0
    assert all(f"| {node} |" in result.output for node in NODES)


def test_svg_has_every_node_and_edge_and_marks_conditional_edges_dashed(tmp_path):
    out = tmp_path / "agent.svg"
    result = CliRunner().invoke(app, ["graph", "-f", "svg", "-o", str(out)])
    assert result.exit_code == 0, result.output
    root = ElementTree.parse(out).getroot()
    nodes = [g.get("data-node") for g in root.iterfind(".//s:g[@class='node']", SVG)]
    assert sorted(nodes) == sorted(["__start__", "__end__", *NODES])
    labels = {t.text for t in root.iterfind(".//s:g[@class='node']/s:text", SVG)}
    assert set(NODES) <= labels
    edges = {g.get("data-edge"): g for g in root.iterfind(".//s:g[@class='edge']", SVG)}
    assert len(edges) == len(agent_wiring().get_graph().edges) == 9
    dashed = {name for name, g in edges.items() if g.find("s:polyline", SVG).get("stroke-dasharray")}
    assert dashed == {"plan->tool_call", "plan->compose", "bound_check->plan", "bound_check->compose"}
    assert "http" not in out.read_text().replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_boxes_do_not_overlap_and_edges_stay_on_the_canvas():
    layout = layout_graph(agent_wiring().get_graph())
    boxes = list(layout.boxes.values())
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart_x = abs(a.x - b.x) >= (a.w + b.w) / 2
            apart_y = abs(a.y - b.y) >= (a.h + b.h) / 2
            assert apart_x or apart_y, f"{a.id} overlaps {b.id}"
    for route in layout.routes:
        for x, y in route.points:
            assert 0 <= x <= layout.width and 0 <= y <= layout.height


def test_png_is_a_real_image_drawn_locally(tmp_path):
    png = draw_graph(agent_wiring(), "png")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width > 200 and image.height > 500
    colours = {colour for _, colour in image.convert("RGB").getcolors(maxcolors=1 << 20)}
    assert (0xF2, 0xF0, 0xFF) in colours  # the node fill: boxes were drawn
    result = CliRunner().invoke(app, ["graph", "-f", "png", "-o", str(tmp_path / "agent.png")])
    assert result.exit_code == 0 and (tmp_path / "agent.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_unknown_format_or_graph_is_a_clear_error():
    runner = CliRunner()
    bad = runner.invoke(app, ["graph", "-f", "dot"])
    assert bad.exit_code == 2 and "mermaid, ascii, svg, png" in bad.output
    missing = runner.invoke(app, ["graph", "--graph", "no_such_module_xyz:graph"])
    assert missing.exit_code == 2 and "cannot import no_such_module_xyz" in missing.output
