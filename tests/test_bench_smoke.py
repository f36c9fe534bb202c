"""The knowledge benchmark runs end to end at a small size and prints every figure.

Timings are not asserted (shared machines are noisy); that the table is complete is.
"""

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench_knowledge.py"


def test_knowledge_benchmark_prints_every_figure():
    out = subprocess.run(
        [sys.executable, str(BENCH), "--sizes", "1000", "--queries", "25"],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    table = {
        line.split("|")[0].strip(): line.split("|")[1].strip()
        for line in out.stdout.splitlines()
        if line.count("|") >= 2 and not line.startswith("metric")
    }
    for row in ("ingest total (s)", "search_evidence p95 (ms)", "traverse 2-hop p95 (ms)",
                "resolve_entity p95 (ms)", "resolve_entity new process p50 / p95",
                "store size on disk (MiB)", "peak RSS overall (MiB, maxrss)"):
        assert row in table, row
        assert any(ch.isdigit() for ch in table[row]), (row, table[row])
    assert "1,000 chunks" in out.stdout
