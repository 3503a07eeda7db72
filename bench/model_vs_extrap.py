#!/usr/bin/env python3
"""augur's model search beside Extra-P's, on the same inputs (issue 21). Prints figures; never fails.

    bench/model_vs_extrap.py [--augur build/bin/augur] [--cases 40] [--augur-args "--relative"] [--keep DIR]

Synthetic sets with known models: 1 to 3 parameters, each true model built from Extra-P's 42 building
blocks x^i·log2(x)^j (one per parameter, summed, multiplied, or for three parameters f1·f2 + f3), 5 or 6
values per parameter (geometric or evenly spaced), 5 repetitions with uniform multiplicative noise of ±1%
and ±5%, `--cases` sets per parameter count and noise level (fixed seeds). Each set is written in Extra-P's
text format to a temporary folder, and each tool models it; then per noise level and tool:

- leading term found: for every parameter, the largest (i, j) of the terms that use it is the true one;
- the error of the prediction at 4× the largest measured value of every parameter against the noise-free
  truth: median, 90th percentile, maximum;
- how often the 95% prediction interval (augur predict) holds the truth there;
- how often the model is a constant although the truth is not.

With EXTRAP_SRC set to a checkout of Extra-P (extra-p/extrap 4.2.x), Extra-P models the same files (its
default modeler, through its Python API, run by EXTRAP_PYTHON, default /usr/bin/python3, which needs numpy,
scipy, sklearn, marshmallow, tqdm, matplotlib, packaging; its Cube reader's import of pycubexr is satisfied by
a stand-in module written to the temporary folder), and Extra-P's own text inputs (EXTRAP_SRC/tests/data/text,
read in place) are modeled by both: the series where augur gives a constant while Extra-P's model has a
leave-one-out SMAPE under half the constant's, and the time per file. Without EXTRAP_SRC, augur's column
alone.
"""
import argparse
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BLOCKS = [(0, 1), (0, 2), (1 / 4, 0), (1 / 3, 0), (1 / 4, 1), (1 / 3, 1), (1 / 4, 2), (1 / 3, 2), (1 / 2, 0),
          (1 / 2, 1), (1 / 2, 2), (2 / 3, 0), (3 / 4, 0), (2 / 3, 1), (3 / 4, 1), (4 / 5, 0), (2 / 3, 2), (3 / 4, 2),
          (1, 0), (1, 1), (1, 2), (5 / 4, 0), (5 / 4, 1), (4 / 3, 0), (4 / 3, 1), (3 / 2, 0), (3 / 2, 1), (3 / 2, 2),
          (5 / 3, 0), (7 / 4, 0), (2, 0), (2, 1), (2, 2), (9 / 4, 0), (7 / 3, 0), (5 / 2, 0), (5 / 2, 1), (5 / 2, 2),
          (8 / 3, 0), (11 / 4, 0), (3, 0), (3, 1)]
NAMES = ["p", "n", "q"]


def block_value(block, x):
    i, j = block
    return x ** i * (math.log2(x) ** j if j else 1.0)


def make_case(rng, parameters, points, noise):
    """A true model, its measurements and the point at 4x."""
    values = []
    for _ in range(parameters):
        if rng.random() < 2 / 3:
            start = rng.choice([1, 2, 4, 8, 16, 32])
            values.append([start * 2 ** k for k in range(points)])
        else:
            step = rng.choice([1, 2, 10, 20])
            values.append([step * (k + 1) for k in range(points)])
    blocks = [rng.choice(BLOCKS) for _ in range(parameters)]
    c0 = 10 ** rng.uniform(0, 2)
    largest = [v[-1] for v in values]
    if parameters == 1:
        groups = [[0]]
    elif parameters == 2:
        groups = rng.choice([[[0], [1]], [[0, 1]]])
    else:
        order = rng.sample(range(3), 3)
        groups = rng.choice([[[0], [1], [2]], [[0, 1, 2]], [[order[0], order[1]], [order[2]]]])
    terms = []
    for group in groups:
        at_largest = math.prod(block_value(blocks[v], largest[v]) for v in group)
        scale = 10 ** rng.uniform(0, 2) * c0 / at_largest if at_largest > 0 else 1.0
        terms.append((scale, group))

    def truth(point):
        return c0 + sum(scale * math.prod(block_value(blocks[v], point[v]) for v in group) for scale, group in terms)

    grid = [[]]
    for v in range(parameters):
        grid = [g + [x] for g in grid for x in values[v]]
    data = []
    for point in grid:
        mean = truth(point)
        data.append((point, [mean * (1 + rng.uniform(-noise, noise)) for _ in range(5)]))
    at = [4 * x for x in largest]
    return {"blocks": blocks, "data": data, "at": at, "truth": truth(at), "parameters": parameters}


