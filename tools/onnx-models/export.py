#!/usr/bin/python3
"""Real exported ONNX models, each with an independent count of its weights and MACs.

OPTIONAL, dev-time only, not part of CI or of the build. It needs Debian's python3-torch (1.13) and
python3-torchvision (0.14) from apt (`apt-get install python3-torch python3-torchvision python3-onnx`);
nothing is downloaded: every model is randomly initialised (weights=None). Run it with Debian's
interpreter, which is the one that sees those packages:

    /usr/bin/python3 tools/onnx-models/export.py OUTDIR
    /usr/bin/python3 tools/onnx-models/compare.py OUTDIR      # Partita's totals against these counts

For each model it writes OUTDIR/NAME.onnx (torch.onnx.export) and OUTDIR/NAME.json, whose `checks`
hold the count computed here from the torch modules by forward hooks at the export's input size and,
for a model with dynamic axes, at other sizes too (each with `partita_args`, the `--input` options that
make Partita import the model at that size). The counting rules are those of
`partita-cli inspect --json` (README, ONNX models), stated on the torch side:

  weights          elements of the `weight` of every nn.Conv1d/2d, nn.ConvTranspose1d/2d and nn.Linear
                   that runs, plus nn.MultiheadAttention's in_proj_weight and out_proj.weight; biases
                   excluded. A module that runs twice counts its weight once.
  macs_per_sample  multiply-accumulates of one sample, biases excluded:
                     Conv           C_out·H_out·W_out · C_in/groups · k_h·k_w
                     ConvTranspose  C_in·H_in·W_in · C_out/groups · k_h·k_w
                     Linear         (output elements per sample) · in_features
                     MultiheadAttention (self-attention, L = S tokens of E features):
                                    projections 4·L·E² + scores L·S·E + context L·S·E
                     ActMatMul      (a matmul of two activations, this file's module)
                                    (output elements per sample) · K
                   a sample being one entry of dim 0 of the model's first input (every model here is
                   batch-first).
  macs             macs_per_sample · batch.

A model whose count is data-dependent (the `If` model) has "expect": "refused" instead of counts.
"""
import argparse
import json
import math
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


class ActMatMul(nn.Module):
    """a @ b of two activations, as a module so that a forward hook sees it."""

    def forward(self, a, b):
        return torch.matmul(a, b)


