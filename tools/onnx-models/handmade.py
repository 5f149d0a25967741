#!/usr/bin/python3
"""Small ONNX models shaped like ones users bring, written with onnx.helper (no torch needed).

OPTIONAL, dev-time only, like export.py; it needs Debian's python3-onnx (`apt-get install python3-onnx`).

    /usr/bin/python3 tools/onnx-models/handmade.py OUTDIR [--paddle-from EXPORTDIR]

writes
  silero_vad_like.onnx  silero-vad's interface: audio `input` [batch, samples], a recurrent `state`
                        [2, batch, 128] and the sample rate `sr`, a scalar ([]), chosen between two
                        branches by an `If` on `sr`, as the real model does: Partita refuses it (If).
  vad_scalar_sr.onnx    the same inputs without the `If` (`sr` unread): it imports, and only `input` and
                        `state` have sizes to give.
  static_cnn.onnx       every input size fixed by the model: nothing to ask.
and, with --paddle-from (a folder export.py wrote), the text detector and recogniser renamed as
Paddle2ONNX names its models (graph "Model from PaddlePaddle.", producer "PaddlePaddle", dynamic dims
"p2o.DynamicDimension.N"): ch_ppocr_det.onnx and ch_ppocr_rec.onnx, the two PaddleOCR-like models.
Weights are zeros: only their shapes matter to Partita.
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def weight(name, *dims):
    return numpy_helper.from_array(np.zeros(dims, dtype=np.float32), name)


def vad_inputs():
    return [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", "samples"]),
            helper.make_tensor_value_info("state", TensorProto.FLOAT, [2, "batch", 128]),
            helper.make_tensor_value_info("sr", TensorProto.INT64, [])]


def encoder(prefix, x, out):
    """[N, 1, samples] -> conv stem -> ReLU -> conv -> global pool: [N, 64, 1]."""
    return [helper.make_node("Conv", [x, prefix + "w1"], [prefix + "c1"], name=prefix + "stem", strides=[4], pads=[1, 1],
                             kernel_shape=[3]),
            helper.make_node("Relu", [prefix + "c1"], [prefix + "r1"], name=prefix + "act"),
            helper.make_node("Conv", [prefix + "r1", prefix + "w2"], [prefix + "c2"], name=prefix + "conv", pads=[1, 1],
                             kernel_shape=[3]),
            helper.make_node("ReduceMean", [prefix + "c2"], [out], name=prefix + "pool", axes=[2], keepdims=1)]


def encoder_weights(prefix):
    return [weight(prefix + "w1", 32, 1, 3), weight(prefix + "w2", 64, 32, 3)]


def silero_vad_like():
    axis = numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1")
    rate = numpy_helper.from_array(np.array(16000, dtype=np.int64), "rate16k")
    nodes = [helper.make_node("Unsqueeze", ["input", "axis1"], ["audio"], name="to_channels"),
             helper.make_node("Equal", ["sr", "rate16k"], ["is16k"], name="rate_check")]
    branch = {}
    for rate_name in ("16k", "8k"):
        p = "enc" + rate_name + "_"
        branch[rate_name] = helper.make_graph(encoder(p, "audio", "feat" + rate_name), "branch_" + rate_name, [],
                                              [helper.make_tensor_value_info("feat" + rate_name, TensorProto.FLOAT, ["batch", 64, 1])],
                                              encoder_weights(p))
    nodes.append(helper.make_node("If", ["is16k"], ["feat"], name="by_rate", then_branch=branch["16k"],
                                  else_branch=branch["8k"]))
    nodes.append(helper.make_node("Sigmoid", ["feat"], ["output"], name="prob"))
    graph = helper.make_graph(nodes, "torch_jit", vad_inputs(),
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch", 64, 1])], [axis, rate])
    return helper.make_model(graph, producer_name="pytorch", opset_imports=[helper.make_opsetid("", 16)])


def vad_scalar_sr():
    axis = numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1")
    nodes = [helper.make_node("Unsqueeze", ["input", "axis1"], ["audio"], name="to_channels")]
    nodes += encoder("enc_", "audio", "feat")
    nodes.append(helper.make_node("Sigmoid", ["feat"], ["output"], name="prob"))
    graph = helper.make_graph(nodes, "torch_jit", vad_inputs(),
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch", 64, 1])],
                              [axis] + encoder_weights("enc_"))
    return helper.make_model(graph, producer_name="pytorch", opset_imports=[helper.make_opsetid("", 16)])


def static_cnn():
    nodes = [helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv1", pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
             helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
             helper.make_node("GlobalAveragePool", ["r1"], ["g"], name="pool"),
             helper.make_node("Flatten", ["g"], ["f"], name="flat"),
             helper.make_node("Gemm", ["f", "w2"], ["y"], name="fc", transB=1)]
    graph = helper.make_graph(nodes, "static_cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 64, 64])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])],
                              [weight("w1", 16, 3, 3, 3), weight("w2", 10, 16)])
    return helper.make_model(graph, producer_name="handmade", opset_imports=[helper.make_opsetid("", 13)])


def paddle_like(path):
    """An exported model renamed as Paddle2ONNX names its models."""
    m = onnx.load(path)
    m.graph.name = "Model from PaddlePaddle."
    m.producer_name = "PaddlePaddle"
    m.producer_version = ""
    symbols = {}
    for value in list(m.graph.input) + list(m.graph.output):
        for d in value.type.tensor_type.shape.dim:
            if d.dim_param:
                d.dim_param = symbols.setdefault(d.dim_param, "p2o.DynamicDimension.%d" % len(symbols))
    return m


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--paddle-from", help="a folder export.py wrote (text_detector, text_recogniser)")
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    models = {"silero_vad_like": silero_vad_like(), "vad_scalar_sr": vad_scalar_sr(), "static_cnn": static_cnn()}
    if args.paddle_from:
        models["ch_ppocr_det"] = paddle_like(os.path.join(args.paddle_from, "text_detector.onnx"))
        models["ch_ppocr_rec"] = paddle_like(os.path.join(args.paddle_from, "text_recogniser.onnx"))
    for name, model in models.items():
        onnx.checker.check_model(model)
        onnx.save(model, os.path.join(args.outdir, name + ".onnx"))
        print(name + ".onnx")


if __name__ == "__main__":
    main()
