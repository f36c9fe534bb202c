"""Drawing the agent graph and rendering a saved run, offline (no web service, no CDN).

- ``draw``: ``draw_graph(graph, fmt)`` as Mermaid text, ASCII, SVG or PNG.
- ``layered``: a layered (Sugiyama-style) placement in pure Python, shared by every renderer.
- ``layout``: that placement in pixels, with subgraph frames, for the SVG and PNG renderers.
- ``ascii``: the graph as ASCII art.
- ``svg`` / ``png``: the renderers (pure Python; PNG needs Pillow, ``groundgate[draw]``).
- ``trace_html``: ``render_run(run)``, a self-contained HTML page for one run.
"""