def write_extrap_text(path, parameters, data):
    with open(path, "w") as out:
        for v in range(parameters):
            out.write(f"PARAMETER {NAMES[v]}\n")
        out.write("\n")
        for point, _ in data:
            out.write("POINTS ( " + " ".join(repr(x) for x in point) + " )\n")
        out.write("\nREGION main\nMETRIC time\n")
        for _, repetitions in data:
            out.write("DATA " + " ".join(repr(r) for r in repetitions) + "\n")


def parse_exponent(text):
    text = text.replace(" ", "").strip("()")
    if "/" in text:
        a, b = text.split("/")
        return float(a) / float(b)
    return float(text)


def augur_terms(symbolic, names):
    """The factors of augur's formula, each as {parameter index: (i, j)}."""
    terms = []
    for factor in re.split(r"\s*[+-]?\s*[A-Za-z_]\w*\[\d+\]\s*\*?\s*", symbolic):
        if not factor.strip():
            continue
        term = {}
        for piece in factor.split(" * "):
            piece = piece.strip()
            m = re.fullmatch(r"log2\((\w+)\)(?:\^(\d+))?", piece)
            if m and m.group(1) in names:
                v = names.index(m.group(1))
                i, _ = term.get(v, (0, 0))
                term[v] = (i, int(m.group(2) or 1))
                continue
            m = re.fullmatch(r"(\w+)(?:\^(.+))?", piece)
            if m and m.group(1) in names:
                v = names.index(m.group(1))
                _, j = term.get(v, (0, 0))
                term[v] = (parse_exponent(m.group(2)) if m.group(2) else 1.0, j)
        terms.append(term)
    return terms


def leading(terms, parameter):
    found = [term[parameter] for term in terms if parameter in term]
    return max(found) if found else None


def same_block(a, b):
    return a is not None and b is not None and abs(a[0] - b[0]) < 1e-9 and a[1] == b[1]


def run_augur(augur, extra, path, names, at):
    fit = json.loads(subprocess.run([augur, "fit", path, "--json"] + extra, capture_output=True, text=True).stdout)
    point = ",".join(f"{name}={x!r}" for name, x in zip(names, at))
    out = subprocess.run([augur, "predict", path, "--at", point, "--json"] + extra, capture_output=True, text=True).stdout
    prediction = json.loads(out)["predictions"][0] if out else None
    model = fit["models"][0] if fit.get("models") else None
    return model, prediction


EXTRAP_DRIVER = r'''
import json, sys, time, warnings
import numpy as np
warnings.simplefilter("ignore")
from extrap.fileio.file_reader.text_file_reader import TextFileReader
from extrap.modelers.model_generator import ModelGenerator

def loo_smape(columns, y):
    X = np.column_stack([np.ones(len(y))] + columns)
    errors = []
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        c = np.linalg.lstsq(X[keep], y[keep], rcond=None)[0]
        p = X[i] @ c
        errors.append(0.0 if y[i] == p == 0 else 2 * abs(y[i] - p) / (abs(y[i]) + abs(p)))
    return 100 * float(np.mean(errors))

def model(job):
    start = time.process_time()
    experiment = TextFileReader().read_experiment(job["file"])
    ModelGenerator(experiment).model_all()
    seconds = time.process_time() - start
    modeler = experiment.modelers[0]
    for (callpath, metric), model in modeler.models.items():
        function = model.hypothesis.function
        coordinates = [tuple(c) for c in experiment.coordinates]
        measurements = {tuple(m.coordinate): m.mean for m in experiment.measurements[(callpath, metric)]}
        points = [c for c in coordinates if c in measurements]
        y = np.array([measurements[c] for c in points])
        terms, columns = [], []
        for term in function.compound_terms:
            pairs = term.parameter_term_pairs if hasattr(term, "parameter_term_pairs") else [(0, term)]
            described = {}
            for parameter, compound in pairs:
                i, j = 0.0, 0
                for simple in compound.simple_terms:
                    if simple.term_type == "polynomial":
                        i = float(simple.exponent)
                    else:
                        j = int(simple.exponent)
                described[parameter] = (i, j)
            terms.append(described)
            columns.append(np.array([np.prod([compound.evaluate(point[parameter]) / compound.coefficient
                                              for parameter, compound in pairs]) for point in points]))
        at = job.get("at") or [4 * max(c[v] for c in points) for v in range(len(points[0]))]
        if len(at) > 1:
            value = np.ravel(function.evaluate(np.array(at, dtype=float).reshape(-1, 1)))[0]
        else:
            value = function.evaluate(float(at[0]))
        print(json.dumps({"file": job["file"], "region": str(callpath), "metric": str(metric), "terms": [list(t.items()) for t in terms],
                          "function": function.to_string(*experiment.parameters), "value": float(value),
                          "loo_smape": loo_smape(columns, y), "constant_loo_smape": loo_smape([], y), "seconds": seconds}), flush=True)

for line in sys.stdin:
    job = json.loads(line)
    try:
        model(job)
    except Exception as error:
        print(job["file"] + ": " + repr(error), file=sys.stderr)
'''


