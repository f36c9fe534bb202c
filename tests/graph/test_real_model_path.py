"""The real-model path: a lazy, weak, failing or slow model cannot skip retrieval or break a run."""

import json
import time

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from groundgate.graph.build import build_agent
from groundgate.graph.context import Bounds
from groundgate.models.call import tool_calls_in_text
from groundgate.nodes.prompt import SYSTEM_PROMPT, question_message
from groundgate.pipeline.build import build_pipeline
from groundgate.reading.transcript import read_transcript
from groundgate.testing.fake import ScriptedChatModel, answer, call
from groundgate.tools.contract import contract_chars, tool_schemas
from groundgate.tools.registry import ALL_TOOLS

Q = "What is the subsidence excess?"
ANSWER = "The subsidence excess is GBP 1,000 unless the schedule shows a higher amount. [INS-SYN-028]"
MEMORY = "Subsidence is the downward movement of the ground, often caused by clay shrinkage in dry summers."


def _steps(out, kind):
    return [s for s in out["trace"]["steps"] if s["kind"] == kind]


def test_the_first_plan_call_asks_the_provider_to_force_a_tool_call(bundled_store):
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess"})]),
        answer("The subsidence excess is GBP 1,000. [INS-SYN-028]"),
    ])
    build_agent(bundled_store, model).invoke({"question": Q})
    assert model.tool_choices[0] == "required"
    assert model.tool_choices[1] is None, "later rounds leave the choice to the model"


def test_tools_that_start_from_an_id_are_offered_once_a_tool_has_returned_one(bundled_store):
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess"})]),
        answer("The subsidence excess is GBP 1,000. [INS-SYN-028]"),
    ])
    build_agent(bundled_store, model).invoke({"question": Q})
    first, second = model.bindings[0], model.bindings[1]
    assert {"search_evidence", "search_knowledge", "resolve_entity", "list_contradictions"} <= set(first)
    assert not {"traverse", "timeline", "diff", "get_source"} & set(first), "no id is known before any result"
    assert sorted(second) == sorted(ALL_TOOLS), "with results in hand every tool is offered"
    assert second[: len(first)] == first, "the first call's tools open every later prompt (a cached prefix)"


def test_a_model_that_answers_from_memory_gets_a_fixed_first_round_and_its_text_is_never_shown(bundled_store):
    model = ScriptedChatModel(script=[
        answer(MEMORY), answer(ANSWER),
    ])
    out = build_agent(bundled_store, model).invoke({"question": Q})
    tools = [s["tool"] for s in _steps(out, "tool")]
    assert tools[:1] == ["search_evidence"], "retrieval ran although the model made no call"
    assert _steps(out, "model")[0]["fallback"] == "first_round"
    second_prompt = model.calls[1]
    assert any(isinstance(m, ToolMessage) for m in second_prompt), "the model planned from the results"
    text = out["answer"]["text"]
    assert "clay shrinkage" not in text
    assert "1,000" in text, "the answer comes from what the first round found"


@pytest.mark.parametrize("giving_up", [
    "INSUFFICIENT: the passages do not give the excess.",
    "[DOC-1]",  # the small model's echo of the prompt's citation example: no answer at all
])
def test_a_refusal_after_one_round_gets_the_planner_s_second_round_before_it_is_accepted(
    bundled_store, giving_up
):
    # A weak model searches once, reads a passage that does not state the excess and gives
    # up; the question names a product whose wording states it. The run looks there first.
    question = "What is the escape of water excess on a Harbourline Home Plus policy?"
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[
            call("resolve_entity", {"mention": "Harbourline Home Plus"}),
            call("search_evidence", {"query": "claims handler approval leak detection"}),
        ]),
        answer(giving_up),
        answer("The escape of water excess is GBP 500 for each claim. [INS-SYN-002]"),
    ])
    out = build_agent(bundled_store, model).invoke({"question": question})
    plans = _steps(out, "model")
    assert [p.get("fallback") for p in plans] == [None, "second_round", None]
    assert len(model.calls) == 3, "the model was asked again after the second round"
    later = {s["tool"] for s in _steps(out, "tool") if s["round"] == 2}
    assert later & {"traverse", "get_source"}, "the second round reads what the question points to"
    assert out["answer"]["answered"] and "GBP 500" in out["answer"]["text"]


