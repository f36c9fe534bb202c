"""Whether the reader's own scores can tell an answer from a near miss: AUC per signal.

For every non-contested question of the golden set and the article datasets, runs the
router (`--mode auto`, offline, policies on) with a reader that keeps the last transcript
it read, and measures on that transcript what the default reader measures: the chosen
sentences' weighted cover of the question's words (best sentence, all together, the
predicate), the weight of the question's words some chosen sentence holds, whether a chosen sentence
states the asked kind of value or is about the question's subject, the best retrieval
rank, and (with the bundled MiniLM) the cosine of the question and its nearest chosen
sentence. Then, over the questions the reader answered, it prints each signal's AUC
between answerable and unanswerable questions (0.5 is chance, 1.0 separates them), per
split. Last, a logistic combination of all of them fitted on the dev split (class-balanced)
is applied to both splits at a few thresholds, beside the reader's own refusals.

    python bench/answerability_signals.py            # about a minute here

Figures only: nothing is asserted, nothing in the package reads this.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # this checkout's groundgate, not whichever is installed

from reading_table import DATASETS  # noqa: E402  (bench/, this script's folder)

from groundgate.eval.dataset import dataset_store, load_questions  # noqa: E402
from groundgate.knowledge.embed import make_embedder  # noqa: E402
from groundgate.models.factory import make_chat_model  # noqa: E402
from groundgate.pipeline.router import build_router  # noqa: E402
from groundgate.policies.policyset import PolicySet  # noqa: E402
from groundgate.reading import Reading, default_reader  # noqa: E402
from groundgate.reading.evidence import collect  # noqa: E402
from groundgate.reading.score import coverage_of, score_sentences, typed  # noqa: E402
from groundgate.reading.select import select  # noqa: E402
from groundgate.reading.transcript import Transcript  # noqa: E402

SETS = DATASETS
"""The sets the reading table reads (bench/reading_table.py), in its order."""
SIGNALS = ("best", "together", "predicate", "held", "typed", "about", "rank", "cosine")
THRESHOLDS = (0.3, 0.4, 0.5, 0.6)


class _Keeping:
    """The default reader, keeping every transcript it reads."""

    def __init__(self) -> None:
        self.read_last: Transcript | None = None
        self.inner = default_reader()

    def read(self, transcript: Transcript) -> Reading:
        self.read_last = transcript
        return self.inner.read(transcript)


def _signals(t: Transcript, embedder: Any) -> dict[str, float]:
    q = t.question
    scored, env = score_sentences(t, collect(t))
    chosen = select(scored, q, env.weights)
    w = env.weights
    total = sum(w.get(term, 1.0) for term in q.focus) or 1.0
    missing = sum(w.get(term, 1.0) for term in q.focus if not any(term in c.credit for c in chosen))
    cosine = 0.0
    if chosen and embedder is not None:
        vectors = np.array(embedder.embed_documents([q.text, *(c.sentence.rendered for c in chosen[:3])]))
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        cosine = float(max(vectors[1:] @ vectors[0]))
    return {
        "best": max((coverage_of([c], q.focus, w) for c in chosen), default=0.0),
        "together": coverage_of(chosen, q.focus, w) if chosen else 0.0,
        "predicate": max((coverage_of([c], q.predicate, w) for c in chosen), default=0.0),
        "held": 1 - missing / total,
        "typed": float(any(typed(q, c.sentence.rendered) for c in chosen)),
        "about": float(any(c.anchored for c in chosen)),
        "rank": max((c.sentence.rank for c in chosen), default=0.0),
        "cosine": cosine,
    }


def rows(embedder: Any, names: list[str]) -> list[dict[str, Any]]:
    """One row per non-contested question: its labels, the reader's refusal and the signals."""
    out: list[dict[str, Any]] = []
    for name in names:
        folder = SETS[name]
        with dataset_store(folder, embedder=None) as (store, questions):
            for q in load_questions(questions, store):
                if q.contested:
                    continue
                reader = _Keeping()
                router = build_router(store, make_chat_model("offline", env={}), policies=PolicySet(),
                                      reader=reader)
                result = router.invoke({"question": q.question,
                                        "as_of": q.as_of.isoformat() if q.as_of else None})
                if reader.read_last is None:
                    continue
                out.append({"set": name, "split": q.split, "answerable": q.answerable,
                            "refused": not result["answer"].get("answered", True),
                            **_signals(reader.read_last, embedder)})
    return out


