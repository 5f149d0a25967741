#!/usr/bin/python3
"""Tiny transformers exported to ONNX, for `partita-cli llm evaluate --model FILE.onnx`.

OPTIONAL, dev-time only, not part of CI or of the build. It needs Debian's python3-torch and
python3-onnx (`apt-get install python3-torch python3-onnx`); nothing is downloaded: every model is
written here in a few lines of torch and randomly initialised. Run it with Debian's interpreter:

    /usr/bin/python3 tools/onnx-models/llm_export.py OUTDIR [--check build/app/partita-cli]
    /usr/bin/python3 tools/onnx-models/llm_export.py --test-models tests/data/fuzz/onnx

It writes OUTDIR/NAME.onnx and OUTDIR/NAME.json, the dimensions the model was built with in the keys
of a partita model file (docs/formats/llm-runs.md), so that

    partita-cli llm evaluate --model OUTDIR/NAME.onnx --global-batch 8 --json
    partita-cli llm evaluate --model OUTDIR/NAME.json --global-batch 8 --json

print the same evaluation (--check runs both for each model and compares the JSON). Models: gpt2-tiny (LayerNorm, GeLU, learned positions, tied LM head, static
sequence length), gpt2-tiny-dynamic (the same with dynamic batch and sequence axes: give --seq),
llama-tiny (RMSNorm written out, SwiGLU, rotary positions, grouped-query attention, untied head),
llama-tiny-dynamic-batch (the same with a dynamic batch axis: torch then writes each K/V head repeat,
repeat_interleave, as a Loop, which Partita reads through because its body only moves heads).
torch's constant folding writes the tied head's wte.weight.t() as its own initializer: Partita finds it
tied by its values.

--test-models DIR writes the few-kB models the unit tests read (tests/core/llm_onnx_loop_test.cpp):
llama-gqa-loop.onnx (dynamic batch, K/V repeats as Loops) and llama-gqa-static.onnx, its static twin.
"""
import argparse
import json
import math
import os
import subprocess

import torch
import torch.nn as nn
import torch.nn.functional as F


class GptBlock(nn.Module):
    def __init__(self, h, heads, ffn):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(h)
        self.qkv = nn.Linear(h, 3 * h)
        self.proj = nn.Linear(h, h)
        self.ln2 = nn.LayerNorm(h)
        self.up = nn.Linear(h, ffn)
        self.down = nn.Linear(ffn, h)

    def forward(self, x):
        b, s, h = x.shape
        d = h // self.heads
        q, k, v = self.qkv(self.ln1(x)).split(h, dim=2)
        q = q.view(b, s, self.heads, d).transpose(1, 2)
        k = k.view(b, s, self.heads, d).transpose(1, 2)
        v = v.view(b, s, self.heads, d).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d)
        mask = torch.triu(torch.ones(s, s, dtype=torch.bool), 1)
        att = att.masked_fill(mask, float("-inf")).softmax(-1)
        y = (att @ v).transpose(1, 2).reshape(b, s, h)
        x = x + self.proj(y)
        return x + self.down(F.gelu(self.up(self.ln2(x))))


class Gpt(nn.Module):
    def __init__(self, layers, h, heads, ffn, vocab, positions):
        super().__init__()
        self.wte = nn.Embedding(vocab, h)
        self.wpe = nn.Embedding(positions, h)
        self.blocks = nn.ModuleList(GptBlock(h, heads, ffn) for _ in range(layers))
        self.ln_f = nn.LayerNorm(h)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1], dtype=torch.long)
        x = self.wte(ids) + self.wpe(pos)
        for blk in self.blocks:
            x = blk(x)
        return self.ln_f(x) @ self.wte.weight.t()  # tied LM head


class RmsNorm(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(h))

    def forward(self, x):
        return self.weight * (x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))


def rotate_half(x):
    a, b = x.chunk(2, dim=-1)
    return torch.cat((-b, a), dim=-1)


class LlamaBlock(nn.Module):
    def __init__(self, h, heads, kv_heads, ffn):
        super().__init__()
        self.heads, self.kv_heads = heads, kv_heads
        d = h // heads
        self.norm1 = RmsNorm(h)
        self.q = nn.Linear(h, heads * d, bias=False)
        self.k = nn.Linear(h, kv_heads * d, bias=False)
        self.v = nn.Linear(h, kv_heads * d, bias=False)
        self.o = nn.Linear(heads * d, h, bias=False)
        self.norm2 = RmsNorm(h)
        self.gate = nn.Linear(h, ffn, bias=False)
        self.up = nn.Linear(h, ffn, bias=False)
        self.down = nn.Linear(ffn, h, bias=False)

    def forward(self, x, cos, sin):
        b, s, h = x.shape
        d = h // self.heads
        y = self.norm1(x)
        q = self.q(y).view(b, s, self.heads, d).transpose(1, 2)
        k = self.k(y).view(b, s, self.kv_heads, d).transpose(1, 2)
        v = self.v(y).view(b, s, self.kv_heads, d).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        rep = self.heads // self.kv_heads
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d)
        att = att.softmax(-1)
        x = x + self.o((att @ v).transpose(1, 2).reshape(b, s, h))
        y = self.norm2(x)
        return x + self.down(F.silu(self.gate(y)) * self.up(y))