def test_a_refusal_after_two_rounds_stands(bundled_store):
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "bicycle theft limit"})]),
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "bicycle sub-limit"})]),
        answer("INSUFFICIENT: no passage gives a bicycle limit."),
    ])
    out = build_agent(bundled_store, model).invoke({"question": "What is the bicycle theft limit?"})
    assert [p.get("fallback") for p in _steps(out, "model")] == [None, None, None]
    assert out["answer"]["answered"] is False


def test_an_insufficient_reason_in_the_model_s_own_words_is_not_shown(bundled_store):
    invented = "INSUFFICIENT: it depends on the geology of the Thames basin, which I know well."
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "bicycle theft limit"})]),
        answer(invented),
    ])
    out = build_agent(bundled_store, model).invoke({"question": "What is the bicycle theft limit?"})
    assert "Thames" not in out["answer"]["text"]
    assert "geology" not in json.dumps(out["answer"]["insufficient"])
    assert out["answer"]["answered"] is False and out["answer"]["insufficient"]
    assert "Thames" in out["answer"]["extras"]["draft_text"], "the model's words stay in the trace"


def test_a_tool_call_written_as_json_in_the_text_is_a_tool_call(bundled_store):
    call_json = '{"name": "search_evidence", "arguments": {"query": "subsidence excess"}}'
    prose = f"I will search.\n```json\n{call_json}\n```"
    model = ScriptedChatModel(script=[answer(prose), answer(ANSWER)])
    out = build_agent(bundled_store, model).invoke({"question": Q})
    first = _steps(out, "model")[0]
    assert first.get("calls_from_text") is True and "fallback" not in first
    assert _steps(out, "tool")[0]["args"]["query"] == "subsidence excess"


def test_text_tool_calls_take_only_bound_tools_with_object_arguments():
    names = ["search_evidence", "get_source"]
    found = tool_calls_in_text(
        '[{"name": "get_source", "arguments": "{\\"source_id\\": \\"D-1\\"}"},'
        ' {"name": "rm_rf", "arguments": {}},'
        ' {"name": "search_evidence", "arguments": [1]}] and {"function": {"name": "search_evidence",'
        ' "parameters": {"query": "x y"}}}', names)
    assert [(c["name"], c["args"]) for c in found] == [("get_source", {"source_id": "D-1"}),
                                                       ("search_evidence", {"query": "x y"})]
    assert tool_calls_in_text("The excess is {not json} GBP 1,000.", names) == []


def test_a_model_that_fails_on_its_first_call_still_gets_an_answer_that_says_so(bundled_store):
    model = ScriptedChatModel(script=[ConnectionError("endpoint down")])
    out = build_agent(bundled_store, model).invoke({"question": Q})  # no exception out of invoke
    assert "1,000" in out["answer"]["text"], "the fixed first round's results are kept"
    assert "failed" in out["answer"]["text"] and "endpoint down" in out["answer"]["text"]
    assert out["trace"]["totals"]["model_errors"] == 1
    assert len(model.calls) == 1, "a failed model is not asked again"


def test_a_model_that_fails_after_a_round_keeps_the_round(bundled_store):
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess"})]),
        RuntimeError("HTTP 503 from the provider"),
    ])
    out = build_agent(bundled_store, model).invoke({"question": Q})
    assert out["answer"]["extras"]["model_error"]["error"] == "RuntimeError: HTTP 503 from the provider"
    assert "1,000" in out["answer"]["text"]
    assert out["trace"]["totals"]["rounds"] == 1


