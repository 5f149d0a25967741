#!/usr/bin/python3
"""Partita on the models export.py wrote: its inspect totals against the independent count, and every
method run once. Optional and dev-time, like export.py (plain python3 suffices here).

    /usr/bin/python3 tools/onnx-models/compare.py OUTDIR [--cli build/app/partita-cli] [--methods]

Prints a Markdown table: model, operator types, independent weights and MACs per sample, Partita's,
whether they are equal; with --methods also the outcome of accpar, simulate --method dp, a short mcmc
and hypar (ok, or the first line of the refusal).
"""
import argparse
import glob
import json
import os
import subprocess


def run(cli, args, timeout=600):
    p = subprocess.run([cli] + args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def first_line(text, width=110):
    line = text.strip().splitlines()[0] if text.strip() else ""
    if ": error: " in line:  # "partita-cli inspect: error: …": the message
        line = line.split(": error: ", 1)[1]
    line = line.replace("HyPar needs a chain of weighted layers, but the graph branches: ", "branches: ")
    return line if len(line) <= width else line[: width - 3] + "..."


def op_types(path):
    try:
        import onnx  # python3-onnx; optional here
    except ImportError:
        return ""
    m = onnx.load(path, load_external_data=False)
    return ", ".join(sorted({n.op_type for n in m.graph.node}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--cli", default="build/app/partita-cli")
    parser.add_argument("--methods", action="store_true", help="also run accpar, simulate, mcmc and hypar")
    args = parser.parse_args()
    rows, methods = [], []
    for path in sorted(glob.glob(os.path.join(args.outdir, "*.json"))):
        ref = json.load(open(path))
        model = os.path.join(args.outdir, ref["file"])
        ops = op_types(model)
        for i, check in enumerate(ref["checks"]):
            size = ",".join(str(d) for d in check["input"]["x"]) if "input" in check else ""
            label = f"{ref['model']} ({size})" if size else ref["model"]
            shown_ops = ops if i == 0 else "″"
            net = ["--network", model] + check["partita_args"]
            rc, out, err = run(args.cli, ["inspect", "--json"] + net)
            if ref["expect"] == "refused":
                try:  # a refusal still prints its JSON (with the unsupported nodes) before failing
                    got = json.loads(out)
                except ValueError:
                    got = None
                unsupported = ", ".join(f"{u['name']} ({u['op_type']})" for u in (got or {}).get("unsupported", []))
                verdict = "refused: " + (unsupported or first_line(err)) if rc != 0 else "NOT refused"
                rows.append(f"| {label} | {shown_ops} | — | — | — | — | {verdict} |")
                continue
            if rc != 0:
                rows.append(f"| {label} | {shown_ops} | {check['weights']:,} | {check['macs_per_sample']:,} | "
                            f"error | error | no: {first_line(err)} |")
                continue
            got = json.loads(out)
            w, m = int(got["weights"]), got["macs_per_sample"]
            equal = w == check["weights"] and m == check["macs_per_sample"]
            rows.append(f"| {label} | {shown_ops} | {check['weights']:,} | {check['macs_per_sample']:,} | "
                        f"{w:,} | {int(m) if m == int(m) else m:,} | {'yes' if equal else 'NO'} |")
            if args.methods:
                outcome = []
                for name, extra in (("accpar", ["--levels", "2"]),
                                    ("simulate", ["--topology", "p100-16", "--method", "dp"]),
                                    ("mcmc", ["--topology", "p100-16", "--iterations", "200", "--seed", "1"]),
                                    ("hypar", [])):
                    rc, out, err = run(args.cli, [name] + net + extra)
                    outcome.append("ok" if rc == 0 else f"refused: {first_line(err)}")
                methods.append(f"| {label} | " + " | ".join(outcome) + " |")
    print("| model | operators | weights (independent) | MACs/sample (independent) | weights (Partita) | "
          "MACs/sample (Partita) | equal? |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if methods:
        print("\n| model | accpar | simulate --method dp | mcmc (200 iterations) | hypar |")
        print("|---|---|---|---|---|")
        print("\n".join(methods))


if __name__ == "__main__":
    main()