class Llama(nn.Module):
    def __init__(self, layers, h, heads, kv_heads, ffn, vocab, seq):
        super().__init__()
        d = h // heads
        self.embed = nn.Embedding(vocab, h)
        self.blocks = nn.ModuleList(LlamaBlock(h, heads, kv_heads, ffn) for _ in range(layers))
        self.norm = RmsNorm(h)
        self.head = nn.Linear(h, vocab, bias=False)
        inv = 1.0 / (10000 ** (torch.arange(0, d, 2).float() / d))
        ang = torch.outer(torch.arange(seq).float(), inv)
        ang = torch.cat((ang, ang), dim=-1)
        self.register_buffer("cos", ang.cos())
        self.register_buffer("sin", ang.sin())

    def forward(self, ids):
        x = self.embed(ids)
        for blk in self.blocks:
            x = blk(x, self.cos, self.sin)
        return self.head(self.norm(x))


def export(model, ids, path, dynamic):
    """dynamic: None (static shapes), "batch" (dim 0 only) or "both" (batch and sequence)."""
    model.eval()
    axes = None
    if dynamic == "both":
        axes = {"ids": {0: "batch", 1: "sequence"}, "logits": {0: "batch", 1: "sequence"}}
    elif dynamic == "batch":
        axes = {"ids": {0: "batch"}, "logits": {0: "batch"}}
    torch.onnx.export(model, (ids,), path, input_names=["ids"], output_names=["logits"], opset_version=14,
                      dynamic_axes=axes)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", nargs="?")
    ap.add_argument("--check", metavar="PARTITA_CLI", help="evaluate each model and its JSON twin and compare")
    ap.add_argument("--test-models", metavar="DIR", help="write the unit tests' tiny models to DIR instead")
    args = ap.parse_args()
    if args.test_models:
        return test_models(args.test_models)
    if not args.outdir:
        ap.error("give OUTDIR or --test-models DIR")
    out = args.outdir
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    gpt = {"layers": 2, "hidden": 64, "heads": 4, "kv_heads": 4, "ffn": 256, "seq": 16, "vocab": 500,
           "mlp": "gelu", "norm": "layernorm", "position": "learned", "tied_embeddings": True}
    llama = {"layers": 2, "hidden": 64, "heads": 8, "kv_heads": 2, "ffn": 172, "seq": 16, "vocab": 500,
             "mlp": "swiglu", "norm": "rmsnorm", "position": "rope", "tied_embeddings": False}
    models = [
        ("gpt2-tiny", Gpt(2, 64, 4, 256, 500, 32), gpt, None),
        ("gpt2-tiny-dynamic", Gpt(2, 64, 4, 256, 500, 32), gpt, "both"),
        ("llama-tiny", Llama(2, 64, 8, 2, 172, 500, 16), llama, None),
        ("llama-tiny-dynamic-batch", Llama(2, 64, 8, 2, 172, 500, 16), llama, "batch"),
    ]
    for name, model, dims, dynamic in models:
        ids = torch.randint(0, dims["vocab"], (2, dims["seq"]))
        export(model, ids, os.path.join(out, name + ".onnx"), dynamic)
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(dict(dims, name=name), f, indent=1)
        print("wrote", os.path.join(out, name + ".onnx"))
        if args.check:
            check(args.check, os.path.join(out, name), dims["seq"])


def test_models(out):
    """The unit tests' LLaMA with grouped-query attention, 2 layers of hidden 16 (a few kB each): exported
    with a dynamic batch (K/V repeats as Loops) and with static shapes, the same weights."""
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = Llama(2, 16, 4, 2, 24, 32, 8)
    ids = torch.randint(0, 32, (2, 8))
    for name, dynamic in (("llama-gqa-loop", "batch"), ("llama-gqa-static", None)):
        path = os.path.join(out, name + ".onnx")
        export(model, ids, path, dynamic)
        print("wrote", path, os.path.getsize(path), "bytes")


def check(cli, stem, seq):
    """`llm evaluate` on NAME.onnx and NAME.json: the same figures, and the recognised dimensions."""
    plan = ["--tp", "2", "--pp", "2", "--gpus", "8", "--global-batch", "16", "--seq", str(seq), "--json"]
    runs = []
    for ext in (".onnx", ".json"):
        res = subprocess.run([cli, "llm", "evaluate", "--model", stem + ext] + plan, capture_output=True, text=True)
        if res.returncode != 0:
            raise SystemExit(f"{stem}{ext}: {res.stderr.strip()}")
        runs.append(json.loads(res.stdout))
    keys = ["iteration_s", "memory_gib", "mfu", "tokens_per_s", "time_s", "stages"]
    same = all(runs[0][k] == runs[1][k] for k in keys)
    found = {k: v["value"] for k, v in runs[0]["model_source"]["recognised"].items()}
    print(f"  {'same' if same else 'DIFFERENT'} evaluation as the JSON twin; recognised {found}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