def test_the_wall_clock_is_enforced_around_a_model_call(bundled_store):
    def slow(messages):
        time.sleep(1.5)
        return AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess"})])

    model = ScriptedChatModel(script=[slow])
    started = time.perf_counter()
    out = build_agent(bundled_store, model, bounds=Bounds(wall_clock_s=0.3)).invoke({"question": Q})
    assert time.perf_counter() - started < 1.4, "the run did not wait for the slow call"
    assert out["trace"]["bound_tripped"]["bound"] == "wall_clock"
    assert "wall_clock bound" in out["answer"]["text"]


def test_lane_a_with_a_failing_answer_model_answers_extractively_and_says_so(bundled_store):
    model = ScriptedChatModel(script=[TimeoutError("read timed out")])
    out = build_pipeline(bundled_store, model).invoke({"question": Q})
    assert "1,000" in out["answer"]["text"] and "read timed out" in out["answer"]["text"]
    assert out["answer"]["extras"]["draft_source"] == "extractive"


def test_a_bad_tool_call_gets_one_short_corrective_message(bundled_store):
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"q": "subsidence"})]),
        answer("INSUFFICIENT: nothing"),
    ])
    build_agent(bundled_store, model).invoke({"question": Q})
    (reply,) = [m for m in model.calls[1] if isinstance(m, ToolMessage)]
    error = json.loads(reply.content)["error"]
    assert "query: Field required" in error and "search_evidence(query: string" in error
    assert len(error) < 300


def test_the_contract_fits_a_small_model():
    chars = contract_chars(ALL_TOOLS, SYSTEM_PROMPT)
    assert chars // 4 <= 1200, f"the contract is ~{chars // 4} tokens"
    text = json.dumps(list(tool_schemas(ALL_TOOLS)))
    assert '"title"' not in text and '"default"' not in text and "anyOf" not in text
    assert question_message("Why?", None) == "Question: Why?"
    assert question_message("Why?", "2026-01-31").endswith("As of: 2026-01-31")


def test_a_first_round_that_found_nothing_is_followed_by_the_fixed_round_before_any_answer(bundled_store):
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess",
                                                                   "kinds": ["no-such-kind"]})]),
        answer(MEMORY),
        answer(ANSWER),
    ])
    out = build_agent(bundled_store, model).invoke({"question": Q})
    first, second = _steps(out, "tool")[:2]
    assert first["results"] == 0 and second["tool"] == "search_evidence" and second["results"] > 0
    assert [s.get("fallback") for s in _steps(out, "model")] == [None, "first_round", None]
    assert "clay shrinkage" not in out["answer"]["text"] and "1,000" in out["answer"]["text"]


def test_a_filter_that_finds_nothing_says_which_kinds_match(bundled_store):
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess",
                                                                   "kinds": ["document"]})]),
        answer(ANSWER),
    ])
    build_agent(bundled_store, model).invoke({"question": Q})
    (reply,) = [m for m in model.calls[1] if isinstance(m, ToolMessage)]
    assert "without that filter, kinds" in json.loads(reply.content)["reason"]


def test_a_round_of_200_calls_runs_the_cap_and_says_so(bundled_store):
    calls = [call("search_evidence", {"query": f"subsidence {i}"}, id=f"c{i}") for i in range(200)]
    flood = AIMessage(content="", tool_calls=calls)
    model = ScriptedChatModel(script=[flood, answer(ANSWER)])
    out = build_agent(bundled_store, model).invoke({"question": Q})
    assert out["trace"]["totals"]["tool_calls"] == 16
    second_prompt = json.dumps([m.model_dump() for m in model.calls[1]], default=str)
    assert len(second_prompt) < 60_000, "the next prompt carries only the calls that ran"
    assert any("first 16 of 200 tool calls" in n for n in out["answer"]["insufficient"])


def test_a_huge_draft_is_cut_and_says_so(bundled_store):
    huge = " ".join(f"The subsidence excess is GBP 1,000 in case {i}. [INS-SYN-028]" for i in range(45_000))
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess"})]),
        answer(huge),
    ])
    out = build_agent(bundled_store, model).invoke({"question": Q})
    assert len(out["answer"]["text"]) < 20_000 and len(json.dumps(out)) < 200_000
    assert any("the draft was cut" in n for n in out["answer"]["insufficient"])