def run_extrap(source, folder, jobs):
    stub = os.path.join(folder, "stub")
    os.makedirs(os.path.join(stub, "pycubexr", "utils"), exist_ok=True)
    os.makedirs(os.path.join(stub, "pycubexr-2.0.0.dist-info"), exist_ok=True)
    with open(os.path.join(stub, "pycubexr", "__init__.py"), "w") as f:
        f.write("class CubexParser:\n    pass\n")
    open(os.path.join(stub, "pycubexr", "utils", "__init__.py"), "w").close()
    with open(os.path.join(stub, "pycubexr", "utils", "exceptions.py"), "w") as f:
        f.write("class MissingMetricError(Exception):\n    pass\n")
    with open(os.path.join(stub, "pycubexr-2.0.0.dist-info", "METADATA"), "w") as f:
        f.write("Metadata-Version: 2.1\nName: pycubexr\nVersion: 2.0.0\n")
    environment = dict(os.environ, PYTHONPATH=source + os.pathsep + stub)
    python = os.environ.get("EXTRAP_PYTHON", "/usr/bin/python3")
    done = subprocess.run([python, "-c", EXTRAP_DRIVER], input="".join(json.dumps(j) + "\n" for j in jobs),
                          capture_output=True, text=True, env=environment)
    if done.returncode != 0:
        print("Extra-P failed: " + done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "Extra-P failed",
              file=sys.stderr)
    results = {}
    for line in done.stdout.splitlines():
        record = json.loads(line)
        record["terms"] = [{int(k): tuple(v) for k, v in t} for t in record["terms"]]
        results.setdefault(record["file"], []).append(record)
    return results


def quantile(values, q):
    if not values:
        return float("nan")
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def percent(x):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.2f}%" if x < 10 else f"{x:.1f}%"


def row(noise, tool, tally):
    n = tally["cases"]
    errors = tally["errors"]
    cover = f"{100 * tally['covered'] / n:.0f}%" if tally.get("covered") is not None else "-"
    return (f"| {noise} | {tool} | {100 * tally['found'] / n:.0f}% | {percent(quantile(errors, 0.5))} | "
            f"{percent(quantile(errors, 0.9))} | {percent(max(errors) if errors else None)} | {cover} | "
            f"{tally['constant']} | {1000 * tally['seconds'] / n:.0f} ms |")


def synthetic(args, folder, extrap_source):
    augur_extra = args.augur_args.split() if args.augur_args else []
    lines = []
    for noise in (0.01, 0.05):
        cases = []
        rng = random.Random(int(noise * 1000) * 7919 + 21)
        for parameters in (1, 2, 3):
            for index in range(args.cases):
                case = make_case(rng, parameters, 5 + index % 2, noise)
                case["file"] = os.path.join(folder, f"synthetic_{int(noise * 100)}_{parameters}_{index}.txt")
                write_extrap_text(case["file"], parameters, case["data"])
                cases.append(case)
        tallies = {"augur": {"cases": 0, "found": 0, "errors": [], "covered": 0, "constant": 0, "seconds": 0.0}}
        for case in cases:
            names = NAMES[:case["parameters"]]
            start = time.process_time()
            started = os.times()
            model, prediction = run_augur(args.augur, augur_extra, case["file"], names, case["at"])
            finished = os.times()
            tally = tallies["augur"]
            tally["seconds"] += (finished.children_user - started.children_user) + (finished.children_system - started.children_system)
            tally["cases"] += 1
            if model is None or prediction is None:
                tally["errors"].append(100.0)
                continue
            terms = augur_terms(model["symbolic"], names)
            tally["found"] += all(same_block(leading(terms, v), case["blocks"][v]) for v in range(case["parameters"]))
            tally["constant"] += not terms
            tally["errors"].append(100 * abs(prediction["value"] - case["truth"]) / case["truth"])
            if prediction["lower"] is not None and prediction["upper"] is not None:
                tally["covered"] += prediction["lower"] <= case["truth"] <= prediction["upper"]
            del start
        if extrap_source:
            results = run_extrap(extrap_source, folder, [{"file": c["file"], "at": c["at"]} for c in cases])
            tally = {"cases": 0, "found": 0, "errors": [], "covered": None, "constant": 0, "seconds": 0.0}
            for case in cases:
                tally["cases"] += 1
                record = results.get(case["file"], [None])[0]
                if record is None:
                    tally["errors"].append(100.0)
                    continue
                tally["seconds"] += record["seconds"]
                terms = record["terms"]
                tally["found"] += all(same_block(leading(terms, v), case["blocks"][v]) for v in range(case["parameters"]))
                tally["constant"] += not terms
                tally["errors"].append(100 * abs(record["value"] - case["truth"]) / case["truth"])
            tallies["Extra-P"] = tally
        label = f"{int(noise * 100)}%"
        for tool in ("Extra-P", "augur"):
            if tool in tallies:
                lines.append(row(label, tool + (" " + args.augur_args if tool == "augur" and args.augur_args else ""), tallies[tool]))
    return lines


