#!/usr/bin/env python3
"""Per-rule table of `ptxguard confirm` verdicts from confirm-evidence.sh's OUTDIR, with the
harness's outcome of each corpus case beside it (cli/data/confirmations.json).
Usage: confirm-evidence-table.py OUTDIR"""
import collections, glob, json, os, statistics, sys

out = sys.argv[1]
VERDICTS = ["confirmed", "bites", "no-effect", "not-decidable", "not-reproduced"]
harness = {}
data = json.load(open(os.path.join(os.path.dirname(__file__), "../../cli/data/confirmations.json")))
for c in data.get("cases", data) if isinstance(data, dict) else data:
    if isinstance(c, dict):
        harness[c.get("case")] = c.get("outcome")
times = {}
for line in open(os.path.join(out, "corpus-times.txt")):
    name, _, ms = line.split()
    times[name] = int(ms.rstrip("ms"))
rows = collections.defaultdict(collections.Counter)
rule_times = collections.defaultdict(list)
cases = []
for path in sorted(glob.glob(os.path.join(out, "corpus", "*.json"))):
    name = os.path.basename(path)[:-5]
    try:
        doc = json.load(open(path))
    except ValueError:
        print(f"{name}: no JSON", file=sys.stderr)
        continue
    for f in doc["files"]:
        seen = set()
        for x in f["findings"]:
            rows[x["rule"]][x["verdict"]] += 1
            rows[x["rule"]]["findings"] += 1
            seen.add(x["rule"])
            cases.append((name.replace("~", "/"), x["rule"], x["severity"], x["verdict"], x.get("detail", "")))
        for r in seen:
            rule_times[r].append(times.get(name, 0))
print("| rule | findings | " + " | ".join(VERDICTS) + " | median wall time of its files |")
print("|---|---:|" + "---:|" * len(VERDICTS) + "---:|")
total = collections.Counter()
for rule in sorted(rows):
    c = rows[rule]
    total.update(c)
    med = statistics.median(rule_times[rule]) / 1000 if rule_times[rule] else 0
    print(f"| `{rule}` | {c['findings']} | " + " | ".join(str(c[v]) for v in VERDICTS) + f" | {med:.1f} s |")
print(f"| all | {total['findings']} | " + " | ".join(str(total[v]) for v in VERDICTS) + f" | {statistics.median(times.values())/1000:.1f} s |")
print()
print("| case | rule | severity | verdict | harness | detail |")
print("|---|---|---|---|---|---|")
for name, rule, sev, verdict, detail in cases:
    d = detail.replace("|", "\\|")
    if len(d) > 140:
        d = d[:140] + "..."
    print(f"| `{name}` | `{rule}` | {sev} | **{verdict}** | {harness.get(name, '-')} | {d} |")
