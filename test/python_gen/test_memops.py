#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""python_gen for instances/elementwise.json and instances/permute.json: the shipped lists
expand for every target, names encode the configuration, sources use the kernel templates,
and every invalid entry is an error naming the file and the entry."""
import copy
import json
import os
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python_gen"))
import generate  # noqa: E402
import memops  # noqa: E402

LISTS = {op: os.path.join(ROOT, "instances", f"{op}.json") for op in ("elementwise", "permute")}


def load(op):
    with open(LISTS[op], encoding="utf-8") as f:
        return json.load(f)


def expand(doc, op="elementwise", instance_set="ci", targets=("sm_90a",)):
    return memops.expand(generate, doc, LISTS[op], instance_set, list(targets))


class ShippedLists(unittest.TestCase):
    def test_every_set_and_target_expands(self):
        for op in LISTS:
            for s in generate.SETS:
                got = expand(load(op), op, s, list(generate.TARGETS))
                for target, insts in got.items():
                    self.assertTrue(insts, f"{op} {s} {target}")

    def test_each_type_combination_has_a_general_and_a_vector_instance(self):
        for op in LISTS:
            doc = load(op)
            insts = expand(doc, op)["sm_90a"]
            for name, combo in doc["type_combinations"].items():
                mine = [i for i in insts if i["combo"] == combo]
                self.assertTrue(any(i["general"] for i in mine), f"{op} {name}")
                self.assertTrue(any(not i["general"] for i in mine), f"{op} {name}")

    def test_permute_ci_set_has_a_transpose_per_type(self):
        insts = expand(load("permute"), "permute")["sm_90a"]
        names = {i["name"] for i in insts if i["kernel"] == "transpose"}
        self.assertLessEqual({"permute_transpose_bf16_t64_w4", "permute_transpose_f16_t64_w4",
                              "permute_transpose_f32_t32_w4"}, names)

    def test_staged_transposes(self):
        insts = {i["name"]: i for i in expand(load("permute"), "permute")["sm_90a"]}
        staged = insts["permute_transpose_f16_t64x128_w8_a1"]
        self.assertEqual(memops.kernel_type(generate, staged),
                         "ck_tile::transpose_kernel<ck_tile::half_t, 8, 1, 16>")
        self.assertIn("permute_transpose_bf16_t64x128_w8_a1", insts)
        doc = load("permute")
        fam = next(f for f in doc["families"] if f["name"] == "transpose_staged")
        for bad, why in [({"warps": 4, "tiles_ahead": 5}, "1 to 4"),
                         ({"warps": 4, "tiles_ahead": 0}, "positive"),
                         ({"warps": 4, "tiles_ahead": 1, "lanes": 2}, "unknown key"),
                         ({"warps": 8, "width": 16}, "needs tiles_ahead"),
                         ({"warps": 8, "tiles_ahead": 1, "width": 12}, "multiple of 8"),
                         ({"warps": 32, "tiles_ahead": 1, "width": 16}, "does not divide"),
                         ({"warps": 4, "tiles_ahead": 1, "width": 64}, "shared memory")]:
            fam["tiles"] = [bad]
            with self.assertRaises(generate.GenError) as ctx:
                expand(doc, "permute")
            self.assertIn(why, str(ctx.exception))

    def test_names_ids_and_kernel_types(self):
        insts = {i["name"]: i for i in expand(load("elementwise"))["sm_90a"]}
        cast = insts["elementwise_vec_f32_f16_accf32_r1_w4_x4_v16"]
        self.assertEqual(cast["id"], generate.fnv1a64(cast["name"]))
        self.assertEqual(memops.kernel_type(generate, cast),
                         "ck_tile::elementwise_kernel<float, float, ck_tile::half_t, "
                         "ck_tile::row_tile_shape<float, 1, 4, 4, 16>, true>")
        general = insts["elementwise_strided_f16_f16_accf32_r1_w8_x1_s"]
        self.assertIn("row_tile_shape<ck_tile::half_t, 1, 8, 1, 2>, false>",
                      memops.kernel_type(generate, general))
        t = [i for i in expand(load("permute"), "permute")["sm_90a"]
             if i["kernel"] == "transpose" and i["combo"]["x"] == "fp16"][0]
        self.assertEqual(memops.kernel_type(generate, t), "ck_tile::transpose_kernel<ck_tile::half_t, 4>")

    def test_generate_writes_memops_groups_into_the_table(self):
        with tempfile.TemporaryDirectory() as out:
            written = generate.generate(os.path.join(ROOT, "instances", "gemm.json"), "ci",
                                        ["sm_90a"], out, 2, (), tuple(LISTS.values()))
            files = [os.path.basename(f) for f in written["sm_90a"]]
            self.assertIn("memops_group_0.cpp", files)
            self.assertIn("memops_group_1.cpp", files)
            with open(os.path.join(out, "sm_90a", "memops_group_0.cpp"), encoding="utf-8") as f:
                self.assertIn('#include "memops_instance_adapter.hpp"', f.read())
            with open(os.path.join(out, "sm_90a", "instance_table.cpp"), encoding="utf-8") as f:
                table = f.read()
            for inst in expand(load("permute"), "permute")["sm_90a"]:
                self.assertIn(generate.record_symbol(inst), table)
            # Fewer groups later: stale files go.
            generate.generate(os.path.join(ROOT, "instances", "gemm.json"), "ci", ["sm_90a"],
                              out, 1, (), tuple(LISTS.values()))
            self.assertFalse(os.path.exists(os.path.join(out, "sm_90a", "memops_group_1.cpp")))


class Errors(unittest.TestCase):
    def assertGenError(self, doc, text, op="elementwise", targets=("sm_90a",)):
        with self.assertRaises(generate.GenError) as e:
            expand(doc, op, "ci", targets)
        self.assertIn(text, str(e.exception))
        self.assertIn(f"{op}.json", str(e.exception))

    def test_unknown_keys_and_values(self):
        doc = load("elementwise")
        doc["families"][0]["tile"] = 1
        self.assertGenError(doc, "family #0: unknown key(s) tile")
        doc = load("elementwise")
        doc["families"][1]["kernel"] = "transpose"
        self.assertGenError(doc, "kernel 'transpose' is not one of elementwise")
        doc = load("elementwise")
        doc["type_combinations"]["f16"]["y"] = "int8"
        self.assertGenError(doc, "y='int8' is not one of fp16, bf16, fp32")
        doc = load("permute")
        doc["families"][1]["tiles"] = [{"warps": 4, "vector": True}]
        self.assertGenError(doc, "unknown key(s) vector", "permute")

    def test_general_family_must_be_strided(self):
        doc = load("elementwise")
        doc["families"][0]["tiles"][0]["vector"] = True
        self.assertGenError(doc, "a general family must use vector false")
        doc = load("permute")
        doc["families"][1]["general"] = True
        self.assertGenError(doc, "the transpose kernel cannot be general", "permute")

    def test_type_without_general_instance(self):
        doc = load("elementwise")
        doc["families"][0]["types"] = ["f16"]
        self.assertGenError(doc, "has no general instance of its types")

    def test_limits_of_the_target(self):
        doc = load("elementwise")
        doc["families"][1]["tiles"][0]["repeat"] = 16
        self.assertGenError(doc, "elements per thread per tile would spill registers")
        doc = load("elementwise")
        doc["families"][1]["tiles"][0]["warps_per_row"] = 64
        self.assertGenError(doc, "threads per block on sm_90a exceeds 1024")
        doc = load("permute")
        doc["families"][1]["tiles"] = [{"warps": 3}]
        self.assertGenError(doc, "which does not divide the 64-row tile", "permute")
        doc = load("permute")
        doc["families"][1]["tiles"] = [{"warps": 8}]
        self.assertGenError(doc, "which does not divide the 32-row tile", "permute",
                            ("gfx90a",))

    def test_duplicates(self):
        doc = load("elementwise")
        doc["families"].append(copy.deepcopy(doc["families"][1]))
        self.assertGenError(doc, "duplicate family name")
        doc["families"][-1]["name"] = "again"
        self.assertGenError(doc, "is also produced by")


if __name__ == "__main__":
    unittest.main()