def test_an_envelope_too_big_for_the_model_leaves_out_its_lowest_results_and_says_so():
    from groundgate.tools.envelope import ENVELOPE_CHARS_FOR_MODEL, Envelope, ResultItem

    items = [ResultItem(id=f"D-{i}", title="t", kind="k", snippet="x" * 350, score=1 - i / 100)
             for i in range(60)]
    body = json.loads(Envelope.of("search_evidence", items, args={}, empty_reason="").for_model())
    assert len(json.dumps(body)) <= ENVELOPE_CHARS_FOR_MODEL
    assert body["truncated"] is True and body["omitted"] == 60 - len(body["results"])
    assert [r["id"] for r in body["results"]] == [f"D-{i}" for i in range(len(body["results"]))]


def test_a_model_draft_with_no_supported_sentence_gives_way_to_the_reader_of_the_same_trace(bundled_store):
    # what the local open model did on this question: the right search, then its own words
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": Q.rstrip("?"), "top_k": 1})]),
        answer("You pay roughly a thousand for ground movement claims, as is usual in the market."),
    ])
    out = build_agent(bundled_store, model).invoke({"question": Q})
    ans = out["answer"]
    assert ans["answered"] and "GBP 1,000" in ans["text"] and "roughly a thousand" not in ans["text"]
    assert [c["source_id"] for c in ans["citations"]] == ["INS-SYN-028"]
    assert ans["extras"]["model_draft_unsupported"] is True
    assert any("read from those passages" in n for n in ans["policy_notes"])


def test_when_the_reader_finds_no_answer_either_the_refusal_gives_its_reason(bundled_store):
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "CLM-1203 total amount paid"})]),
        answer("The claim was paid in full, a generous amount, as everyone knows."),
    ])
    question = "What was the total amount paid on CLM-1203?"
    out = build_agent(bundled_store, model).invoke({"question": question})
    ans = out["answer"]
    assert not ans["answered"] and "generous" not in ans["text"]
    assert ans["insufficient"] and ans["extras"]["model_draft_unsupported"] is True


def test_a_model_that_refuses_what_it_was_handed_is_settled_by_the_reader(bundled_store):
    # the local open model again: ten hits with the answer first, then "INSUFFICIENT"
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": Q.rstrip("?"), "top_k": 10})]),
        answer("INSUFFICIENT: the passages do not say."),
    ])
    ans = build_agent(bundled_store, model).invoke({"question": Q})["answer"]
    assert ans["answered"] and "GBP 1,000" in ans["text"] and "INS-SYN-028" in ans["text"]
    assert ans["extras"]["model_said_insufficient"] is True and ans["extras"]["draft_source"] == "extractive"
    assert any("the model found no answer" in n for n in ans["policy_notes"])
    lane_a = ScriptedChatModel(script=[answer("INSUFFICIENT: the passages do not say.")])
    piped = build_pipeline(bundled_store, lane_a).invoke({"question": Q})["answer"]
    assert piped["answered"] and "GBP 1,000" in piped["text"]


def test_a_passage_a_model_was_already_sent_is_listed_by_id_only_in_a_later_round(bundled_store):
    # Every call carries every earlier result again: a passage sent twice is paid for twice.
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess"})]),
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess GBP"})]),
        answer("The subsidence excess is GBP 1,000. [INS-SYN-028]"),
    ])
    out = build_agent(bundled_store, model).invoke({"question": Q})
    tool_messages = [m for m in model.calls[2] if isinstance(m, ToolMessage)]
    first, second = (json.loads(m.content)["results"] for m in tool_messages)
    first_ids = {r["id"] for r in first}
    repeated = [r for r in second if r["id"] in first_ids]
    assert repeated, "the second search finds some of the same passages"
    assert all(r == {"id": r["id"], "sent": True} for r in repeated)
    assert all("text" in r for r in second if r["id"] not in first_ids), "new passages are sent in full"
    # the application keeps every result whole: the trace and the answer are unchanged by it
    second_step = [s for s in _steps(out, "tool")][1]
    assert {h["id"] for h in second_step["hits"]} >= {r["id"] for r in repeated}
    assert "1,000" in out["answer"]["text"] and "INS-SYN-028" in out["answer"]["text"]


