"""Attribute names: the OpenTelemetry GenAI semantic conventions, and groundgate's own.

The GenAI conventions are still in development upstream; the names are spelled out here
(rather than imported from ``opentelemetry-semantic-conventions``) so that a rename
upstream is one reviewed edit, not a silent change in what the spans carry.
"""

from __future__ import annotations

__all__ = [
    "AGENT_NAME",
    "DATA_SOURCE_ID",
    "ERROR_TYPE",
    "GG_ANSWERED",
    "GG_AS_OF",
    "GG_BOUND_TRIPPED",
    "GG_CONTESTED",
    "GG_DIGEST",
    "GG_DOCUMENT_IDS",
    "GG_ERROR",
    "GG_INSUFFICIENT",
    "GG_INSUFFICIENT_FLAGS",
    "GG_NODE",
    "GG_QUESTION",
    "GG_REASON",
    "GG_REQUESTED_TOOLS",
    "GG_RESULT_COUNT",
    "GG_ROUND",
    "GG_ROUNDS",
    "GG_SCORES",
    "GG_SOURCE_IDS",
    "GG_STEP",
    "GG_TOKENS",
    "GG_TOOL_CALLS",
    "OPERATION_NAME",
    "PROVIDER_NAME",
    "REQUEST_MODEL",
    "REQUEST_TOP_K",
    "RESPONSE_FINISH_REASONS",
    "RESPONSE_MODEL",
    "RETRIEVAL_DOCUMENTS",
    "RETRIEVAL_QUERY_TEXT",
    "TOOL_CALL_ARGUMENTS",
    "TOOL_CALL_ID",
    "TOOL_CALL_RESULT",
    "TOOL_DESCRIPTION",
    "TOOL_NAME",
    "TOOL_TYPE",
    "USAGE_INPUT_TOKENS",
    "USAGE_OUTPUT_TOKENS",
]

OPERATION_NAME = "gen_ai.operation.name"
"""``invoke_agent``, ``chat``, ``execute_tool`` or ``retrieval``."""
PROVIDER_NAME = "gen_ai.provider.name"
AGENT_NAME = "gen_ai.agent.name"
REQUEST_MODEL = "gen_ai.request.model"
REQUEST_TOP_K = "gen_ai.request.top_k"
RESPONSE_MODEL = "gen_ai.response.model"
RESPONSE_FINISH_REASONS = "gen_ai.response.finish_reasons"
USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens"
USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens"
TOOL_NAME = "gen_ai.tool.name"
TOOL_TYPE = "gen_ai.tool.type"
TOOL_DESCRIPTION = "gen_ai.tool.description"
TOOL_CALL_ID = "gen_ai.tool.call.id"
TOOL_CALL_ARGUMENTS = "gen_ai.tool.call.arguments"
"""JSON of the arguments; recorded only when the telemetry records content."""
TOOL_CALL_RESULT = "gen_ai.tool.call.result"
"""What the model saw of the result; recorded only when the telemetry records content."""
DATA_SOURCE_ID = "gen_ai.data_source.id"
RETRIEVAL_QUERY_TEXT = "gen_ai.retrieval.query.text"
RETRIEVAL_DOCUMENTS = "gen_ai.retrieval.documents"
"""JSON list of ``{"id", "score"}``, best first."""
ERROR_TYPE = "error.type"

# groundgate's own attributes: what the envelope and the run say beyond the conventions.
GG_NODE = "groundgate.node"
GG_STEP = "groundgate.step"
GG_ROUND = "groundgate.round"
GG_DIGEST = "groundgate.tool.result.digest"
GG_RESULT_COUNT = "groundgate.tool.result.count"
GG_SOURCE_IDS = "groundgate.tool.source_ids"
GG_INSUFFICIENT = "groundgate.tool.insufficient"
GG_REASON = "groundgate.tool.insufficient.reason"
GG_ERROR = "groundgate.tool.error"
GG_DOCUMENT_IDS = "groundgate.retrieval.document_ids"
GG_SCORES = "groundgate.retrieval.scores"
GG_QUESTION = "groundgate.question"
GG_AS_OF = "groundgate.as_of"
GG_ANSWERED = "groundgate.answered"
GG_ROUNDS = "groundgate.rounds"
GG_TOOL_CALLS = "groundgate.tool_calls"
GG_TOKENS = "groundgate.tokens"
GG_BOUND_TRIPPED = "groundgate.bound_tripped"
GG_CONTESTED = "groundgate.contested"
GG_INSUFFICIENT_FLAGS = "groundgate.insufficient_flags"
GG_REQUESTED_TOOLS = "groundgate.requested_tools"
