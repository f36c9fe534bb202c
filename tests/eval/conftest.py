import json
from pathlib import Path

import pytest

DOCS = {
    "refunds.md": """---
id: FR-001
title: Ticket Refund Policy
kind: policy
effective_from: 2025-01-01
entities: [concept:refund-window]
---
# Refunds for cancelled sailings

The refund window for cancelled sailings is 14 days from the sailing date.
Refunds are paid to the original card.
""",
    "faq.md": """---
id: FR-002
title: Passenger FAQ
kind: faq
entities: [concept:dog-fares]
---
# Travelling with pets

Dogs travel free on all foot passenger sailings, and they must stay on a lead.
""",
    "fares.md": """---
id: FR-003
title: Fares Manual
kind: manual
entities: [concept:dog-fares]
---
# Animal fares

Dogs are charged a fare of GBP 5 on every foot passenger sailing.
""",
}

KNOWLEDGE = """entities:
  - id: concept:refund-window
    kind: concept
    name: Refund window
    description: How long a passenger has to claim a refund for a cancelled sailing.
    source_ids: [FR-001]
  - id: concept:dog-fares
    kind: concept
    name: Dog fares
    description: What a passenger pays to bring a dog on a foot passenger sailing.
    source_ids: [FR-002, FR-003]
contradictions:
  - id: CTR-9
    topic: Whether dogs travel free on foot passenger sailings
    entity_ids: [concept:dog-fares]
    status: open
    owner: Fares Committee
    opened_at: 2025-02-01
    positions:
      - statement: The passenger FAQ says dogs travel free on foot passenger sailings.
        source_ids: [FR-002]
      - statement: The fares manual charges GBP 5 for a dog on a foot passenger sailing.
        source_ids: [FR-003]
"""

QUESTIONS = [
    {"qid": "t1", "question": "What is the refund window for cancelled sailings?", "as_of": None,
     "gold_keywords": [["14 days"]], "expected_source_ids": ["FR-001"], "contested": False,
     "answerable": True, "category": "single-hop", "split": "dev", "expected_tools": ["search_evidence"],
     "needs_agent": False},
    {"qid": "t2", "question": "Do dogs travel free on foot passenger sailings?",
     "gold_keywords": [["free"], ["GBP 5"]], "expected_source_ids": ["FR-002", "FR-003"], "contested": True,
     "answerable": True, "category": "contested", "split": "test"},
    {"qid": "t3", "question": "What is the captain's salary?", "gold_keywords": [], "expected_source_ids": [],
     "contested": False, "answerable": False, "category": "unanswerable", "split": "test"},
]


@pytest.fixture
def tiny_dataset(tmp_path) -> Path:
    """A ferry operator's corpus written by hand in the documented format, and three questions."""
    root = tmp_path / "ferry"
    (root / "corpus" / "docs").mkdir(parents=True)
    (root / "corpus" / "knowledge").mkdir()
    for name, text in DOCS.items():
        (root / "corpus" / "docs" / name).write_text(text)
    (root / "corpus" / "knowledge" / "knowledge.yaml").write_text(KNOWLEDGE)
    (root / "questions.jsonl").write_text("\n".join(json.dumps(q) for q in QUESTIONS) + "\n")
    return root
