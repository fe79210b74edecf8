#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""python_gen: expansion, validation errors naming file and entry, permanent ids, grouping."""
import copy
import json
import os
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python_gen"))
import generate  # noqa: E402

GEMM_JSON = os.path.join(ROOT, "instances", "gemm.json")


def load():
    with open(GEMM_JSON, encoding="utf-8") as f:
        return json.load(f)


class ExpandTheShippedLists(unittest.TestCase):
    def test_ci_and_full_sets_are_valid_for_every_known_target(self):
        for s in generate.SETS:
            result = generate.expand(load(), GEMM_JSON, s, sorted(generate.TARGETS))
            for target, insts in result.items():
                self.assertTrue(insts, f"{s}/{target} is empty")

    def test_ci_set_has_a_general_instance_per_type_combination(self):
        doc = load()
        insts = generate.expand(doc, GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        general = {tuple(sorted(i["combo"].items())) for i in insts if i["general"]}
        # TF32 problems run on the true-fp32 general instances (the C API lets fp32 serve them).
        needed = [c for c in doc["type_combinations"].values() if c["compute"] != "tf32"]
        self.assertEqual(len(general), len(needed))

    def test_ci_set_stays_small(self):
        insts = generate.expand(load(), GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        # 56: the narrow tiles and the clustered 128x256 tile for B row-major as well, the
        # layout of torch.matmul(A, B), which the vendor baselines time; and the Hopper fp8
        # tile with bf16 output, vendor_baseline.py's fp8 problem. 63: the Hopper tiles of the
        # benchmarked plain products once more without the fused epilogue, which they run
        # faster (instances/gemm.json, hopper_plain). 66: the 192-column pairs for B
        # row-major, torch.matmul's 3000^3. 67: the 128x128 tile for B row-major, torch.matmul's
        # mid-sized problems. 71: the plain 128x256 pairs (fp16 and bf16, both layouts) that
        # long launches take; without the fused epilogue they compile in seconds. 83: those
        # plain tiles (and the plain 192x192 pairs) once more with only D = alpha * A * B
        # compiled in, a quarter of the code, which the plain products run faster still. 86:
        # the 8-bit tiles likewise (fp8 with fp16 or bf16 output, int8). 92: the fp16 128x256
        # tile, 192x192 pair and 64x128 ping-pong tile with only D = alpha * A * B + bias
        # compiled in (hopper_bias), which linear layers with a bias take; as small as the
        # alpha-only kernels. 98: the same three tiles with the bias and gelu_tanh only
        # (hopper_bias_act), the MLP layer's epilogue. 104: the fp16 128x256 tile, 128x192
        # pair and 64x128 ping-pong tile with the bias and beta * C only (hopper_bias_c),
        # residual products. 107: the fp16 128x160 pair with only D = alpha * A * B, both
        # layouts of B (hopper_clusters_160), whose 120 tiles fill 1536^3-sized problems' SMs.
        # 114: that pair with a bias, a bias and gelu_tanh, a bias and C, and the 192x192 pair
        # with a bias and C. 122: the 128x256 tile, 192x192 and 128x160 pairs and 64x128
        # ping-pong tile with a bias, C and gelu_tanh (hopper_bias_act_c). 124: the fp16
        # 128x144 and 128x112 pairs with only alpha (hopper_wave_fit), whose tiles fill the
        # waves of 2560^3- and 1280^3-sized problems. 127: the 128x80, 128x96 and 128x176 pairs
        # likewise (hopper_wave_fit_narrow). 130: TF32 alpha-only on 128x256 pairs and the
        # 64x128 ping-pong tile, fused on 128x128 (hopper_tf32, hopper_tf32_fused; the ci set's
        # only wgmma kernels of fp32 D).
        self.assertLessEqual(len(insts), 130, "the ci set is compiled on every CI run")

    def test_ci_set_has_tile_instances_for_every_type_and_layout(self):
        doc = load()
        insts = generate.expand(doc, GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        tiles = [i for i in insts if i.get("kernel") == "tile"]
        combos = {n for n, c in doc["type_combinations"].items()
                  if c["a"] != "fp32" or c["compute"] == "tf32"}
        have = {n for n, c in doc["type_combinations"].items()
                for i in tiles if i["combo"] == c}
        self.assertEqual(have, combos)
        self.assertEqual({tuple(i["layouts"]) for i in tiles},
                         {("row", "row"), ("row", "col"), ("col", "row"), ("col", "col")})
        self.assertTrue(any(i["split_k"] for i in tiles))
        self.assertEqual({i["schedule"] for i in tiles}, {"intrawave", "interwave"})
        self.assertTrue(any(i["vector_bytes"] < 16 for i in tiles))


class TileFamilies(unittest.TestCase):
    def family(self, **over):
        fam = {"name": "t", "kernel": "tile", "sets": ["ci"], "targets": ["*"],
               "types": ["f16"], "layouts": [["row", "col"]], "epilogues": ["fused"],
               "index_bits": [64],
               "tiles": [{"block": [128, 128, 32], "warps": [2, 2], "stages": 3,
                          "schedule": "intrawave"}]}
        fam.update(over)
        doc = load()
        doc["families"] = [f for f in doc["families"] if f["kernel"] == "simt"] + [fam]
        return doc

    def expect_error(self, doc, *fragments, targets=("sm_90a",)):
        with self.assertRaises(generate.GenError) as ctx:
            generate.expand(doc, GEMM_JSON, "ci", list(targets))
        for f in fragments:
            self.assertIn(f, str(ctx.exception))

    def test_names_encode_the_configuration(self):
        insts = generate.expand(self.family(split_k=True), GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        names = [i["name"] for i in insts if i.get("kernel") == "tile"]
        self.assertEqual(names, ["gemm_tile_f16f16_f16_accf32_rc_128x128x32_w2x2_s3_intra_v16"
                                 "_splitk_fused"])

    def test_the_alpha_only_epilogue_is_for_wgmma_kernels(self):
        self.expect_error(self.family(epilogues=["alpha"]), "'alpha' is not one of fused, none")

    def test_the_bias_only_epilogue_is_for_wgmma_kernels(self):
        self.expect_error(self.family(epilogues=["bias"]), "'bias' is not one of fused, none")

    def test_sources_use_the_tile_template(self):
        with tempfile.TemporaryDirectory() as d:
            files = generate.generate(GEMM_JSON, "ci", ["sm_90a"], d, 2)
            text = ""
            for name in files["sm_90a"]:
                with open(name, encoding="utf-8") as f:
                    text += f.read()
            self.assertIn("make_gemm_tile_record", text)
            self.assertIn("ck_tile::gemm_schedule::interwave", text)

    def test_fp32_inputs_are_refused(self):
        self.expect_error(self.family(types=["f32"]), "TF32")

    def test_tf32_compute_makes_tf32_tile_kernels(self):
        doc = self.family(types=["f32_tf32"])
        insts = generate.expand(doc, GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        tile = [i for i in insts if i.get("kernel") == "tile"]
        self.assertTrue(tile and all("acctf32" in i["name"] for i in tile))
        self.assertIn("ck_tile::gemm_math::tf32", generate.tile_kernel_type(tile[0]))

    def test_tf32_compute_needs_fp32_inputs(self):
        doc = self.family()
        doc["type_combinations"]["bad"] = {"a": "fp16", "b": "fp16", "d": "fp16",
                                           "compute": "tf32"}
        self.expect_error(doc, "compute must be one of fp32")

    def test_warp_tile_must_be_whole_instructions(self):
        doc = self.family(tiles=[{"block": [64, 64, 32], "warps": [2, 2], "stages": 2,
                                  "schedule": "intrawave"}])
        generate.expand(doc, GEMM_JSON, "ci", ["sm_90a"])  # 32x32 warp tiles: fine on NVIDIA
        doc = self.family(tiles=[{"block": [32, 64, 32], "warps": [2, 2], "stages": 2,
                                  "schedule": "intrawave"}])
        self.expect_error(doc, "32x32x8 instruction", targets=("gfx90a",))

    def test_shared_memory_limit(self):
        doc = self.family(tiles=[{"block": [256, 256, 64], "warps": [2, 4], "stages": 4,
                                  "schedule": "intrawave"}])
        self.expect_error(doc, "shared memory")

    def test_fp8_needs_a_target_with_fp8_instructions(self):
        doc = self.family(types=["e4m3_f16"], targets=["gfx90a"])
        self.expect_error(doc, "no fp8", targets=("gfx90a",))

    def test_tile_keys_and_values(self):
        self.expect_error(self.family(layouts=[["any", "col"]]), "row and col")
        self.expect_error(self.family(index_bits=[32]), "64 bits")
        self.expect_error(self.family(split_k="yes"), "split_k")
        doc = self.family(tiles=[{"block": [128, 128, 32], "warps": [2, 2], "stages": 5,
                                  "schedule": "intrawave"}])
        self.expect_error(doc, "stages 5")
        doc = self.family(tiles=[{"block": [128, 128, 32], "warps": [2, 2], "stages": 2,
                                  "schedule": "sometimes"}])
        self.expect_error(doc, "schedule 'sometimes'")

    def test_split_k_is_for_tile_kernels(self):
        doc = load()
        doc["families"][1]["split_k"] = True
        self.expect_error(doc, "split_k applies to tile kernels only")


class PermanentIds(unittest.TestCase):
    def test_ids_are_a_function_of_the_name(self):
        self.assertEqual(generate.fnv1a64(""), 0xCBF29CE484222325)
        self.assertEqual(generate.fnv1a64("a"), 0xAF63DC4C8601EC8C)  # FNV-1a 64 test vector
        a = generate.expand(load(), GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        b = generate.expand(load(), GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        self.assertEqual([(i["name"], i["id"]) for i in a], [(i["name"], i["id"]) for i in b])
        for i in a:
            self.assertEqual(i["id"], generate.fnv1a64(i["name"]))


class ValidationErrors(unittest.TestCase):
    def expect_error(self, doc, *fragments, instance_set="ci", targets=("sm_90a",)):
        with self.assertRaises(generate.GenError) as ctx:
            generate.expand(doc, GEMM_JSON, instance_set, list(targets))
        msg = str(ctx.exception)
        self.assertIn("gemm.json", msg)
        for f in fragments:
            self.assertIn(f, msg)

    def test_unknown_top_level_key(self):
        doc = load()
        doc["familes"] = []
        self.expect_error(doc, "unknown key(s) familes")

    def test_unknown_family_key_names_the_family(self):
        doc = load()
        doc["families"][0]["tile"] = []
        self.expect_error(doc, "family #0", "unknown key(s) tile")

    def test_too_much_shared_memory_for_the_target(self):
        doc = load()
        doc["families"][1]["tiles"] = [{"block": [256, 256, 32], "thread": [16, 16]}]
        self.expect_error(doc, "family 'fixed_layout_vectorised'", "shared memory", "sm_90a")

    def test_threads_not_a_multiple_of_the_wavefront(self):
        doc = load()
        doc["families"][1]["tiles"] = [{"block": [32, 32, 16], "thread": [4, 2]}]  # 128 threads
        generate.expand(doc, GEMM_JSON, "ci", ["sm_90a"])  # fine for warp 32 and wave 64
        doc["families"][1]["tiles"] = [{"block": [32, 24, 16], "thread": [4, 4]}]  # 48 threads
        self.expect_error(doc, "warp size 64", targets=("gfx90a",))

    def test_duplicate_instances(self):
        doc = load()
        doc["families"].append(copy.deepcopy(doc["families"][1]))
        doc["families"][-1]["name"] = "copy"
        self.expect_error(doc, "family 'copy'", "also produced by")

    def test_duplicate_family_names(self):
        doc = load()
        doc["families"].append(copy.deepcopy(doc["families"][1]))
        self.expect_error(doc, "duplicate family name")

    def test_general_family_must_accept_everything(self):
        doc = load()
        doc["families"][0]["index_bits"] = [32]
        self.expect_error(doc, "family 'general'", "must accept every valid problem")

    def test_unknown_type_and_impossible_combination(self):
        doc = load()
        doc["type_combinations"]["bad"] = {"a": "fp4", "b": "fp16", "d": "fp16", "compute": "fp32"}
        self.expect_error(doc, "type combination 'bad'", "'fp4'")
        doc = load()
        doc["type_combinations"]["bad"] = {"a": "int8", "b": "fp16", "d": "fp16", "compute": "fp32"}
        self.expect_error(doc, "type combination 'bad'", "cannot mix")

    def test_vector_width_must_divide_block_k(self):
        doc = load()
        doc["families"][1]["tiles"] = [{"block": [64, 64, 16], "thread": [4, 4], "vector_k": 3}]
        self.expect_error(doc, "vector_k 3")

    def test_unknown_target(self):
        with self.assertRaises(generate.GenError) as ctx:
            generate.expand(load(), GEMM_JSON, "ci", ["sm_10x"])
        self.assertIn("sm_10x", str(ctx.exception))

    def test_type_without_general_instance(self):
        doc = load()
        doc["families"][0]["types"] = ["f32"]
        self.expect_error(doc, "has no general instance")


def load_rowwise(name):
    path = os.path.join(ROOT, "instances", name)
    with open(path, encoding="utf-8") as f:
        return json.load(f), path


def expand_rowwise(doc, path, instance_set="ci", targets=("sm_90a",)):
    import rowwise  # noqa: E402  (beside generate.py)
    return rowwise.expand(generate, doc, path, instance_set, list(targets))


class RowwiseLists(unittest.TestCase):
    """instances/norm.json, softmax.json and reduce.json through rowwise.py (and reduce.py)."""

    def test_shipped_lists_are_valid_for_every_set_and_target(self):
        for name in ("norm.json", "softmax.json", "reduce.json"):
            doc, path = load_rowwise(name)
            for s in generate.SETS:
                for target, insts in expand_rowwise(doc, path, s, sorted(generate.TARGETS)).items():
                    self.assertTrue(insts, f"{name} {s}/{target} is empty")

    def test_reduce_has_a_general_instance_per_type_and_fast_kernels(self):
        doc, path = load_rowwise("reduce.json")
        insts = expand_rowwise(doc, path)["sm_90a"]
        general = {tuple(sorted(i["combo"].items())) for i in insts if i["general"]}
        self.assertEqual(len(general), len(doc["type_combinations"]))
        self.assertTrue(all(i["kernel"] == "strided" for i in insts if i["general"]))
        kinds = {(i["kernel"], i["tile"].get("vector")) for i in insts}
        for k in [("row", True), ("row", False), ("column", True), ("column", False)]:
            self.assertIn(k, kinds)
        self.assertLessEqual(len(insts), 49, "the ci set is compiled on every CI run")

    def test_reduce_names_and_sources(self):
        doc, path = load_rowwise("reduce.json")
        insts = expand_rowwise(doc, path)["sm_90a"]
        by_name = {i["name"]: i for i in insts}
        row = by_name["reduce_f16_f16_accf32_row_r1_w4_x4_v16"]
        self.assertEqual(row["ktype"], "ck_tile::reduce_row_kernel<ck_tile::half_t, "
                         "ck_tile::half_t, ck_tile::row_tile_shape<ck_tile::half_t, 1, 4, 4, 16>>")
        col = by_name["reduce_f16_f32_accf32_col_w16_l4_x8_v16"]
        self.assertIn("ck_tile::column_tile_shape<ck_tile::half_t, 16, 4, 8, 16>", col["ktype"])
        self.assertIn("reduce_f32_bf16_accf32_strided_w8_s", by_name)
        self.assertEqual(row["id"], generate.fnv1a64(row["name"]))
        with tempfile.TemporaryDirectory() as d:
            import rowwise  # noqa: E402
            files = rowwise.write_sources(generate, d, insts, 2, "reduce.json")
            text = ""
            for name in files:
                with open(name, encoding="utf-8") as f:
                    text += f.read()
        self.assertIn('#include "reduce_instance_adapter.hpp"', text)
        self.assertEqual(text.count("make_reduce_record<"), len(insts))

    def test_norm_rows_in_flight(self):
        doc, path = load_rowwise("norm.json")
        insts = expand_rowwise(doc, path)["sm_90a"]
        staged = [i for i in insts if "rows_in_flight" in i["tile"]]
        self.assertTrue(staged)
        import rowwise  # noqa: E402
        for inst in staged:
            self.assertIn(f"_f{inst['tile']['rows_in_flight']}_v16", inst["name"])
            self.assertTrue(rowwise.kernel_type(generate, inst).endswith(
                ", ck_tile::norm_kind::either, {}>".format(inst["tile"]["rows_in_flight"])))
        tile = {"rows_per_block": 1, "warps_per_row": 8, "repeat": 2, "vector": True}
        for bad in [{"rows_in_flight": 9}, {"rows_in_flight": 2, "rows_per_block": 2},
                    {"rows_in_flight": 2, "vector": False}]:
            doc, path = load_rowwise("norm.json")
            fam = self.family(doc, "block_per_row_wide_staged")
            fam["tiles"] = [dict(tile, **bad)]
            self.expect_error(doc, path, "rows_in_flight")
        doc, path = load_rowwise("softmax.json")
        doc["families"][-1]["tiles"] = [dict(tile, rows_in_flight=2)]
        self.expect_error(doc, path, "norm tile option")

    def expect_error(self, doc, path, *fragments, targets=("sm_90a",)):
        with self.assertRaises(generate.GenError) as ctx:
            expand_rowwise(doc, path, "ci", targets)
        msg = str(ctx.exception)
        self.assertIn(os.path.basename(path), msg)
        for f in fragments:
            self.assertIn(f, msg)

    @staticmethod
    def family(doc, name):
        return next(f for f in doc["families"] if f["name"] == name)

    def test_reduce_errors_name_the_family(self):
        doc, path = load_rowwise("reduce.json")
        doc["families"][0]["kernel"] = "row"
        doc["families"][0]["tiles"] = [{"rows_per_block": 1, "warps_per_row": 4, "repeat": 4,
                                        "vector": False}]
        self.expect_error(doc, path, "family 'general'", "must use the strided kernel")
        doc, path = load_rowwise("reduce.json")
        self.family(doc, "row_any_alignment")["kernel"] = "diagonal"
        self.expect_error(doc, path, "family 'row_any_alignment'", "'diagonal'")
        doc, path = load_rowwise("reduce.json")
        self.family(doc, "column_any_alignment")["tiles"] = [
            {"warps": 8, "inner_lanes": 3, "repeat": 4, "vector": False}]
        self.expect_error(doc, path, "family 'column_any_alignment'", "inner_lanes 3")
        doc, path = load_rowwise("reduce.json")
        self.family(doc, "column")["tiles"] = [{"warps": 8, "inner_lanes": 4, "repeat": 16,
                                                "vector": True}]
        self.expect_error(doc, path, "family 'column'", "spill registers")
        doc, path = load_rowwise("reduce.json")
        self.family(doc, "column")["tiles"] = [{"warps": 40, "inner_lanes": 4, "repeat": 1,
                                                "vector": True}]
        self.expect_error(doc, path, "threads per block")
        doc, path = load_rowwise("reduce.json")
        doc["families"][0]["types"] = ["f16_f16"]
        self.expect_error(doc, path, "has no general instance")
        doc, path = load_rowwise("reduce.json")
        doc["type_combinations"]["bad"] = {"x": "int8", "y": "fp32"}
        self.expect_error(doc, path, "type combination 'bad'", "'int8'")

    def test_row_errors(self):
        doc, path = load_rowwise("softmax.json")
        doc["families"][0]["tiles"][0]["vector"] = True
        self.expect_error(doc, path, "family 'general'", "vector false")
        doc, path = load_rowwise("norm.json")
        self.family(doc, "block_per_row")["tiles"][0]["repeat"] = 32
        self.expect_error(doc, path, "spill registers")
        # Short rows: lanes_per_row must divide the warp and fill whole warps of rows.
        doc, path = load_rowwise("softmax.json")
        self.family(doc, "rows_per_warp")["tiles"][0]["lanes_per_row"] = 6
        self.expect_error(doc, path, "lanes_per_row 6 does not divide the warp")
        doc, path = load_rowwise("softmax.json")
        self.family(doc, "rows_per_warp")["tiles"][0]["rows_per_block"] = 6
        self.expect_error(doc, path, "rows_per_block 6 is not a multiple of the 4 rows")
        doc, path = load_rowwise("softmax.json")
        self.family(doc, "rows_per_warp")["tiles"][0]["warps_per_row"] = 2
        self.expect_error(doc, path, "need warps_per_row 1")
        doc, path = load_rowwise("softmax.json")
        insts = expand_rowwise(doc, path)["sm_90a"]
        short = [i for i in insts if i["family"] == "rows_per_warp"]
        self.assertTrue(short)
        self.assertTrue(all(i["threads"] == 128 and "_l8_" in i["name"] for i in short))


class Grouping(unittest.TestCase):
    def test_groups_are_balanced_and_partition_the_instances(self):
        insts = generate.expand(load(), GEMM_JSON, "full", ["sm_90a"])["sm_90a"]
        groups = generate.group_instances(insts, 8)
        self.assertEqual(len(groups), 8)
        names = sorted(i["name"] for g in groups for i in g)
        self.assertEqual(names, sorted(i["name"] for i in insts))
        costs = [sum(generate.compile_cost(i) for i in g) for g in groups]
        self.assertLessEqual(max(costs) - min(costs), max(generate.compile_cost(i) for i in insts))

    def test_hopper_instances_compile_alone(self):
        insts = generate.expand(load(), GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        units = generate.translation_units(insts, 4)
        names = sorted(i["name"] for u in units for i in u)
        self.assertEqual(names, sorted(i["name"] for i in insts))
        hopper = [u for u in units if any(i.get("kernel") == "wgmma" for i in u)]
        self.assertEqual(len(hopper), sum(i.get("kernel") == "wgmma" for i in insts))
        self.assertGreater(len(hopper), 1)
        self.assertTrue(all(len(u) == 1 for u in hopper))
        self.assertEqual(len(units) - len(hopper), 4)
        self.assertTrue(all(units))

    def test_units_that_must_not_spill_are_the_hopper_epilogues_without_c(self):
        insts = generate.expand(load(), GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        units = generate.translation_units(insts, 4)
        kept = [u[0]["name"] for u in units if generate.must_not_spill(u)]
        self.assertTrue(any(n.endswith("_alpha") for n in kept))
        self.assertTrue(any(n.endswith("_bias") for n in kept))
        self.assertTrue(any(n.endswith("_bias_gelu_tanh") for n in kept))
        for u in units:
            wgmma = u[0].get("kernel") == "wgmma"
            e = u[0]["epilogue"]
            expected = wgmma and (e == "alpha" or (e.startswith("bias") and not e.endswith("_c")))
            self.assertEqual(generate.must_not_spill(u), expected, u[0]["name"])
        self.assertFalse(generate.must_not_spill([]))
        with tempfile.TemporaryDirectory() as d:
            no_spill = set()
            files = generate.generate(GEMM_JSON, "ci", ["sm_90a"], d, 2, no_spill=no_spill)
            self.assertEqual(len(no_spill), len(kept))
            self.assertTrue(no_spill <= set(files["sm_90a"]))
            for path in no_spill:
                with open(path, encoding="utf-8") as f:
                    self.assertNotRegex(f.read(), r'"gemm_wgmma_[a-z0-9_]*_(fused|none|c)"')

    def test_cli_lists_the_sources_that_must_not_spill(self):
        import contextlib
        import io
        with tempfile.TemporaryDirectory() as d:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(generate.main(["--instances", GEMM_JSON, "--set", "ci",
                                                "--targets", "sm_90a", "--out-dir", d,
                                                "--list-sources"]), 0)
            lines = out.getvalue().splitlines()
            sources = {ln.split("=", 1)[1] for ln in lines if ln.startswith("sm_90a=")}
            no_spill = [ln.split("=", 1)[1] for ln in lines if ln.startswith("no-spill=")]
            self.assertTrue(no_spill)
            self.assertTrue(set(no_spill) <= sources)
            self.assertEqual(len(lines), len(sources) + len(no_spill))

    def test_generate_writes_sources_and_is_idempotent(self):
        rowwise_lists = [os.path.join(ROOT, "instances", n)
                         for n in ("norm.json", "softmax.json", "reduce.json")]
        with tempfile.TemporaryDirectory() as d:
            files = generate.generate(GEMM_JSON, "ci", ["sm_90a", "gfx90a"], d, 3, rowwise_lists)
            self.assertTrue(any("rowwise_group_" in f for f in files["sm_90a"]))
            self.assertEqual(set(files), {"sm_90a", "gfx90a"})
            table = files["sm_90a"][-1]
            self.assertTrue(table.endswith("instance_table.cpp"))
            stamp = os.path.getmtime(table)
            with open(table, encoding="utf-8") as f:
                text = f.read()
            self.assertIn("cktile_kernel_library_get_table", text)
            generate.generate(GEMM_JSON, "ci", ["sm_90a", "gfx90a"], d, 3, rowwise_lists)
            self.assertEqual(os.path.getmtime(table), stamp, "unchanged files are not rewritten")

    def test_name_filter_builds_only_the_matching_instances_of_every_op(self):
        rowwise_lists = [os.path.join(ROOT, "instances", "norm.json")]
        wanted = r"^gemm_wgmma_f16f16_f16_accf32_rc_128x256"
        with tempfile.TemporaryDirectory() as d:
            files = generate.generate(GEMM_JSON, "ci", ["sm_90a"], d, 2, rowwise_lists,
                                      name_filter=wanted)
            sources = ""
            for path in files["sm_90a"]:
                with open(path, encoding="utf-8") as f:
                    sources += f.read()
        all_names = [i["name"] for i in
                     generate.expand(load(), GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]]
        kept = [n for n in all_names if n.startswith(wanted[1:])]
        self.assertGreaterEqual(len(kept), 2)
        for n in all_names:
            self.assertEqual(f'"{n}"' in sources, n in kept, n)
        self.assertNotIn('"norm_', sources)  # norm.json's instances were all filtered out

    def test_name_filter_that_keeps_nothing_or_does_not_compile_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            for bad, fragment in (("^no_such_instance$", "matches no instance"),
                                  ("gemm_(", "instance filter")):
                with self.assertRaises(generate.GenError) as ctx:
                    generate.generate(GEMM_JSON, "ci", ["sm_90a"], d, 2, name_filter=bad)
                self.assertIn(fragment, str(ctx.exception))
            self.assertEqual(generate.main(["--instances", GEMM_JSON, "--set", "ci", "--targets",
                                            "sm_90a", "--out-dir", d, "--filter", "^nothing"]),
                             1)

    def test_cli_reports_errors_with_status_1(self):
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "bad.json")
            with open(bad, "w", encoding="utf-8") as f:
                f.write("{")
            self.assertEqual(generate.main(["--instances", bad, "--set", "ci", "--targets",
                                            "sm_90a", "--out-dir", d]), 1)


class WgmmaFamilies(unittest.TestCase):
    def family(self, **over):
        fam = {"name": "h", "kernel": "wgmma", "sets": ["ci"], "targets": ["sm_90a"],
               "types": ["f16"], "layouts": [["row", "col"], ["col", "row"]],
               "epilogues": ["fused"], "index_bits": [64],
               "tiles": [{"block": [128, 256], "stages": 4}]}
        fam.update(over)
        doc = load()
        doc["families"] = [f for f in doc["families"] if f["kernel"] == "simt"] + [fam]
        return doc

    def expect_error(self, doc, *fragments):
        with self.assertRaises(generate.GenError) as ctx:
            generate.expand(doc, GEMM_JSON, "ci", ["sm_90a"])
        for f in fragments:
            self.assertIn(f, str(ctx.exception))

    def test_names_encode_the_configuration(self):
        insts = generate.expand(self.family(), GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        names = sorted(i["name"] for i in insts if i.get("kernel") == "wgmma")
        self.assertEqual(names, ["gemm_wgmma_f16f16_f16_accf32_cr_128x256x64_s4_fused",
                                 "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_fused"])

    def test_alpha_only_epilogue(self):
        insts = generate.expand(self.family(epilogues=["none", "alpha"], layouts=[["row", "col"]]),
                                GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        wgmma = sorted((i for i in insts if i.get("kernel") == "wgmma"), key=lambda i: i["name"])
        self.assertEqual([i["name"] for i in wgmma],
                         ["gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_alpha",
                          "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_none"])
        self.assertTrue(generate.wgmma_kernel_type(wgmma[0]).endswith(">, false, true>"))
        self.assertTrue(generate.wgmma_kernel_type(wgmma[1]).endswith(">, false>"))

    def test_bias_only_epilogue(self):
        insts = generate.expand(self.family(epilogues=["fused", "bias"], layouts=[["row", "col"]]),
                                GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        wgmma = sorted((i for i in insts if i.get("kernel") == "wgmma"), key=lambda i: i["name"])
        self.assertEqual([i["name"] for i in wgmma],
                         ["gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_bias",
                          "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_fused"])
        self.assertTrue(generate.wgmma_kernel_type(wgmma[0]).endswith(">, true, false, true>"))
        self.assertTrue(generate.wgmma_kernel_type(wgmma[1]).endswith(">, true>"))

    def test_bias_and_one_activation_epilogues(self):
        insts = generate.expand(
            self.family(epilogues=["bias_gelu_tanh", "bias_silu"], layouts=[["row", "col"]]),
            GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        wgmma = sorted((i for i in insts if i.get("kernel") == "wgmma"), key=lambda i: i["name"])
        self.assertEqual([i["name"] for i in wgmma],
                         ["gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_bias_gelu_tanh",
                          "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_bias_silu"])
        self.assertTrue(generate.wgmma_kernel_type(wgmma[0]).endswith(
            ">, true, false, true, ck_tile::gemm_activation::gelu_tanh>"))
        self.assertTrue(generate.wgmma_kernel_type(wgmma[1]).endswith(
            ">, true, false, true, ck_tile::gemm_activation::silu>"))
        self.expect_error(self.family(epilogues=["bias_tanh"]), "bias_tanh")

    def test_bias_and_c_epilogue(self):
        insts = generate.expand(
            self.family(epilogues=["bias", "bias_c"], layouts=[["row", "col"]],
                        tiles=[{"block": [128, 256], "stages": 4},
                               {"block": [64, 128], "stages": 8, "schedule": "pingpong"}]),
            GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        wgmma = sorted((i for i in insts if i.get("kernel") == "wgmma"), key=lambda i: i["name"])
        self.assertEqual([i["name"] for i in wgmma],
                         ["gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_bias",
                          "gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_bias_c",
                          "gemm_wgmma_f16f16_f16_accf32_rc_64x128x64_s8_pp_bias",
                          "gemm_wgmma_f16f16_f16_accf32_rc_64x128x64_s8_pp_bias_c"])
        self.assertTrue(generate.wgmma_kernel_type(wgmma[1]).endswith(
            ">, true, false, true, ck_tile::gemm_activation::none, true>"))
        self.assertTrue(generate.wgmma_kernel_type(wgmma[0]).endswith(">, true, false, true>"))

    def test_bias_activation_and_c_epilogue(self):
        insts = generate.expand(
            self.family(epilogues=["bias_gelu_tanh_c", "bias_silu_c"], layouts=[["row", "col"]],
                        tiles=[{"block": [192, 192], "stages": 4, "cluster": 2}]),
            GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        wgmma = sorted((i for i in insts if i.get("kernel") == "wgmma"), key=lambda i: i["name"])
        self.assertEqual([i["name"] for i in wgmma],
                         ["gemm_wgmma_f16f16_f16_accf32_rc_192x192x64_s4_c2_bias_gelu_tanh_c",
                          "gemm_wgmma_f16f16_f16_accf32_rc_192x192x64_s4_c2_bias_silu_c"])
        self.assertTrue(generate.wgmma_kernel_type(wgmma[0]).endswith(
            ">, true, false, true, ck_tile::gemm_activation::gelu_tanh, true>"))
        self.assertTrue(generate.wgmma_kernel_type(wgmma[1]).endswith(
            ">, true, false, true, ck_tile::gemm_activation::silu, true>"))
        # C's rules hold for every epilogue that reads it.
        self.expect_error(self.family(epilogues=["bias_relu_c"], layouts=[["row", "col"]],
                                      tiles=[{"block": [192, 256], "stages": 3, "cluster": 2}]),
                          "'bias_relu_c' epilogue reads C", "at most 144 per thread")
        self.expect_error(self.family(epilogues=["bias_tanh_c"]), "bias_tanh_c")

    def test_the_bias_and_c_epilogue_needs_registers_for_c(self):
        # The 192x192 pair holds 144 accumulators per thread (C from the boxes beside them),
        # 192x256 192.
        insts = generate.expand(self.family(epilogues=["bias_c"], layouts=[["row", "col"]],
                                            tiles=[{"block": [192, 192], "stages": 4,
                                                    "cluster": 2}]),
                                GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        self.assertIn("gemm_wgmma_f16f16_f16_accf32_rc_192x192x64_s4_c2_bias_c",
                      [i["name"] for i in insts])
        self.expect_error(self.family(epilogues=["bias_c"], layouts=[["row", "col"]],
                                      tiles=[{"block": [192, 256], "stages": 3, "cluster": 2}]),
                          "at most 144 per thread", "192")
        self.assertEqual(generate.wgmma_accumulators([128, 256]), 128)
        self.assertEqual(generate.wgmma_accumulators([192, 128]), 96)
        self.expect_error(self.family(types=["i8"], layouts=[["row", "col"]],
                                      epilogues=["bias_c"]), "'bias_c' epilogue is float")

    def test_the_bias_and_c_epilogue_needs_box_slots_for_c(self):
        # Five stages of the 128x192 pair leave room for one output chunk per consumer, four
        # for two (gemm_wgmma_policy's d_buffers).
        self.expect_error(self.family(epilogues=["bias_c"], layouts=[["row", "col"]],
                                      tiles=[{"block": [128, 192], "stages": 5, "cluster": 2}]),
                          "box slots", "5 stages")
        self.assertTrue(generate.wgmma_box_slots([128, 192], 4))
        self.assertTrue(generate.wgmma_box_slots([128, 256], 4))
        self.assertFalse(generate.wgmma_box_slots([128, 256], 5))
        self.assertTrue(generate.wgmma_box_slots([64, 128], 8, "pingpong"))
        self.expect_error(self.family(types=["f16_f32"], layouts=[["row", "col"]],
                                      epilogues=["bias_c"]), "16-bit D", "fp32 D")

    def test_the_bias_only_epilogue_computes_in_float(self):
        self.expect_error(self.family(types=["i8"], layouts=[["row", "col"]], epilogues=["bias"]),
                          "float only")
        self.expect_error(self.family(types=["i8"], layouts=[["row", "col"]],
                                      epilogues=["bias_relu"]), "'bias_relu' epilogue is float")

    def test_block_k_is_one_swizzle_span_of_the_input_type(self):
        doc = self.family(types=["e4m3_f16"], layouts=[["row", "col"]])
        insts = generate.expand(doc, GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        self.assertEqual([i["block"] for i in insts if i.get("kernel") == "wgmma"],
                         [[128, 256, 128]])

    def test_only_sm_90a(self):
        self.expect_error(self.family(targets=["sm_90"]), "sm_90a")
        self.expect_error(self.family(targets=["*"]), "sm_90a")
        insts = generate.expand(self.family(), GEMM_JSON, "ci", ["sm_80"])["sm_80"]
        self.assertFalse([i for i in insts if i.get("kernel") == "wgmma"])

    def test_eight_bit_inputs_are_k_major_only(self):
        self.expect_error(self.family(types=["i8"]), "K-major only")

    def test_fp32_inputs_need_compute_tf32(self):
        self.expect_error(self.family(types=["f32"], layouts=[["row", "col"]]), "compute tf32")

    def test_tf32_inputs_are_k_major_32_per_stage(self):
        self.expect_error(self.family(types=["f32_tf32"]), "K-major only")
        doc = self.family(types=["f32_tf32"], layouts=[["row", "col"]],
                          epilogues=["fused", "alpha"])
        insts = generate.expand(doc, GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        wgmma = sorted((i for i in insts if i.get("kernel") == "wgmma"), key=lambda i: i["name"])
        self.assertEqual([i["name"] for i in wgmma],
                         ["gemm_wgmma_f32f32_f32_acctf32_rc_128x256x32_s4_alpha",
                          "gemm_wgmma_f32f32_f32_acctf32_rc_128x256x32_s4_fused"])
        self.assertIn("ck_tile::gemm_math::tf32>", generate.wgmma_kernel_type(wgmma[0]))
        # Half the 16-bit MMA's rate, as the tensor cores' peaks are.
        self.assertEqual(generate.WGMMA_MATH_RATE[4] * 2, generate.WGMMA_MATH_RATE[2])

    def test_tile_shapes_and_shared_memory(self):
        self.expect_error(self.family(tiles=[{"block": [256, 128], "stages": 4}]),
                          "M 64, 128 or 192")
        self.expect_error(self.family(tiles=[{"block": [128, 104], "stages": 4}]), "N 64")
        self.expect_error(self.family(tiles=[{"block": [128, 256], "stages": 5}]),
                          "shared memory")
        self.expect_error(self.family(tiles=[{"block": [128, 256], "stages": 1}]), "2 to 32")
        self.expect_error(self.family(tiles=[{"block": [128, 256], "stages": 4, "cluster": 4}]),
                          "1 or 2")
        self.expect_error(self.family(tiles=[{"block": [128, 256], "stages": 4,
                                              "schedule": "pingpong"}]), "64 rows")
        self.expect_error(self.family(tiles=[{"block": [64, 256], "stages": 4,
                                              "schedule": "zigzag"}]), "not one of")
        insts = generate.expand(self.family(tiles=[{"block": [64, 256], "stages": 5,
                                                    "schedule": "pingpong"}]),
                                GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        pp = [i for i in insts if i["name"].endswith("_pp_fused")]
        self.assertEqual(len(pp), 2)
        self.assertEqual(pp[0]["threads"], 384)
        # A row-major B of 192 columns: pairs split it along K (three 64-column boxes), and
        # 192-row tiles read it in 32-column groups (two consumers of 96 columns).
        rr = [["row", "row"]]
        insts = generate.expand(self.family(layouts=rr,
                                            tiles=[{"block": [128, 192], "stages": 4,
                                                    "cluster": 2},
                                                   {"block": [192, 192], "stages": 4,
                                                    "cluster": 2}]),
                                GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        names = {i["name"]: i for i in insts}
        self.assertEqual(names["gemm_wgmma_f16f16_f16_accf32_rr_192x192x64_s4_c2_fused"]
                         ["threads"], 384)
        self.assertIn("gemm_wgmma_f16f16_f16_accf32_rr_128x192x64_s4_c2_fused", names)
        insts = generate.expand(self.family(layouts=rr, tiles=[{"block": [64, 64], "stages": 8,
                                                                  "cluster": 2}]),
                                GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        self.assertEqual([i["name"] for i in insts if i.get("kernel") == "wgmma"],
                         ["gemm_wgmma_f16f16_f16_accf32_rr_64x64x64_s8_c2_fused"])
        self.expect_error(self.family(tiles=[{"block": [192, 64], "stages": 3}]),
                          "two consumers take half the columns")
        insts = generate.expand(self.family(tiles=[{"block": [128, 256], "stages": 4,
                                                    "cluster": 2}]),
                                GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        self.assertIn("gemm_wgmma_f16f16_f16_accf32_rc_128x256x64_s4_c2_fused",
                      [i["name"] for i in insts])
        self.expect_error(self.family(tiles=[{"block": [128, 256], "stages": 4, "warps": [1]}]),
                          "unknown key")

    def test_160_column_tiles(self):
        # 128 rows and the compact epilogues only; B either way (a row-major B in 32-column
        # groups).
        tile = [{"block": [128, 160], "stages": 5, "cluster": 2}]
        insts = generate.expand(self.family(layouts=[["row", "col"], ["row", "row"]],
                                            epilogues=["alpha", "bias_c"], tiles=tile),
                                GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        self.assertEqual(sorted(i["name"] for i in insts if i.get("kernel") == "wgmma"),
                         ["gemm_wgmma_f16f16_f16_accf32_rc_128x160x64_s5_c2_alpha",
                          "gemm_wgmma_f16f16_f16_accf32_rc_128x160x64_s5_c2_bias_c",
                          "gemm_wgmma_f16f16_f16_accf32_rr_128x160x64_s5_c2_alpha",
                          "gemm_wgmma_f16f16_f16_accf32_rr_128x160x64_s5_c2_bias_c"])
        for epilogue in ("fused", "none"):
            self.expect_error(self.family(layouts=[["row", "col"]], epilogues=[epilogue],
                                          tiles=tile), "compact epilogues only")
        self.expect_error(self.family(layouts=[["row", "col"]], epilogues=["alpha"],
                                      tiles=[{"block": [64, 160], "stages": 8}]), "128 rows")
        self.expect_error(self.family(layouts=[["row", "col"]], epilogues=["alpha"],
                                      tiles=[{"block": [128, 160], "stages": 6,
                                              "cluster": 2}]), "shared memory")

    def test_tiles_off_the_multiples_of_32(self):
        # 144 and 112 columns: 128 rows, the compact epilogues, B column-major, D of 16 bits or
        # more.
        rc = [["row", "col"]]
        tiles = [{"block": [128, 144], "stages": 5, "cluster": 2},
                 {"block": [128, 112], "stages": 6}]
        insts = generate.expand(self.family(layouts=rc, epilogues=["alpha", "bias_c"],
                                            tiles=tiles),
                                GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        self.assertEqual(sorted(i["name"] for i in insts if i.get("kernel") == "wgmma"),
                         ["gemm_wgmma_f16f16_f16_accf32_rc_128x112x64_s6_alpha",
                          "gemm_wgmma_f16f16_f16_accf32_rc_128x112x64_s6_bias_c",
                          "gemm_wgmma_f16f16_f16_accf32_rc_128x144x64_s5_c2_alpha",
                          "gemm_wgmma_f16f16_f16_accf32_rc_128x144x64_s5_c2_bias_c"])
        self.expect_error(self.family(layouts=[["row", "row"]], epilogues=["alpha"],
                                      tiles=tiles[:1]), "column-major only")
        self.expect_error(self.family(layouts=rc, epilogues=["fused"], tiles=tiles[1:]),
                          "compact epilogues only")
        self.expect_error(self.family(layouts=rc, epilogues=["alpha"],
                                      tiles=[{"block": [64, 144], "stages": 8}]), "128 rows")
        self.expect_error(self.family(layouts=rc, epilogues=["alpha"],
                                      tiles=[{"block": [128, 136], "stages": 5}]),
                          "block is [M, N]")
        self.expect_error(self.family(types=["i8_i8"], layouts=rc, epilogues=["alpha"],
                                      tiles=tiles[:1]), "8-bit D")
        # 80 and 176 columns likewise; 96 is three groups of 32 and reads a row-major B.
        narrow = [{"block": [128, 80], "stages": 7, "cluster": 2},
                  {"block": [128, 96], "stages": 6, "cluster": 2},
                  {"block": [128, 176], "stages": 5, "cluster": 2}]
        insts = generate.expand(self.family(layouts=rc, epilogues=["alpha"], tiles=narrow),
                                GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        self.assertEqual(sorted(i["name"] for i in insts if i.get("kernel") == "wgmma"),
                         ["gemm_wgmma_f16f16_f16_accf32_rc_128x176x64_s5_c2_alpha",
                          "gemm_wgmma_f16f16_f16_accf32_rc_128x80x64_s7_c2_alpha",
                          "gemm_wgmma_f16f16_f16_accf32_rc_128x96x64_s6_c2_alpha"])
        for tile in (narrow[0], narrow[2]):
            self.expect_error(self.family(layouts=[["row", "row"]], epilogues=["alpha"],
                                          tiles=[tile]), "column-major only")
        generate.expand(self.family(layouts=[["row", "row"]], epilogues=["alpha"],
                                    tiles=narrow[1:2]), GEMM_JSON, "ci", ["sm_90a"])

    def test_short_a_tiles(self):
        rc = [["row", "col"]]
        insts = generate.expand(self.family(layouts=rc,
                                            tiles=[{"block": [64, 64], "stages": 19,
                                                    "schedule": "pingpong", "rows_a": 16}]),
                                GEMM_JSON, "ci", ["sm_90a"])["sm_90a"]
        short = [i for i in insts if i["name"].endswith("_s19_pp_a16_fused")]
        self.assertEqual(len(short), 1)
        self.assertEqual(short[0]["rows_a"], 16)
        # 19 stages of (16 + 64) rows of 128 bytes fit where 64-row A tiles would not.
        self.assertLessEqual(short[0]["smem"], generate.WGMMA_SMEM_LIMIT)
        self.assertGreater(generate.wgmma_shared_memory([64, 64], 19, "pingpong"),
                           generate.WGMMA_SMEM_LIMIT)
        self.assertIn(", ck_tile::gemm_wgmma_schedule::pingpong, 8, 16>",
                      generate.wgmma_kernel_type(short[0]))
        for bad, why in [({"rows_a": 12}, "8 to 56"), ({"rows_a": 64 + 8}, "8 to 56"),
                         ({"block": [128, 64], "rows_a": 16, "schedule": "cooperative"}, "block M 64"),
                         ({"cluster": 2, "block": [64, 128], "rows_a": 16}, "no cluster")]:
            tile = {"block": [64, 64], "stages": 8, "schedule": "pingpong"}
            tile.update(bad)
            self.expect_error(self.family(layouts=rc, tiles=[tile]), why)
        self.expect_error(self.family(layouts=[["col", "col"]],
                                      tiles=[{"block": [64, 64], "stages": 8, "rows_a": 16}]),
                          "row-major")

    def test_b_fed_by_the_threads(self):
        rc = [["row", "col"]]
        tile = {"block": [64, 128], "stages": 4, "schedule": "pingpong", "b_feed": "threads"}
        insts = generate.expand(self.family(layouts=rc, tiles=[tile]), GEMM_JSON, "ci",
                                ["sm_90a"])["sm_90a"]
        bt = [i for i in insts if i.get("kernel") == "wgmma"]
        self.assertEqual([i["name"] for i in bt],
                         ["gemm_wgmma_f16f16_f16_accf32_rc_64x128x64_s4_pp_bt_fused"])
        self.assertEqual(bt[0]["b_feed"], "threads")
        self.assertIn(", ck_tile::gemm_wgmma_schedule::pingpong, 4, 64, "
                      "ck_tile::gemm_wgmma_b_feed::threads>", generate.wgmma_kernel_type(bt[0]))
        # The raw ring: 4 slots of 128 rows of 144 bytes (72 KiB) and a KiB of barriers on top
        # of the stages.
        self.assertEqual(bt[0]["smem"], generate.wgmma_shared_memory([64, 128], 4, "pingpong")
                         + 4 * 128 * 144 + 1024)
        self.assertEqual(generate.wgmma_raw_bytes([64, 64], "threads"), 8 * 64 * 144 + 1024)
        short = dict(tile, block=[64, 64], stages=10, rows_a=16)
        insts = generate.expand(self.family(layouts=rc, tiles=[short]), GEMM_JSON, "ci",
                                ["sm_90a"])["sm_90a"]
        self.assertIn("gemm_wgmma_f16f16_f16_accf32_rc_64x64x64_s10_pp_a16_bt_fused",
                      [i["name"] for i in insts])
        for bad, why in [({"b_feed": "registers"}, "not one of"),
                         ({"block": [128, 256], "schedule": "cooperative"}, "64 or 128 columns"),
                         ({"block": [128, 128], "schedule": "cooperative", "cluster": 2},
                          "one CTA's"),
                         ({"stages": 8}, "shared memory")]:
            t = dict(tile)
            t.update(bad)
            self.expect_error(self.family(layouts=rc, tiles=[t]), why)
        self.expect_error(self.family(layouts=[["row", "row"]], tiles=[tile]), "K-major B only")

    def test_sources_use_the_wgmma_record(self):
        with tempfile.TemporaryDirectory() as d:
            files = generate.generate(GEMM_JSON, "ci", ["sm_90a"], d, 2)
            text = ""
            for name in files["sm_90a"]:
                with open(name, encoding="utf-8") as f:
                    text += f.read()
            self.assertIn("make_gemm_wgmma_record", text)
            self.assertIn("ck_tile::gemm_wgmma_policy<128, 256, 4, 1, "
                          "ck_tile::gemm_wgmma_schedule::cooperative>", text)


if __name__ == "__main__":
    unittest.main()