def test_a_result_cut_for_size_does_not_count_as_sent():
    from groundgate.tools.envelope import Envelope, ResultItem

    items = [ResultItem(id=f"D-{i}", title="t", kind="k", snippet="x" * 350, score=1 - i / 100)
             for i in range(60)]
    envelope = Envelope.of("search_evidence", items, args={}, empty_reason="")
    shown = {r["id"] for r in json.loads(envelope.for_model())["results"]}
    assert envelope.sent_ids() == shown and len(shown) < 60


def test_a_walked_node_is_described_once_however_many_paths_reach_it(bundled_store):
    # Two walks from neighbouring entities reach the same concepts by several paths; each
    # node's title and text is news once, every further path to it is the path alone.
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[
            call("traverse", {"entity_id": "claim:CLM-1108", "hops": 2}),
            call("traverse", {"entity_id": "zone:H3", "hops": 2}),
        ]),
        answer("The claim is in zone H3. [INS-SYN-021]"),
    ])
    out = build_agent(bundled_store, model).invoke({"question": Q})
    sent = [json.loads(m.content) for m in model.calls[1] if isinstance(m, ToolMessage)]
    assert [body["from"] for body in sent] == ["claim:CLM-1108", "zone:H3"], "each walk names its start once"
    # what a reader makes of the messages: every path whole again, with its score
    walks = [step.results for step in read_transcript(model.calls[1]).steps]
    described: dict[str, int] = {}
    for results in walks:
        for r in results:
            assert "path" in r, "every walked result keeps its path"
            if "title" in r:
                described[r["id"]] = described.get(r["id"], 0) + 1
                far = len(r["path"].split()) > 3  # two hops or more: node edge node edge node
                assert ("text" in r) == (not far), "a node two hops away is named, not quoted"
            else:
                assert r["id"] in described, "a node is described before a path lists it by id"
                assert set(r) == {"id", "path", "score"}
    assert described and all(n == 1 for n in described.values())
    assert sum("title" not in r for results in walks for r in results) > 0, "some node is reached twice"
    # the trace keeps every path whole
    hits = [h["id"] for s in _steps(out, "tool") for h in s["hits"]]
    assert len(hits) == sum(len(results) for results in walks)


def test_a_document_two_hops_away_is_named_and_one_hop_away_is_quoted():
    # Two hops through a shared concept reach many documents whose openings rarely bear on
    # the question; the model reads one it needs with get_source. One hop is a bridge.
    from groundgate.tools.envelope import Envelope, ResultItem

    def doc(i: int, path: tuple[str, ...]) -> ResultItem:
        return ResultItem(id=f"D-{i}", title=f"Doc {i}", kind="document", snippet="Opening text.",
                          path=path, score=1.0)

    walk = Envelope.of("traverse", [
        doc(1, ("A", "-[mentions]->", "D-1")),
        doc(2, ("A", "-[about]->", "concept:x", "<-[mentions]-", "D-2")),
    ], args={}, empty_reason="")
    near, far = json.loads(walk.for_model(walked=frozenset()))["results"]
    assert near["text"] == "Opening text." and near["title"] == "Doc 1"
    assert "text" not in far and far["title"] == "Doc 2"
    assert far["via"] == "-[about]-> concept:x <-[mentions]-"


