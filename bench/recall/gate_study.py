"""What a gate on the server's answer could reach (DESIGN D43, "What a gate can reach").

Reads bench/.work/gate-study.jsonl (written by `npm run bench:recall:study`, gateStudy.ts) and, for the
prompts our hook injected something for, asks: with the features the prompt path has for free (the
re-ranked relevances, the server's score, what the candidates' words share with the query, how far
another project's best memory lies), how many right answers in the first three must a gate drop to
bring injection on prompts no memory answers down to a target? Each gate is fitted on one split and
its threshold chosen there, then scored on the other split, as recall changes are (tune, held-out).

A gate only takes away: a prompt it silences loses its hit if it had one, and a miss costs nothing.

Run with the embedding venv's python (scikit-learn is pinned there, bench/recall/embed-requirements.txt):
    .recall-embed/venv/bin/python bench/recall/gate_study.py [bench/.work/gate-study.jsonl]
"""

import json
import statistics
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

TARGETS = (0.05, 0.20)
SPLITS = ("tune", "held-out")


def same_stem(a, b):
    """relevanceGate.ts's rule: the same word, a plural, or the same first five letters."""
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return long in (short + "s", short + "es") or (len(short) >= 5 and long.startswith(short[:5]))


def covered(query_words, words):
    if not query_words:
        return 1.0
    return sum(any(same_stem(q, w) for w in words) for q in query_words) / len(query_words)


def features(row):
    ranked = row["ranked"]
    relevance = [c["relevance"] for c in ranked]
    top3_words = [w for c in ranked[:3] for w in c["words"]]
    all_words = [w for c in ranked for w in c["words"]]
    return [
        relevance[0],
        relevance[0] - (relevance[1] if len(relevance) > 1 else relevance[0] - 0.3),
        relevance[0] - statistics.median(relevance),
        ranked[0]["score"],
        covered(row["queryWords"], top3_words),
        covered(row["queryWords"], all_words),
        len(row["queryWords"]),
        len(ranked),
        row["otherBest"] - ranked[0]["score"],
    ]


def outcome(row):
    """'hit' (a right URI among the first three injected), 'none' (no memory is right) or 'miss'."""
    if not row["answers"]:
        return "none"
    return "hit" if any(uri in row["answers"] for uri in row["injected"][:3]) else "miss"


def split_data(rows, split):
    rows = [r for r in rows if r["split"] == split]
    injected = [r for r in rows if r["injected"] and r.get("ranked")]
    x = np.array([features(r) for r in injected])
    labels = [outcome(r) for r in injected]
    return {
        "x": x,
        "labels": labels,
        "answered": sum(1 for r in rows if r["answers"]),
        "no_answer": sum(1 for r in rows if not r["answers"]),
    }


def keeps(data, passed):
    hits = sum(1 for label, ok in zip(data["labels"], passed) if ok and label == "hit")
    nones = sum(1 for label, ok in zip(data["labels"], passed) if ok and label == "none")
    return hits, nones


def threshold_for(data, scores, target):
    """The lowest score threshold whose gate injects on at most `target` of the no-answer prompts."""
    for threshold in sorted(set(scores)):
        if keeps(data, scores >= threshold)[1] <= target * data["no_answer"]:
            return threshold
    return float("inf")


def gates():
    return {
        "top relevance": None,
        "logistic regression": lambda: LogisticRegression(C=1.0, max_iter=5000),
        "decision tree, depth 2": lambda: DecisionTreeClassifier(max_depth=2, random_state=0),
        "decision tree, depth 3": lambda: DecisionTreeClassifier(max_depth=3, random_state=0),
    }


def report(rows):
    data = {split: split_data(rows, split) for split in SPLITS}
    for split in SPLITS:
        d = data[split]
        hits, nones = keeps(d, np.ones(len(d["labels"]), dtype=bool))
        print(f"{split}, no gate: hit@3 {hits}/{d['answered']} ({100 * hits / d['answered']:.1f}%), "
              f"injects on no-answer {nones}/{d['no_answer']} ({100 * nones / d['no_answer']:.1f}%)")
    # Fitted on one split, scored on the other; then on held-out itself, the most a gate of that shape could do.
    for fit, score in (SPLITS, SPLITS[::-1], ("held-out", "held-out")):
        a, b = data[fit], data[score]
        mean, std = a["x"].mean(0), a["x"].std(0) + 1e-9
        for name, make in gates().items():
            if fit == score and name.startswith("decision tree"):
                continue  # a tree scored on its own data learns the prompts, not a rule
            if make is None:
                sa, sb = a["x"][:, 0], b["x"][:, 0]
            else:
                model = make().fit((a["x"] - mean) / std, [label == "hit" for label in a["labels"]])
                sa = model.predict_proba((a["x"] - mean) / std)[:, 1]
                sb = model.predict_proba((b["x"] - mean) / std)[:, 1]
            for target in TARGETS:
                hits, nones = keeps(b, sb >= threshold_for(a, sa, target))
                print(f"fitted on {fit}, scored on {score}, {name}, at most {target:.0%} on {fit}: "
                      f"hit@3 {hits}/{b['answered']} ({100 * hits / b['answered']:.1f}%), "
                      f"injects on no-answer {nones}/{b['no_answer']} ({100 * nones / b['no_answer']:.1f}%)")


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else "bench/.work/gate-study.jsonl"
    with open(path, encoding="utf-8") as handle:
        report([json.loads(line) for line in handle if line.strip()])
