"""Writes tiny-embedder.onnx, a 1 KB stand-in for an image embedding model used by the tests.

Input  "pixels":    float32 [1, 3, 32, 32] (NCHW, normalised)
Output "embedding": float32 [1, 8] = flatten(global_average_pool(pixels)) @ W

Made with Debian's python3-onnx (1.12): /usr/bin/python3 make_tiny_embedder.py
"""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

w = np.arange(24, dtype=np.float32).reshape(3, 8) / 10.0
graph = helper.make_graph(
    [
        helper.make_node("GlobalAveragePool", ["pixels"], ["pooled"]),
        helper.make_node("Flatten", ["pooled"], ["flat"], axis=1),
        helper.make_node("MatMul", ["flat", "W"], ["embedding"]),
    ],
    "tiny_embedder",
    [helper.make_tensor_value_info("pixels", TensorProto.FLOAT, [1, 3, 32, 32])],
    [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, [1, 8])],
    [numpy_helper.from_array(w, "W")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="loupe-tests")
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, "tiny-embedder.onnx")
print("wrote tiny-embedder.onnx")