def test_a_walk_in_a_conversation_names_its_start_once_and_reads_back_whole():
    # Every path of a walk starts at the walked entity and ends at the result's id, and its
    # score is one over its hops: sent once ("from"), the steps between ("via") are the news.
    from groundgate.tools.envelope import Envelope, ResultItem

    def node(i: int, path: tuple[str, ...], score: float) -> ResultItem:
        return ResultItem(id=f"concept:{i}", title=f"Concept {i}", kind="concept", snippet="About it.",
                          path=path, score=score)

    walk = Envelope.of("traverse", [
        node(1, ("claim:A", "-[covers]->", "concept:1"), 1.0),
        node(2, ("claim:A", "-[covers]->", "concept:1", "-[part_of]->", "concept:2"), 0.5),
        node(3, ("claim:A", "-[covers]->", "concept:3"), 0.7),  # a score the hops do not give
    ], args={"entity_id": "claim:A"}, empty_reason="")
    lean = walk.for_model(walked=frozenset())
    body = json.loads(lean)
    assert body["from"] == "claim:A"
    assert [r["via"] for r in body["results"]] == ["-[covers]->", "-[covers]-> concept:1 -[part_of]->",
                                                   "-[covers]->"]
    assert [r.get("score") for r in body["results"]] == [None, None, 0.7]
    assert len(lean) < len(walk.for_model()), "shorter than the walk read on its own"
    messages = [HumanMessage("Question: what does A cover?"),
                AIMessage(content="", tool_calls=[call("traverse", {"entity_id": "claim:A"}, id="t1")]),
                ToolMessage(content=lean, tool_call_id="t1", name="traverse")]
    read = read_transcript(messages).steps[0].results
    whole = json.loads(walk.for_model())["results"]
    def fields(results):
        return [(r["id"], r["path"], r["score"]) for r in results]

    assert fields(read) == fields(whole)


def test_a_walk_read_on_its_own_describes_every_node(bundled_store):
    # Lane A and MCP read one result at a time: there is no earlier path to point back to.
    from groundgate.pipeline.retrieve import full_view
    from groundgate.tools.base import ToolDeps
    from groundgate.tools.registry import execute

    walk = execute("traverse", {"entity_id": "claim:CLM-1108", "hops": 2},
                   ToolDeps(store=bundled_store, embedder=None, default_as_of=None))
    ids = [item.id for item in walk.results]
    assert len(ids) > len(set(ids)), "the walk reaches some node twice"
    shown, whole = json.loads(walk.for_model()), full_view(walk)
    assert all({"title", "kind"} <= set(r) for r in shown["results"])
    near = [r for r in shown["results"] if len(r["path"].split()) <= 3]
    assert near and all("text" in r for r in near)
    assert all("text" not in r for r in shown["results"] if r not in near), "two hops away: named, not quoted"
    # lane A reads the reached documents' openings too: it has no further call to read them
    assert all({"title", "kind", "text"} <= set(r) for r in whole["results"])


def test_results_the_model_was_not_sent_for_size_are_said_in_the_answer(bundled_store):
    from groundgate.tools.envelope import Envelope, ResultItem
    from groundgate.tools.registry import execute

    def run_tool(name, args, deps, *, allowed, call_id=""):
        if name != "search_evidence":
            return execute(name, args, deps, allowed=allowed, call_id=call_id)
        items = [ResultItem(id=f"INS-SYN-028#{i}", title="Subsidence", kind="claims_guidance",
                            snippet="The subsidence excess is GBP 1,000. " + "More guidance. " * 20,
                            score=1 - i / 100, source_ids=("INS-SYN-028",)) for i in range(60)]
        return Envelope.of(name, items, args=args, empty_reason="").model_copy(update={"call_id": call_id})

    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess"})]),
        answer("The subsidence excess is GBP 1,000. [INS-SYN-028]"),
    ])
    out = build_agent(bundled_store, model, run_tool=run_tool).invoke({"question": Q})
    step = [s for s in _steps(out, "tool")][0]
    assert 0 < step["omitted"] < 60
    said = f"{step['omitted']} of 60 results of search_evidence (round 1) were not read"
    assert said in out["answer"]["text"]


