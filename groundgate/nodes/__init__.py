"""The graph's nodes, one module each.

plan, tool_call, bound_check, compose, grounding_check, gate.
"""