class Counter:
    """Forward hooks on the counted module types; totals per sample."""

    def __init__(self, model, batch):
        self.batch = batch
        self.macs = 0
        self.weighted = {}  # id(module) -> weight elements, so a reused module counts once
        self.calls = []
        skip = set()
        for m in model.modules():
            if isinstance(m, nn.MultiheadAttention):
                skip.add(id(m.out_proj))  # run functionally inside the attention, counted there
        self.handles = []
        for name, m in model.named_modules():
            if id(m) in skip:
                continue
            if isinstance(m, (nn.Conv1d, nn.Conv2d, nn.ConvTranspose1d, nn.ConvTranspose2d, nn.Linear,
                              nn.MultiheadAttention, ActMatMul)):
                self.handles.append(m.register_forward_hook(self.hook(name)))

    def per_sample(self, t):
        assert t.shape[0] == self.batch, f"tensor {tuple(t.shape)} is not batch-first"
        return t.numel() // self.batch

    def hook(self, name):
        def count(m, inputs, output):
            x = inputs[0]
            if isinstance(m, (nn.ConvTranspose1d, nn.ConvTranspose2d)):
                k = math.prod(m.kernel_size)
                macs = self.per_sample(x) * (m.out_channels // m.groups) * k
                weights = m.weight.numel()
            elif isinstance(m, (nn.Conv1d, nn.Conv2d)):
                k = math.prod(m.kernel_size)
                macs = self.per_sample(output) * (m.in_channels // m.groups) * k
                weights = m.weight.numel()
            elif isinstance(m, nn.Linear):
                macs = self.per_sample(output) * m.in_features
                weights = m.weight.numel()
            elif isinstance(m, nn.MultiheadAttention):
                q, k = inputs[0], inputs[1]
                assert q is k and m._qkv_same_embed_dim, "counted for self-attention only"
                seq = q.shape[1] if m.batch_first else q.shape[0]
                e = m.embed_dim
                macs = 4 * seq * e * e + 2 * seq * seq * e
                weights = m.in_proj_weight.numel() + m.out_proj.weight.numel()
            else:  # ActMatMul
                macs = self.per_sample(output) * inputs[0].shape[-1]
                weights = 0
            self.macs += macs
            if weights:
                self.weighted[id(m)] = weights
            self.calls.append({"module": name, "type": type(m).__name__, "macs_per_sample": macs, "weights": weights})

        return count

    def result(self):
        for h in self.handles:
            h.remove()
        return {"weights": sum(self.weighted.values()), "macs_per_sample": self.macs,
                "macs": self.macs * self.batch, "weighted_layers": len(self.calls), "layers": self.calls}


# --- the models of our own -------------------------------------------------------------------------

class SqueezeExcite(nn.Module):
    def __init__(self, c, r=4):
        super().__init__()
        self.reduce = nn.Conv2d(c, c // r, 1)
        self.expand = nn.Conv2d(c // r, c, 1)

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1)
        return x * F.hardsigmoid(self.expand(F.relu(self.reduce(s))))


class DepthwiseBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.dw = nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False)
        self.bn1 = nn.BatchNorm2d(cin)
        self.se = SqueezeExcite(cin)
        self.pw = nn.Conv2d(cin, cout, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)

    def forward(self, x):
        x = F.hardswish(self.bn1(self.dw(x)))
        return F.hardswish(self.bn2(self.pw(self.se(x))))


class TextDetector(nn.Module):
    """A DBNet-like detector as PaddleOCR's mobile one is built: depthwise blocks with squeeze-excite
    (HardSigmoid), an FPN whose top-down path upsamples by scale (Resize), a ConvTranspose head."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.Hardswish())
        self.c2 = DepthwiseBlock(16, 24, 2)   # 1/4
        self.c3 = DepthwiseBlock(24, 40, 2)   # 1/8
        self.c4 = DepthwiseBlock(40, 64, 2)   # 1/16
        self.lat2, self.lat3, self.lat4 = (nn.Conv2d(c, 32, 1, bias=False) for c in (24, 40, 64))
        self.smooth = nn.Conv2d(32, 32, 3, 1, 1, bias=False)
        self.head = nn.Sequential(
            nn.Conv2d(32, 8, 3, 1, 1, bias=False), nn.BatchNorm2d(8), nn.ReLU(),
            nn.ConvTranspose2d(8, 8, 2, 2), nn.BatchNorm2d(8), nn.ReLU(),
            nn.ConvTranspose2d(8, 1, 2, 2), nn.Sigmoid())

    def forward(self, x):
        c2 = self.c2(self.stem(x))
        c3 = self.c3(c2)
        c4 = self.c4(c3)
        p4 = self.lat4(c4)
        p3 = self.lat3(c3) + F.interpolate(p4, scale_factor=2.0, mode="nearest")
        p2 = self.lat2(c2) + F.interpolate(p3, scale_factor=2.0, mode="nearest")
        return self.head(self.smooth(p2))


class TextRecogniser(nn.Module):
    """A CRNN-like recogniser: a conv stem collapses the height, the sequence is reshaped with sizes
    read from the tensor's shape (Shape -> Gather -> Unsqueeze -> Concat -> Reshape in the export),
    then one multi-head self-attention written out with matmuls of two activations."""

    def __init__(self, d=64, heads=4, classes=37):
        super().__init__()
        self.heads = heads
        self.stem = nn.Sequential(
            nn.Conv2d(3, 32, 3, 1, 1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),        # 16 x W/2
            nn.Conv2d(32, d, 3, 1, 1), nn.BatchNorm2d(d), nn.ReLU(), nn.MaxPool2d((2, 1)),    # 8 x W/2
            nn.Conv2d(d, d, (8, 1)))                                                          # 1 x W/2
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
        self.scores, self.context = ActMatMul(), ActMatMul()
        self.cls = nn.Linear(d, classes)

    def forward(self, x):
        f = self.stem(x)
        n, c, h, w = f.shape
        seq = f.reshape(n, c, h * w).permute(0, 2, 1)  # [N, T, d]
        t = h * w

        def heads(y):
            return y.reshape(n, t, self.heads, c // self.heads).transpose(1, 2)  # [N, heads, T, d/heads]

        q, k, v = heads(self.q(seq)), heads(self.k(seq)), heads(self.v(seq))
        a = torch.softmax(self.scores(q, k.transpose(-2, -1)) / math.sqrt(c // self.heads), dim=-1)
        ctx = self.context(a, v).transpose(1, 2).reshape(n, t, c)
        return self.cls(self.o(ctx) + seq)


class Mlp(nn.Module):
    """A Keras-style MLP with LayerNorm after each hidden layer."""

    def __init__(self, features=32, hidden=128, classes=10):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(features, hidden), nn.LayerNorm(hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.LayerNorm(hidden), nn.ReLU(),
            nn.Linear(hidden, classes))

    def forward(self, x):
        return self.net(x)


class Encoder(nn.Module):
    """nn.TransformerEncoderLayer (batch-first; 3 heads, an odd count, keeps PyTorch's fused fast
    path, which has no ONNX form, out of the export) under a token embedding by a Linear."""

    def __init__(self, features=16, d=96, heads=3, ff=192):
        super().__init__()
        self.embed = nn.Linear(features, d)
        self.layer = nn.TransformerEncoderLayer(d, heads, ff, dropout=0.0, batch_first=True)

    def forward(self, x):
        return self.layer(self.embed(x))


class Gate(nn.Module):
    """Data-dependent control flow: scripted, it exports as an ONNX If and a Loop."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 8, 3, 1, 1)
        self.b = nn.Conv2d(3, 8, 1)

    def forward(self, x):
        if bool(x.mean() > 0):
            y = self.a(x)
        else:
            y = self.b(x)
        for _ in range(int(y.max().item() > 1) + 1):  # a data-dependent trip count: an ONNX Loop
            y = torch.relu(y) * 0.5
        return y


# --- export ----------------------------------------------------------------------------------------

def tv(name, **kw):
    return getattr(torchvision.models, name)(weights=None, **kw)


def lraspp():
    return torchvision.models.segmentation.lraspp_mobilenet_v3_large(weights=None, weights_backbone=None,
                                                                      num_classes=21)


# name, constructor, input shape, opset, dynamic axes of input "x" ({} = static), more input shapes
# to count at (a model with dynamic axes imports at any size: these check the symbolic path)
MODELS = [
    ("resnet18", lambda: tv("resnet18"), (1, 3, 224, 224), 13, {0: "batch"}, [(3, 3, 224, 224)]),
    ("mobilenet_v3_small", lambda: tv("mobilenet_v3_small"), (1, 3, 224, 224), 13, {}, []),
    ("squeezenet1_0", lambda: tv("squeezenet1_0"), (1, 3, 224, 224), 13, {}, []),
    ("shufflenet_v2_x0_5", lambda: tv("shufflenet_v2_x0_5"), (1, 3, 224, 224), 13, {}, []),
    ("lraspp_mobilenet_v3_large", lraspp, (1, 3, 224, 224), 13, {0: "batch", 2: "height", 3: "width"},
     [(2, 3, 321, 479)]),
    ("text_detector", TextDetector, (1, 3, 320, 320), 13, {0: "batch", 2: "height", 3: "width"},
     [(2, 3, 736, 1280)]),
    ("text_recogniser", TextRecogniser, (2, 3, 32, 100), 13, {0: "batch", 3: "width"}, [(3, 3, 32, 320)]),
    ("mlp_layernorm", Mlp, (4, 32), 13, {0: "batch"}, [(1, 32)]),
    ("transformer_opset13", Encoder, (2, 50, 16), 13, {0: "batch", 1: "seq"}, [(3, 7, 16)]),
    ("transformer_opset17", Encoder, (2, 50, 16), 17, {0: "batch", 1: "seq"}, [(1, 128, 16)]),
    ("if_gate", Gate, (1, 3, 32, 32), 13, {}, []),
]


def count(model, shape):
    counter = Counter(model, shape[0])
    with torch.no_grad():
        model(torch.randn(*shape))
    c = counter.result()
    c.update({"input": {"x": list(shape)}, "partita_args": ["--input", "x=" + ",".join(str(d) for d in shape)]})
    return c


def export(outdir, name, make, shape, opset, dynamic, more):
    torch.manual_seed(0)
    model = make().eval()
    x = torch.randn(*shape)
    record = {"model": name, "file": name + ".onnx", "opset": opset,
              "dynamic_axes": {str(k): v for k, v in dynamic.items()}}
    if name == "if_gate":
        model = torch.jit.script(model)
        record.update({"expect": "refused", "checks": [{"partita_args": []}]})
    else:
        record.update({"expect": "imported", "checks": [count(model, s) for s in [shape] + more]})
    path = os.path.join(outdir, name + ".onnx")
    with torch.no_grad():
        torch.onnx.export(model, (x,), path, opset_version=opset, input_names=["x"], output_names=["y"],
                          dynamic_axes={"x": dynamic} if dynamic else None, do_constant_folding=True)
    with open(os.path.join(outdir, name + ".json"), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    for c in record["checks"]:
        print(f"{name} {c['partita_args']}: {c.get('weights', '-')} weights, {c.get('macs_per_sample', '-')} MACs "
              "per sample", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--only", help="comma-separated model names")
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    only = set(args.only.split(",")) if args.only else None
    for spec in MODELS:
        if only is None or spec[0] in only:
            export(args.outdir, *spec)


if __name__ == "__main__":
    main()
