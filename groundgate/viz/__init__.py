"""Drawing the agent graph and rendering a saved run, offline (no web service, no CDN).

- ``draw``: ``draw_graph(graph, fmt)`` as Mermaid text, ASCII, SVG or PNG.
- ``layout``: a layered layout (grandalf's Sugiyama) shared by the SVG and PNG renderers.
- ``svg`` / ``png``: the renderers (pure Python; PNG needs Pillow, ``groundgate[draw]``).
- ``trace_html``: ``render_run(run)``, a self-contained HTML page for one run.
"""
