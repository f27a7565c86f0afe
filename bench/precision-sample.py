#!/usr/bin/env python3
r"""Precision audit helper for docs/precision.md: runs `ptxguard check` on real projects (or
reads the JSON it wrote before), counts findings per rule and severity, and draws a
fixed-seed random sample per rule and severity, spread across files, each printed with
source context for judging by hand.

    # the default check on every project under ROOT: counts and samples
    bench/precision-sample.py --root /work/real --out /tmp/audit

    # only some rules, with a rule that is off by default switched on
    bench/precision-sample.py --root /work/real --out /tmp/audit \
        --rules prefer-cuda-ptx,prefer-intrinsic --extra-args=--extend-select=prefer-intrinsic

    # tally the judgment tables of docs/precision.md (rows `| id | rule | severity |
    # file:line | verdict | reason |`, verdict one of useful/noise/wrong)
    bench/precision-sample.py --tally docs/precision.md

Projects are the subfolders of ROOT named by --projects (default: the nine of the audit).
The JSON of each run is kept in OUT/<project>.json; --reuse reads those instead of running.
The sample is a pure function of the run's findings and the seed: the same run gives the
same sample, so judgments can be checked by anyone.
"""

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys

PROJECTS = [
    "cutlass",
    "cccl",
    "flashinfer",
    "flash-attention",
    "ThunderKittens",
    "DeepGEMM",
    "ggml",
    "nccl",
    "marlin",
]
SEVERITIES = ["error", "warning", "info"]
VERDICTS = ["useful", "noise", "wrong"]


def run_check(binary, root, project, out_dir, extra_args, reuse):
    path = os.path.join(out_dir, project + ".json")
    if not (reuse and os.path.exists(path)):
        cmd = [binary, "check", "--output-format", "json", "--exit-zero", "--no-config"]
        cmd += extra_args + [os.path.join(root, project)]
        with open(path, "w") as f:
            subprocess.run(cmd, stdout=f, check=True)
    with open(path) as f:
        findings = json.load(f)
    for d in findings:
        d["project"] = project
    return findings


def sample(findings, n, rng):
    """Up to n findings: files in random order, one random finding per file per round, so a
    file with hundreds of findings cannot fill the sample."""
    by_file = collections.defaultdict(list)
    for d in findings:
        by_file[d["file"]].append(d)
    files = sorted(by_file)
    rng.shuffle(files)
    for f in files:
        rng.shuffle(by_file[f])
    picked = []
    while len(picked) < n and any(by_file[f] for f in files):
        for f in files:
            if by_file[f] and len(picked) < n:
                picked.append(by_file[f].pop())
    return picked


def context(path, line, radius):
    try:
        with open(path, errors="replace") as f:
            lines = f.read().split("\n")
    except OSError as e:
        return "    (cannot read: %s)" % e
    lo, hi = max(1, line - radius), min(len(lines), line + radius)
    return "\n".join(
        "%s%6d | %s" % (">" if i == line else " ", i, lines[i - 1]) for i in range(lo, hi + 1)
    )


def tally(md_path):
    counts = collections.defaultdict(collections.Counter)
    row = re.compile(r"^\|\s*(\S+)\s*\|\s*([a-z-]+)\s*\|\s*(error|warning|info)\s*\|[^|]*\|\s*(useful|noise|wrong)\s*\|")
    section = None
    with open(md_path) as f:
        for line in f:
            if line.startswith("#"):
                section = line.strip("# \n")
            m = row.match(line)
            if m:
                counts[(section, m.group(2), m.group(3))][m.group(4)] += 1
    print("| section | rule | severity | sample | useful | noise | wrong |")
    print("|---|---|---|---:|---:|---:|---:|")
    for (section, rule, sev), c in sorted(counts.items(), key=lambda kv: (str(kv[0][0]), kv[0][1], SEVERITIES.index(kv[0][2]))):
        print("| %s | %s | %s | %d | %d | %d | %d |" % (section, rule, sev, sum(c.values()), c["useful"], c["noise"], c["wrong"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default="/work/real", help="folder holding the projects")
    ap.add_argument("--projects", default=",".join(PROJECTS))
    ap.add_argument("--out", default="/tmp/ptxguard-precision", help="where the JSON of each run goes")
    ap.add_argument("--bin", default="target/debug/ptxguard")
    ap.add_argument("--reuse", action="store_true", help="read OUT/<project>.json instead of running")
    ap.add_argument("--extra-args", default="", help="more `check` arguments, space-separated")
    ap.add_argument("--rules", default="", help="only these rules (comma-separated)")
    ap.add_argument("--severity", default="", help="only these severities (comma-separated)")
    ap.add_argument("-n", "--per-rule", type=int, default=20, help="sample size per rule and severity")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--context", type=int, default=3, help="source lines either side")
    ap.add_argument("--counts-only", action="store_true")
    ap.add_argument("--tally", metavar="MD", help="tally the judgment rows of this Markdown file")
    args = ap.parse_args()

    if args.tally:
        tally(args.tally)
        return
    os.makedirs(args.out, exist_ok=True)
    projects = [p for p in args.projects.split(",") if p]
    extra = args.extra_args.split()
    findings = []
    for p in projects:
        findings += run_check(args.bin, args.root, p, args.out, extra, args.reuse)
    rules = set(r for r in args.rules.split(",") if r)
    sevs = set(s for s in args.severity.split(",") if s)
    findings = [d for d in findings if (not rules or d["rule"] in rules) and (not sevs or d["severity"] in sevs)]

    per = collections.defaultdict(collections.Counter)
    per_project = collections.defaultdict(collections.Counter)
    for d in findings:
        per[d["rule"]][d["severity"]] += 1
        per_project[d["project"]][d["severity"]] += 1
    print("## Counts\n")
    print("| rule | error | warning | info |")
    print("|---|---:|---:|---:|")
    for rule in sorted(per):
        print("| %s | %s |" % (rule, " | ".join(str(per[rule][s]) for s in SEVERITIES)))
    total = collections.Counter()
    for c in per.values():
        total.update(c)
    print("| **total** | %s |\n" % " | ".join(str(total[s]) for s in SEVERITIES))
    print("| project | error | warning | info |")
    print("|---|---:|---:|---:|")
    for p in projects:
        print("| %s | %s |" % (p, " | ".join(str(per_project[p][s]) for s in SEVERITIES)))
    if args.counts_only:
        return

    rng = random.Random(args.seed)
    for rule in sorted(per):
        for sev in SEVERITIES:
            of_group = sorted(
                (d for d in findings if d["rule"] == rule and d["severity"] == sev),
                key=lambda d: (d["file"], d["line"], d["column"], d["message"]),
            )
            if not of_group:
                continue
            picked = sample(of_group, args.per_rule, rng)
            print("\n## %s %s: %d findings, %d sampled\n" % (rule, sev, len(of_group), len(picked)))
            for i, d in enumerate(picked, 1):
                where = "%s:%d:%d" % (d["file"], d["line"], d["column"])
                print("### %s-%s-%d %s" % (rule, sev[0], i, where))
                print("    " + d["message"])
                if d.get("note"):
                    print("    note: " + d["note"])
                print(context(d["file"], d["line"], args.context))
                print()

if __name__ == "__main__":
    sys.exit(main())