def auc(positive: list[float], negative: list[float]) -> float:
    """The chance that a random positive scores above a random negative (ties count half)."""
    if not positive or not negative:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in positive for n in negative)
    return wins / (len(positive) * len(negative))


def _matrix(items: list[dict[str, Any]]) -> np.ndarray:
    return np.array([[float(r[s]) for s in SIGNALS] + [float(r["refused"])] for r in items])


def fit(items: list[dict[str, Any]], steps: int = 3000, rate: float = 0.1, l2: float = 1.0) -> Any:
    """A class-balanced logistic regression on the standardised signals (and the reader's refusal)."""
    x = _matrix(items)
    y = np.array([float(r["answerable"]) for r in items])
    mean, spread = x.mean(0), x.std(0) + 1e-9
    z = (x - mean) / spread
    weight = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    coef, bias = np.zeros(z.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ coef + bias)))
        grad = (p - y) * weight
        coef -= rate * (z.T @ grad / len(y) + l2 * coef / len(y))
        bias -= rate * grad.mean()
    return coef, bias, mean, spread


def predict(model: Any, items: list[dict[str, Any]]) -> np.ndarray:
    coef, bias, mean, spread = model
    return np.asarray(1 / (1 + np.exp(-(((_matrix(items) - mean) / spread) @ coef + bias))))


def _figure(value: float) -> str:
    return "–" if value != value else f"{value:.2f}"  # NaN: a class with no question


def _line(split: str, label: str, refused: list[bool], absent: list[bool]) -> None:
    said = sum(r and a for r, a in zip(refused, absent, strict=True))
    wrong = sum(r and not a for r, a in zip(refused, absent, strict=True))
    print(f"| {split} | {label} | {said}/{sum(absent)} | {wrong}/{len(absent) - sum(absent)} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedder", default="local", help="for the cosine signal (default: local)")
    parser.add_argument("--sets", default=",".join(SETS), help="default: all of them")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    unknown = [n for n in names if n not in SETS]
    if unknown or not names:
        parser.error(f"--sets: choose from {', '.join(SETS)}")
    table = rows(make_embedder(args.embedder), names)
    print("AUC of each signal, answerable against unanswerable, over the questions the reader "
          "answered (0.5 is chance):\n")
    print("| split | answered: answerable / unanswerable | " + " | ".join(SIGNALS) + " |")
    print("|---|---|" + "---|" * len(SIGNALS))
    for split in ("dev", "test"):
        kept = [r for r in table if r["split"] == split and not r["refused"]]
        yes = [r for r in kept if r["answerable"]]
        no = [r for r in kept if not r["answerable"]]
        figures = " | ".join(_figure(auc([r[s] for r in yes], [r[s] for r in no])) for s in SIGNALS)
        print(f"| {split} | {len(yes)} / {len(no)} | {figures} |")
    dev = [r for r in table if r["split"] == "dev"]
    if len({r["answerable"] for r in dev}) < 2:
        print("\nNo combination: the dev split of these sets lacks answerable or unanswerable questions.")
        return 0
    model = fit(dev)
    print("\nA logistic combination fitted on dev (every signal and the reader's refusal): "
          "refuse when it gives under the threshold.\n")
    print("| split | refusals by | unanswerable said insufficient | wrong refusals |")
    print("|---|---|---|---|")
    for split in ("dev", "test"):
        items = [r for r in table if r["split"] == split]
        absent = [not r["answerable"] for r in items]
        _line(split, "the reader", [bool(r["refused"]) for r in items], absent)
        scores = predict(model, items)
        for threshold in THRESHOLDS:
            _line(split, f"the combination at {threshold}", [bool(s < threshold) for s in scores], absent)
    return 0


if __name__ == "__main__":
    sys.exit(main())