def extrap_inputs(args, folder, source):
    files = []
    for root, _, names in os.walk(os.path.join(source, "tests", "data", "text")):
        files += [os.path.join(root, n) for n in names if n.endswith(".txt")]
    files.sort()
    results = run_extrap(source, folder, [{"file": f} for f in files])
    augur_extra = args.augur_args.split() if args.augur_args else []
    series = collapsed = augur_constant = extrap_constant = 0
    augur_seconds = extrap_seconds = 0.0
    augur_loo, extrap_loo, misses = [], [], []
    for path in files:
        started = os.times()
        out = subprocess.run([args.augur, "fit", path, "--json"] + augur_extra, capture_output=True, text=True).stdout
        finished = os.times()
        augur_seconds += (finished.children_user - started.children_user) + (finished.children_system - started.children_system)
        models = {(m["region"], m["metric"]): m for m in (json.loads(out).get("models", []) if out else [])}
        records = results.get(path, [])
        if records:
            extrap_seconds += records[0]["seconds"]
        for record in records:
            series += 1
            model = models.get((record["region"], record["metric"]))
            if model is None:
                continue
            constant = not augur_terms(model["symbolic"], model["parameters"])
            augur_constant += constant
            extrap_constant += not record["terms"]
            if model.get("loo_smape") is not None:
                augur_loo.append(model["loo_smape"])
            extrap_loo.append(record["loo_smape"])
            if constant and record["terms"] and record["loo_smape"] < record["constant_loo_smape"] / 2:
                collapsed += 1
                misses.append(os.path.relpath(path, source) + f" ({record['region']} · {record['metric']})")
    lines = [f"Extra-P's text inputs: {len(files)} files, {series} series",
             f"| tool | constant models | median leave-one-out SMAPE | CPU time per file |", "|---|---|---|---|",
             f"| Extra-P | {extrap_constant} | {percent(quantile(extrap_loo, 0.5))} | {1000 * extrap_seconds / max(len(files), 1):.0f} ms |",
             f"| augur | {augur_constant} | {percent(quantile(augur_loo, 0.5))} | {1000 * augur_seconds / max(len(files), 1):.0f} ms |",
             f"augur constant where Extra-P's model has a leave-one-out SMAPE under half the constant's: {collapsed}"]
    lines += ["  " + m for m in misses]
    return lines


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--augur", default=os.path.join(here, "..", "build", "bin", "augur"))
    parser.add_argument("--cases", type=int, default=40, help="sets per parameter count and noise level (default 40)")
    parser.add_argument("--augur-args", default="", help="more options for augur fit and predict, e.g. --relative")
    parser.add_argument("--keep", help="write the generated sets to this folder and keep them")
    args = parser.parse_args()
    source = os.environ.get("EXTRAP_SRC")
    folder = args.keep or tempfile.mkdtemp(prefix="model_vs_extrap_")
    os.makedirs(folder, exist_ok=True)
    try:
        print(f"synthetic sets: {3 * args.cases} per noise level (1, 2, 3 parameters), 5-6 values per parameter, 5 repetitions")
        print("| noise | tool | leading term found | median error at 4× | 90th percentile | max | 95% interval covers | constant | CPU time per case |")
        print("|---|---|---|---|---|---|---|---|---|")
        for line in synthetic(args, folder, source):
            print(line, flush=True)
        if source:
            print()
            for line in extrap_inputs(args, folder, source):
                print(line)
        else:
            print("(EXTRAP_SRC not set: augur alone)")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
