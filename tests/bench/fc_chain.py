#!/usr/bin/env python3
"""Writes an N-layer fully connected chain in the AccPar text format (widths 256..4096).

The widths come from the same 64-bit LCG as makeFcChain in tests/bench/chain_scaling_bench.cpp,
so `fc_chain.py 20000 42` is the chain the benchmark times at 20,000 layers.
usage: fc_chain.py LAYERS [SEED] > chain.txt
"""
import sys


def widths(count, seed):
    state = seed & 0xFFFFFFFFFFFFFFFF
    for _ in range(count):
        state = (state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        yield 256 + (state >> 33) % (4096 - 256 + 1)


def main():
    layers = int(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 42
    w = list(widths(layers + 1, seed))
    out = [f"num_layers {layers}"]
    for i in range(layers):
        out += [f"fc{i + 1} FC", f"in_ch {w[i]}", f"out_ch {w[i + 1]}"]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
