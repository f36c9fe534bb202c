"""OpenTelemetry spans for groundgate runs, following the GenAI semantic conventions.

```
invoke_agent groundgate                      one per run (joins the caller's trace)
 ├── plan                                    one span per node
 │    └── chat {model}                       model, input/output tokens
 ├── tool_call
 │    ├── execute_tool search_evidence       name, call id, arguments, digest, count, insufficient, error
 │    │    └── retrieval evidence            document ids and scores
 │    └── execute_tool traverse              (parallel calls: siblings under the node)
 ├── bound_check
 ├── ... compose, grounding_check, gate
```

``build_agent(..., telemetry=make_telemetry("otlp"))``; without ``telemetry`` nothing is
hooked in. Needs ``groundgate[otel]``.
"""

from groundgate.telemetry.setup import EXPORTERS, Exporter, Telemetry, make_telemetry

__all__ = ["EXPORTERS", "Exporter", "Telemetry", "make_telemetry"]
