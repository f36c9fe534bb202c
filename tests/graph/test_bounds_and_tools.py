
from langchain_core.messages import AIMessage

from groundgate.graph.build import build_agent
from groundgate.graph.context import Bounds
from groundgate.testing.fake import ScriptedChatModel, answer, call
from groundgate.testing.slow import SlowStore


def _search(query="roof inspection threshold"):
    return AIMessage(content="", tool_calls=[call("search_evidence", {"query": query})])


def test_runaway_model_trips_the_round_bound_and_still_gets_an_answer(bundled_store):
    model = ScriptedChatModel(script=[_search()])  # asks for tools forever
    agent = build_agent(bundled_store, model, bounds=Bounds(max_rounds=3))
    out = agent.invoke({"question": "What is the general roof inspection threshold?"})
    assert out["trace"]["bound_tripped"]["bound"] == "rounds"
    assert out["trace"]["totals"]["rounds"] == 3
    assert "rounds bound" in out["answer"]["text"]
    assert out["answer"]["claims"], "an extractive answer is composed from what was gathered"


def test_token_budget_trips(bundled_store):
    model = ScriptedChatModel(script=[_search()], tokens_per_call=1000)
    agent = build_agent(bundled_store, model, bounds=Bounds(token_budget=2500))
    out = agent.invoke({"question": "roof inspection threshold?"})
    assert out["answer"]["bound_tripped"] == {"bound": "tokens", "limit": 2500, "used": 3000}


def test_slow_tools_trip_the_wall_clock(bundled_store):
    model = ScriptedChatModel(script=[_search()])
    agent = build_agent(SlowStore(bundled_store, 0.15), model, bounds=Bounds(wall_clock_s=0.4))
    out = agent.invoke({"question": "roof inspection threshold?"})
    assert out["answer"]["bound_tripped"]["bound"] == "wall_clock"
    assert out["trace"]["totals"]["rounds"] < 8


def test_a_tool_over_its_timeout_becomes_an_error_envelope(bundled_store):
    model = ScriptedChatModel(script=[_search(), answer("done")])
    agent = build_agent(SlowStore(bundled_store, 0.5), model, bounds=Bounds(tool_timeout_s=0.05))
    out = agent.invoke({"question": "roof inspection threshold?"})
    step = [s for s in out["trace"]["steps"] if s["kind"] == "tool"][0]
    assert "timed out" in step["error"]
    assert any("timed out" in note for note in out["answer"]["insufficient"])


def test_unknown_tools_and_bad_arguments_become_error_envelopes_and_the_run_goes_on(bundled_store):
    calls = AIMessage(content="", tool_calls=[
        call("delete_everything", {"id": "x"}, id="a"),
        call("traverse", {"entity_id": "claim:CLM-1108", "hops": 9}, id="b"),
        call("search_evidence", {"query": "storm claim CLM-1108 date of loss"}, id="c"),
    ])
    model = ScriptedChatModel(script=[calls, answer("CLM-1108 is a storm claim. [INS-SYN-021]")])
    agent = build_agent(bundled_store, model)
    out = agent.invoke({"question": "What is CLM-1108?"})
    steps = [s for s in out["trace"]["steps"] if s["kind"] == "tool"]
    assert "unknown tool" in steps[0]["error"]
    assert "hops" in steps[1]["error"]
    assert steps[2]["error"] is None and steps[2]["results"] > 0, (
        "a failing sibling does not discard the others"
    )
    # the model saw the errors as tool messages
    second_prompt = model.calls[1]
    assert any("unknown tool" in str(m.content) for m in second_prompt)


def test_search_agent_cannot_call_other_tools(bundled_store):
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("resolve_entity", {"mention": "CLM-1108"})]),
        answer("INSUFFICIENT: nothing"),
    ])
    agent = build_agent(bundled_store, model, tools=["search_evidence"])
    out = agent.invoke({"question": "What is CLM-1108?"})
    assert "unknown tool" in out["trace"]["steps"][1]["error"]
    assert model.bound_tools == ["search_evidence"]


class CountingStore(SlowStore):
    """Records how many evidence searches were in flight at once."""

    def __init__(self, inner, delay):
        import threading

        super().__init__(inner, delay)
        self._lock = threading.Lock()
        self.active = 0
        self.peak = 0

    def search_evidence(self, *args, **kwargs):
        with self._lock:
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            return super().search_evidence(*args, **kwargs)
        finally:
            with self._lock:
                self.active -= 1


def test_parallel_calls_run_concurrently(bundled_store):
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[
            call("search_evidence", {"query": f"roof {i}"}, id=str(i)) for i in range(4)
        ]),
        answer("done"),
    ])
    store = CountingStore(bundled_store, 0.2)
    out = build_agent(store, model).invoke({"question": "roof?"})
    assert store.peak > 1
    assert len([s for s in out["trace"]["steps"] if s["kind"] == "tool"]) == 4
