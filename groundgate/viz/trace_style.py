"""The run page's stylesheet (inline in the page: nothing is fetched)."""

__all__ = ["CSS"]

CSS = """
:root { --ink:#1d1d1f; --dim:#6b6b76; --line:#e3e1ee; --accent:#6c5ce7; --hot:#c27c0e; --ok:#1e8e3e;
        --warn:#b26a00; --bad:#c5221f; --bg:#fbfaff; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
       color:var(--ink); background:var(--bg); }
main { max-width: 1100px; margin: 0 auto; padding: 24px 28px 64px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 10px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 0; display:inline; }
.meta { color: var(--dim); font-size: 13px; } .meta span + span::before { content: " · "; }
.card { background:#fff; border:1px solid var(--line); border-radius:10px; padding:14px 16px; margin:10px 0; }
.answer { white-space: pre-wrap; }
.badge { display:inline-block; border-radius:999px; padding:1px 9px; font-size:12px; font-weight:600;
         background:#eee; color:#333; margin-right:4px; }
.badge.ok { background:#e6f4ea; color:var(--ok); } .badge.warn { background:#fff4e0; color:var(--warn); }
.badge.bad { background:#fce8e6; color:var(--bad); } .badge.info { background:#efeafe; color:var(--accent); }
table { border-collapse: collapse; width: 100%; font-size: 13.5px; }
th, td { text-align:left; vertical-align:top; padding:6px 8px; border-bottom:1px solid var(--line); }
th { color:var(--dim); font-weight:600; font-size:12px; text-transform:uppercase; letter-spacing:.03em; }
code, .mono { font-family: ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;
              font-size: 12.5px; }
.args code { display:block; white-space:pre-wrap; word-break:break-word; }
.hit { display:flex; align-items:center; gap:6px; font-size:12px; margin:1px 0; }
.bar { height:8px; background:var(--accent); border-radius:4px; min-width:2px; }
.barbox { width:90px; background:#eeeaf9; border-radius:4px; flex:none; }
.num { text-align:right; font-variant-numeric: tabular-nums; white-space:nowrap; }
.path { display:flex; flex-wrap:wrap; gap:4px; align-items:center; margin:8px 0 4px; }
.path .step { border:1px solid var(--line); border-radius:6px; padding:1px 8px; background:#fff;
              font-size:13px; }
.path .arrow { color:var(--dim); }
.graph { overflow-x:auto; } .graph svg { max-width:100%; height:auto; }
.cols { display:grid; grid-template-columns: minmax(260px, 360px) 1fr; gap: 20px; align-items:start; }
.meter { height:10px; background:#eeeaf9; border-radius:5px; overflow:hidden; }
.meter > div { height:100%; background:var(--accent); }
.meter.tripped > div { background:var(--bad); }
.position { border-left: 3px solid var(--accent); padding: 2px 10px; margin: 6px 0; }
.empty { color: var(--dim); font-style: italic; }
summary { cursor: pointer; }
footer { margin-top: 40px; color: var(--dim); font-size: 12px; }
@media (max-width: 800px) { .cols { grid-template-columns: 1fr; } }
"""
