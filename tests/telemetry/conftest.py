import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from groundgate.telemetry import Telemetry


class Spans:
    """Finished spans, with helpers to read the tree."""

    def __init__(self) -> None:
        self.exporter = InMemorySpanExporter()
        self.provider = TracerProvider()
        self.provider.add_span_processor(SimpleSpanProcessor(self.exporter))
        self.telemetry = Telemetry(self.provider)
        self.tracer = self.provider.get_tracer("test-caller")

    @property
    def all(self):
        return sorted(self.exporter.get_finished_spans(), key=lambda s: s.start_time)

    def named(self, name):
        return [s for s in self.all if s.name == name]

    def one(self, name):
        found = self.named(name)
        assert len(found) == 1, f"{len(found)} spans named {name!r}: {[s.name for s in self.all]}"
        return found[0]

    def parent(self, span):
        by_id = {s.context.span_id: s for s in self.all}
        return by_id.get(span.parent.span_id) if span.parent else None

    def children(self, span):
        return [s for s in self.all if s.parent and s.parent.span_id == span.context.span_id]


@pytest.fixture
def spans():
    return Spans()