def test_a_heading_that_repeats_the_document_title_is_sent_once():
    # Without front matter a document's title is its first heading: "Hugo Brandt › Hugo Brandt"
    # would pay for the name twice with every passage. A heading that says more stays.
    from groundgate.tools.envelope import Envelope, ResultItem

    def passage(i: int, title: str) -> ResultItem:
        return ResultItem(id=f"hugo-brandt#{i}", title=title, kind="document", snippet="He coaches.",
                          source_ids=("hugo-brandt",))

    search = Envelope.of("search_evidence", [
        passage(0, "Hugo Brandt › Hugo Brandt"),
        passage(1, "Hugo Brandt › Hugo Brandt > Career"),
        passage(2, "Meadowgate Library: conditions of use › Conditions of use"),
    ], args={}, empty_reason="")
    shown = json.loads(search.for_model())["results"]
    assert [r["title"] for r in shown] == [
        "Hugo Brandt", "Hugo Brandt › Career", "Meadowgate Library: conditions of use › Conditions of use",
    ]
    assert all("sources" not in r for r in shown), "a passage's own document is in its id"
    # ...and whoever reads the conversation back still gets each passage's document
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    from groundgate.reading.transcript import read_transcript

    transcript = read_transcript([
        HumanMessage("Question: Who does Hugo Brandt coach?"),
        AIMessage(content="", tool_calls=[{"name": "search_evidence", "args": {"query": "x"}, "id": "c1"}]),
        ToolMessage(search.for_model(), tool_call_id="c1"),
    ])
    assert [r["sources"] for r in transcript.steps[0].results] == [["hugo-brandt"]] * 3


def test_a_passage_of_a_titled_document_is_sent_with_its_headings_and_read_back_whole():
    # In a conversation a document's title is news once: its further passages, in the same
    # result or a later one, carry their headings; a reader of the messages gets it back.
    from groundgate.tools.envelope import Envelope, ResultItem

    def passage(doc: str, n: int, heading: str) -> ResultItem:
        return ResultItem(id=f"{doc}#{n}", title=f"Title of {doc} › {heading}", kind="guide",
                          snippet=f"Text {doc} {n}.", source_ids=(doc,))

    first = Envelope.of("search_evidence", [passage("D", 0, "Roofs"), passage("E", 0, "Walls"),
                                            passage("D", 1, "Excess")], args={"query": "q"}, empty_reason="")
    shown_first = first.for_model(frozenset(), frozenset())
    later = Envelope.of("search_evidence", [passage("D", 2, "Surge"), passage("F", 0, "Floors")],
                        args={"query": "q"}, empty_reason="")
    shown_later = later.for_model(first.sent_ids(frozenset(), frozenset()), frozenset())
    titles = [r["title"] for r in json.loads(shown_first)["results"] + json.loads(shown_later)["results"]]
    assert titles == ["Title of D › Roofs", "Title of E › Walls", "› Excess", "› Surge",
                      "Title of F › Floors"]
    # read on its own (lane A, MCP) every passage is titled in full
    assert [r["title"] for r in json.loads(first.for_model())["results"]][2] == "Title of D › Excess"
    messages = [
        HumanMessage("Question: q"),
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "q"}) | {"id": "a"}]),
        ToolMessage(content=shown_first, tool_call_id="a"),
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "q"}) | {"id": "b"}]),
        ToolMessage(content=shown_later, tool_call_id="b"),
    ]
    read = [r["title"] for step in read_transcript(messages).steps for r in step.results]
    assert read == ["Title of D › Roofs", "Title of E › Walls", "Title of D › Excess", "Title of D › Surge",
                    "Title of F › Floors"]


def test_a_document_whose_first_passage_the_model_has_is_named_without_its_opening():
    from groundgate.tools.envelope import Envelope, ResultItem

    found = Envelope.of("search_knowledge", [
        ResultItem(id="D", title="Doc D", kind="document", snippet="Opening of D."),
        ResultItem(id="E", title="Doc E", kind="document", snippet="Opening of E."),
    ], args={"query": "q"}, empty_reason="")
    d, e = json.loads(found.for_model(frozenset({"D#0"}), frozenset()))["results"]
    assert "text" not in d and d["title"] == "Doc D"
    assert e["text"] == "Opening of E."
