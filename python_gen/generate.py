#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Expands declarative instance lists (instances/<op>.json) into C++ sources.

    generate.py --instances instances/gemm.json --set ci --targets "sm_90a;gfx90a" \
                --out-dir <build>/generated [--groups N] [--list-sources]

Per target it writes <out-dir>/<target>/gemm_group_<i>.cpp (instances, grouped so the groups
take about equally long to compile; each Hopper instance in a file of its own, see
translation_units) and <out-dir>/<target>/instance_table.cpp (the table the kernel library
hands to libcktile.so). Files are rewritten only when their content changes.
Every problem in the lists is an error naming the file and the entry; nothing is skipped
silently. Standard library only.
"""

import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

FORMAT_VERSION = 1

# What a target allows. Static shared memory is what a block may declare without opting in
# (the SIMT kernels); dynamic shared memory is what a block may use after opting in (the tile
# kernels: CUDA's sharedMemPerBlockOptin, the whole LDS on AMD).
TARGETS = {
    "sm_80": {"platform": "nvidia", "warp": 32, "static_smem": 48 * 1024,
              "dynamic_smem": 163 * 1024, "max_threads": 1024},
    "sm_86": {"platform": "nvidia", "warp": 32, "static_smem": 48 * 1024,
              "dynamic_smem": 99 * 1024, "max_threads": 1024},
    "sm_89": {"platform": "nvidia", "warp": 32, "static_smem": 48 * 1024,
              "dynamic_smem": 99 * 1024, "max_threads": 1024},
    "sm_90": {"platform": "nvidia", "warp": 32, "static_smem": 48 * 1024,
              "dynamic_smem": 227 * 1024, "max_threads": 1024},
    "sm_90a": {"platform": "nvidia", "warp": 32, "static_smem": 48 * 1024,
               "dynamic_smem": 227 * 1024, "max_threads": 1024},
    "gfx90a": {"platform": "amd", "warp": 64, "static_smem": 64 * 1024,
               "dynamic_smem": 64 * 1024, "max_threads": 1024},
    "gfx940": {"platform": "amd", "warp": 64, "static_smem": 64 * 1024,
               "dynamic_smem": 64 * 1024, "max_threads": 1024},
    "gfx942": {"platform": "amd", "warp": 64, "static_smem": 64 * 1024,
               "dynamic_smem": 64 * 1024, "max_threads": 1024},
}

# data type name -> (C API enum, C++ element type, bytes). The C++ types are ck_tile's numeric
# types (core/numeric); fp8_t is OCP E4M3FN and bf8_t OCP E5M2, the C API's FP8 formats.
DATATYPES = {
    "fp16": ("CKTILE_DATATYPE_FP16", "ck_tile::half_t", 2),
    "bf16": ("CKTILE_DATATYPE_BF16", "ck_tile::bf16_t", 2),
    "fp32": ("CKTILE_DATATYPE_FP32", "float", 4),
    "fp8_e4m3": ("CKTILE_DATATYPE_FP8_E4M3", "ck_tile::fp8_t", 1),
    "fp8_e5m2": ("CKTILE_DATATYPE_FP8_E5M2", "ck_tile::bf8_t", 1),
    "int8": ("CKTILE_DATATYPE_INT8", "std::int8_t", 1),
    "int32": ("CKTILE_DATATYPE_INT32", "std::int32_t", 4),
    # A compute type only: fp32 inputs multiplied as TF32 on matrix instructions.
    "tf32": ("CKTILE_DATATYPE_TF32", "float", 4),
}
SHORT = {"fp16": "f16", "bf16": "bf16", "fp32": "f32", "fp8_e4m3": "e4m3",
         "fp8_e5m2": "e5m2", "int8": "i8", "int32": "i32", "tf32": "tf32"}
LAYOUTS = {"row": ("CKTILE_LAYOUT_ROW_MAJOR", "ck_tile::gemm_layout::row", "r"),
           "col": ("CKTILE_LAYOUT_COL_MAJOR", "ck_tile::gemm_layout::col", "c"),
           "any": ("CKTILE_LAYOUT_ANY", "ck_tile::gemm_layout::any", "x")}
# Epilogue sets, by whether the fused operations (bias, activation, multi-D) are compiled in.
# "alpha" (wgmma kernels only): D = alpha * A * B and nothing else; "bias" (wgmma kernels only):
# that plus a bias per row or column, without an activation or multi-D (the fused operations'
# smallest part); "bias_<activation>" (wgmma kernels only): act(that) with the one activation
# named, which every problem it runs must ask for; "bias_c" (wgmma kernels only): "bias" plus
# beta * C with beta != 0, C row-major, loaded by the copy engine's boxes and read in the
# registers (16-bit D, tiles of at most 144 accumulators per thread); see gemm_wgmma_kernel.hpp;
# "bias_<activation>_c": act(alpha * A * B + beta * C + bias), the two together.
BIAS_ACTIVATIONS = ("relu", "gelu_tanh", "gelu_erf", "silu")
EPILOGUES = {"fused": True, "none": False, "alpha": False, "bias": True, "bias_c": True,
             **{f"bias_{a}": True for a in BIAS_ACTIVATIONS},
             **{f"bias_{a}_c": True for a in BIAS_ACTIVATIONS}}
# The most fp32 accumulators per consumer thread beside which the register epilogue reads C
# (from the copy engine's boxes: the 192x192 pair's 144).
WGMMA_C_ACCUMULATORS = 144
# The epilogues of 128-row tiles whose N is off the multiples of 64 (80 to 176): the
# compact ones (the fused kernel spills beside 80 accumulators; the narrower tiles are for
# mid-sized problems' waves, where the compact kernels are the picks).
WGMMA_ODD_N_EPILOGUES = {"alpha", *(e for e in EPILOGUES if e.startswith("bias"))}
# N off the multiples of 32: B column-major only (a row-major B is read in groups of 32 or 64
# columns), D of 16 or 32 bits (16-column output chunks must be 32 bytes wide or more).
WGMMA_ODD_N = (80, 112, 144, 176)
# The epilogue sets of the kernels other than wgmma.
BASIC_EPILOGUES = {"fused", "none"}
SETS = ("ci", "full")


def reads_c(epilogue):
    """Whether a compact epilogue set reads C ("bias_c", "bias_<activation>_c")."""
    return epilogue.startswith("bias") and epilogue.endswith("_c")


TOP_KEYS = {"format_version", "op", "description", "type_combinations", "families"}
COMBO_KEYS = {"a", "b", "d", "compute"}
FAMILY_KEYS = {"name", "description", "kernel", "sets", "targets", "types", "layouts",
               "epilogues", "tiles", "index_bits", "general", "split_k"}
TILE_KEYS = {"block", "thread", "vector_k"}
# Tile kernels (matrix instructions): block tile, warp grid, shared-memory stages, schedule and
# the width of global reads (16 bytes: asynchronous copies on NVIDIA).
MMA_TILE_KEYS = {"block", "warps", "stages", "schedule", "vector_bytes"}
SCHEDULES = {"intrawave": "intra", "interwave": "inter"}
# Hopper kernels (warpgroup MMA, TMA): block [M, N] (K is one 128-byte swizzle span of the
# input type), the number of shared-memory stages and the cluster size along M (1 or 2: a pair
# of CTAs shares B's tile through TMA multicast).
WGMMA_TILE_KEYS = {"block", "stages", "cluster", "schedule", "rows_a", "b_feed"}
# How B reaches the stages (gemm_wgmma_b_feed): the copy engine, or the producer's threads
# (instance names end their tile part in _bt), which read a K-major B of any leading dimension.
WGMMA_B_FEEDS = ("copy_engine", "threads")
WGMMA_SCHEDULES = ("cooperative", "pingpong")
WGMMA_TARGETS = ("sm_90a",)
WGMMA_SMEM_LIMIT = 227 * 1024  # what an sm_90 block may opt in to
KERNELS = ("simt", "tile", "wgmma")
INTERWAVE_CHUNKS = 2  # gemm_tile_policy::InterwaveChunks


def mma_atom(platform, a_type):
    """(m, n, k) of the matrix instruction a tile kernel uses (gemm_tile_atom)."""
    size = DATATYPES[a_type][2]
    if platform == "nvidia":
        return 16, 8, 8 * (4 // size)
    return 32, 32, 2 if a_type == "fp32" else 8 if size == 2 or a_type == "int8" else 16


def lds_tile_ok(outer, inner, size):
    """gemm_lds_tile's conditions: whole 16-byte vectors, a power-of-two row of vectors."""
    pack = 16 // size
    row_bytes = inner * size
    layer = 1 if row_bytes >= 128 else 128 // row_bytes
    if inner % pack or row_bytes < 16 or outer % layer:
        return False
    line = inner // pack * layer
    return line & (line - 1) == 0


class GenError(Exception):
    """A problem in an instance list; the message names the file and the entry."""


def fnv1a64(text):
    """Permanent instance id: FNV-1a 64 of the name (never 0; 0 means 'select for me')."""
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h if h != 0 else 1


def _check_keys(where, obj, allowed, required=()):
    if not isinstance(obj, dict):
        raise GenError(f"{where}: expected an object")
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise GenError(f"{where}: unknown key(s) {', '.join(unknown)} "
                       f"(allowed: {', '.join(sorted(allowed))})")
    missing = [k for k in required if k not in obj]
    if missing:
        raise GenError(f"{where}: missing key(s) {', '.join(missing)}")


def _list_of(where, value, allowed=None, kind=str):
    if not isinstance(value, list) or not value:
        raise GenError(f"{where}: expected a non-empty list")
    for v in value:
        if not isinstance(v, kind) or isinstance(v, bool) and kind is int:
            raise GenError(f"{where}: {v!r} is not a {kind.__name__}")
        if allowed is not None and v not in allowed:
            raise GenError(f"{where}: {v!r} is not one of {', '.join(sorted(allowed))}")
    return value


def _validate_combo(where, name, combo):
    _check_keys(f"{where} type combination '{name}'", combo, COMBO_KEYS, COMBO_KEYS)
    for key in COMBO_KEYS:
        if combo[key] not in DATATYPES:
            raise GenError(f"{where} type combination '{name}': {key}={combo[key]!r} is not a "
                           f"data type ({', '.join(DATATYPES)})")
    if combo["a"] in ("int32", "tf32") or combo["b"] in ("int32", "tf32"):
        raise GenError(f"{where} type combination '{name}': int32 is an output type only, tf32 "
                       "a compute type only")
    ints = [combo[k] == "int8" for k in ("a", "b")]
    if any(ints) != all(ints):
        raise GenError(f"{where} type combination '{name}': int8 inputs cannot mix with "
                       "floating-point inputs")
    fp32_in = combo["a"] == "fp32" and combo["b"] == "fp32"
    want_compute = ("int32",) if all(ints) else ("fp32", "tf32") if fp32_in else ("fp32",)
    if combo["compute"] not in want_compute:
        raise GenError(f"{where} type combination '{name}': compute must be one of "
                       f"{', '.join(want_compute)}")
    want_d = ("int32", "int8") if all(ints) else ("fp16", "bf16", "fp32")
    if combo["d"] not in want_d:
        raise GenError(f"{where} type combination '{name}': d must be one of {', '.join(want_d)}")


def instance_name(combo, layouts, block, thread, vector_k, index_bits, epilogue):
    return ("gemm_simt_{a}{b}_{d}_acc{c}_{la}{lb}_{bm}x{bn}x{bk}_t{tm}x{tn}_v{v}_i{ib}_{e}".format(
        a=SHORT[combo["a"]], b=SHORT[combo["b"]], d=SHORT[combo["d"]],
        c=SHORT[combo["compute"]], la=LAYOUTS[layouts[0]][2], lb=LAYOUTS[layouts[1]][2],
        bm=block[0], bn=block[1], bk=block[2], tm=thread[0], tn=thread[1], v=vector_k,
        ib=index_bits, e=epilogue))


def expand(doc, path, instance_set, targets):
    """Validates `doc` (the parsed JSON of `path`) and returns {target: [instance dict]}.

    @post every instance is valid for its target; names (and ids) are unique per target."""
    where = os.path.basename(path)
    if instance_set not in SETS:
        raise GenError(f"instance set {instance_set!r}: expected one of {', '.join(SETS)}")
    for t in targets:
        if t not in TARGETS:
            raise GenError(f"target {t!r} is unknown to the generator (known: "
                           f"{', '.join(sorted(TARGETS))})")
    _check_keys(where, doc, TOP_KEYS, ("format_version", "op", "type_combinations", "families"))
    if doc["format_version"] != FORMAT_VERSION:
        raise GenError(f"{where}: format_version {doc['format_version']!r}, expected "
                       f"{FORMAT_VERSION}")
    if doc["op"] != "gemm":
        raise GenError(f"{where}: op {doc['op']!r} has no generator (known: gemm)")
    combos = doc["type_combinations"]
    if not isinstance(combos, dict) or not combos:
        raise GenError(f"{where}: type_combinations must be a non-empty object")
    for name, combo in combos.items():
        _validate_combo(where, name, combo)

    result = {t: [] for t in targets}
    seen = {t: {} for t in targets}
    families = doc["families"]
    if not isinstance(families, list) or not families:
        raise GenError(f"{where}: families must be a non-empty list")
    family_names = set()
    for idx, fam in enumerate(families):
        fw = f"{where} family #{idx}"
        _check_keys(fw, fam, FAMILY_KEYS, ("name", "kernel", "sets", "targets", "types",
                                           "layouts", "epilogues", "tiles", "index_bits"))
        fw = f"{where} family '{fam['name']}'"
        if fam["name"] in family_names:
            raise GenError(f"{fw}: duplicate family name")
        family_names.add(fam["name"])
        if fam["kernel"] not in KERNELS:
            raise GenError(f"{fw}: kernel {fam['kernel']!r} is unknown (known: "
                           f"{', '.join(KERNELS)})")
        if fam["kernel"] == "tile":
            expand_tile_family(fam, fw, combos, instance_set, targets, result, seen)
            continue
        if fam["kernel"] == "wgmma":
            expand_wgmma_family(fam, fw, combos, instance_set, targets, result, seen)
            continue
        if "split_k" in fam:
            raise GenError(f"{fw}: split_k applies to tile kernels only")
        sets = _list_of(f"{fw} sets", fam["sets"], set(SETS))
        fam_targets = _list_of(f"{fw} targets", fam["targets"], set(TARGETS) | {"*"})
        types = _list_of(f"{fw} types", fam["types"], set(combos) | {"*"})
        # The SIMT kernels compute in true fp32; a TF32 request runs on them as it is (the C API
        # lets fp32 compute serve it), so they have no instances of their own for tf32.
        if "*" in types:
            types = [t for t in combos if combos[t]["compute"] != "tf32"]
        for tname in types:
            if combos[tname]["compute"] == "tf32":
                raise GenError(f"{fw}: type combination '{tname}' computes in tf32, which only "
                               "tile kernels do (the simt kernels' fp32 instances serve tf32 "
                               "problems)")
        epilogues = _list_of(f"{fw} epilogues", fam["epilogues"], BASIC_EPILOGUES)
        index_bits = _list_of(f"{fw} index_bits", fam["index_bits"], {32, 64}, int)
        layouts = fam["layouts"]
        if not isinstance(layouts, list) or not layouts:
            raise GenError(f"{fw} layouts: expected a non-empty list of [a, b] pairs")
        for pair in layouts:
            if (not isinstance(pair, list) or len(pair) != 2
                    or any(x not in LAYOUTS for x in pair)):
                raise GenError(f"{fw} layouts: {pair!r} is not an [a, b] pair of "
                               f"{', '.join(LAYOUTS)}")
        general = fam.get("general", False)
        if not isinstance(general, bool):
            raise GenError(f"{fw} general: expected true or false")
        tiles = fam["tiles"]
        if not isinstance(tiles, list) or not tiles:
            raise GenError(f"{fw} tiles: expected a non-empty list")
        if general:
            if any(p != ["any", "any"] for p in layouts) or epilogues != ["fused"] \
                    or index_bits != [64] \
                    or any(t.get("vector_k", 1) != 1 for t in tiles if isinstance(t, dict)):
                raise GenError(f"{fw}: a general family must use layouts [any, any], epilogue "
                               "fused, index_bits 64 and vector_k 1 (it must accept every "
                               "valid problem of its types)")
        if instance_set not in sets:
            continue
        for tidx, tile in enumerate(tiles):
            tw = f"{fw} tile #{tidx}"
            _check_keys(tw, tile, TILE_KEYS, ("block", "thread"))
            block = _list_of(f"{tw} block", tile["block"], kind=int)
            thread = _list_of(f"{tw} thread", tile["thread"], kind=int)
            vector_k = tile.get("vector_k", 1)
            if len(block) != 3 or len(thread) != 2 or any(v <= 0 for v in block + thread):
                raise GenError(f"{tw}: block is [M, N, K] and thread is [M, N], all positive")
            if block[0] % thread[0] or block[1] % thread[1]:
                raise GenError(f"{tw}: thread tile {thread} does not divide block {block[:2]}")
            if not isinstance(vector_k, int) or vector_k < 1 or block[2] % vector_k:
                raise GenError(f"{tw}: vector_k {vector_k!r} must be positive and divide "
                               f"block K {block[2]}")
            threads = (block[0] // thread[0]) * (block[1] // thread[1])
            for target in targets:
                if "*" not in fam_targets and target not in fam_targets:
                    continue
                tinfo = TARGETS[target]
                if threads % tinfo["warp"] or threads > tinfo["max_threads"]:
                    raise GenError(f"{tw}: {threads} threads per block is not a multiple of "
                                   f"{target}'s warp size {tinfo['warp']} or exceeds "
                                   f"{tinfo['max_threads']}")
                for tname in types:
                    combo = combos[tname]
                    acc_bytes = 4
                    smem = acc_bytes * block[2] * ((block[0] + 1) + (block[1] + 1))
                    if smem > tinfo["static_smem"]:
                        raise GenError(f"{tw}: needs {smem} bytes of shared memory, more than "
                                       f"{target} allows per block ({tinfo['static_smem']})")
                    for pair in layouts:
                        for bits in index_bits:
                            for epi in epilogues:
                                name = instance_name(combo, pair, block, thread, vector_k,
                                                     bits, epi)
                                if name in seen[target]:
                                    raise GenError(f"{fw}: instance {name} for {target} is "
                                                   f"also produced by {seen[target][name]}")
                                seen[target][name] = fw
                                result[target].append({
                                    "name": name, "id": fnv1a64(name), "family": fam["name"],
                                    "combo": combo, "layouts": pair, "block": block,
                                    "thread": thread, "vector_k": vector_k,
                                    "index_bits": bits, "epilogue": epi, "general": general,
                                    "threads": threads, "smem": smem, "target": target})
    for target in targets:
        ids = {}
        for inst in result[target]:
            if inst["id"] in ids:
                raise GenError(f"{where}: instances {ids[inst['id']]} and {inst['name']} have "
                               "the same id; rename one")
            ids[inst["id"]] = inst["name"]
        # Every type combination the set names must have a general instance, so every valid
        # problem of those types runs.
        gen_types = {(i["combo"]["a"], i["combo"]["b"], i["combo"]["d"])
                     for i in result[target] if i["general"]}
        for inst in result[target]:
            key = (inst["combo"]["a"], inst["combo"]["b"], inst["combo"]["d"])
            if key not in gen_types:
                raise GenError(f"{where}: instance {inst['name']} for {target} has no general "
                               f"instance of its types in set {instance_set}")
    return result


def tile_instance_name(combo, layouts, tile, split_k, epilogue):
    return ("gemm_tile_{a}{b}_{d}_acc{c}_{la}{lb}_{bm}x{bn}x{bk}_w{wm}x{wn}_s{s}_{sch}_v{v}{sk}_{e}"
            .format(a=SHORT[combo["a"]], b=SHORT[combo["b"]], d=SHORT[combo["d"]],
                    c=SHORT[combo["compute"]], la=LAYOUTS[layouts[0]][2],
                    lb=LAYOUTS[layouts[1]][2], bm=tile["block"][0], bn=tile["block"][1],
                    bk=tile["block"][2], wm=tile["warps"][0], wn=tile["warps"][1],
                    s=tile["stages"], sch=SCHEDULES[tile["schedule"]], v=tile["vector_bytes"],
                    sk="_splitk" if split_k else "", e=epilogue))


def expand_tile_family(fam, fw, combos, instance_set, targets, result, seen):
    """A tile-kernel family: validated against each target's matrix instruction."""
    sets = _list_of(f"{fw} sets", fam["sets"], set(SETS))
    fam_targets = _list_of(f"{fw} targets", fam["targets"], set(TARGETS) | {"*"})
    types = _list_of(f"{fw} types", fam["types"], set(combos) | {"*"})
    if "*" in types:
        types = list(combos)
    epilogues = _list_of(f"{fw} epilogues", fam["epilogues"], BASIC_EPILOGUES)
    if fam["index_bits"] != [64]:
        raise GenError(f"{fw} index_bits: tile kernels index in 64 bits ([64])")
    if fam.get("general", False):
        raise GenError(f"{fw}: a tile family cannot be general (it needs aligned operands)")
    split_k = fam.get("split_k", False)
    if not isinstance(split_k, bool):
        raise GenError(f"{fw} split_k: expected true or false")
    layouts = fam["layouts"]
    if not isinstance(layouts, list) or not layouts or any(
            not isinstance(p, list) or len(p) != 2 or any(x not in ("row", "col") for x in p)
            for p in layouts):
        raise GenError(f"{fw} layouts: tile kernels take [a, b] pairs of row and col")
    for tname in types:
        if (combos[tname]["a"] == "fp32" or combos[tname]["b"] == "fp32") and \
                combos[tname]["compute"] != "tf32":
            raise GenError(f"{fw}: type combination '{tname}' has fp32 inputs and compute fp32; "
                           "matrix instructions round fp32 inputs to TF32, so list them with "
                           "compute tf32 (exact fp32 is the simt kernel's)")
    tiles = fam["tiles"]
    if not isinstance(tiles, list) or not tiles:
        raise GenError(f"{fw} tiles: expected a non-empty list")
    if instance_set not in sets:
        return
    for tidx, tile in enumerate(tiles):
        tw = f"{fw} tile #{tidx}"
        _check_keys(tw, tile, MMA_TILE_KEYS, ("block", "warps", "stages", "schedule"))
        tile = dict(tile)
        tile.setdefault("vector_bytes", 16)
        block = _list_of(f"{tw} block", tile["block"], kind=int)
        warps = _list_of(f"{tw} warps", tile["warps"], kind=int)
        if len(block) != 3 or len(warps) != 2 or any(v <= 0 for v in block + warps):
            raise GenError(f"{tw}: block is [M, N, K] and warps is [M, N], all positive")
        if block[0] % warps[0] or block[1] % warps[1]:
            raise GenError(f"{tw}: warps {warps} do not divide block {block[:2]}")
        if tile["stages"] not in (2, 3, 4):
            raise GenError(f"{tw}: stages {tile['stages']!r} must be 2, 3 or 4")
        if tile["schedule"] not in SCHEDULES:
            raise GenError(f"{tw}: schedule {tile['schedule']!r} is not one of "
                           f"{', '.join(SCHEDULES)}")
        if tile["vector_bytes"] not in (1, 2, 4, 8, 16):
            raise GenError(f"{tw}: vector_bytes {tile['vector_bytes']!r} must be 1, 2, 4, 8 "
                           "or 16")
        for target in targets:
            if "*" not in fam_targets and target not in fam_targets:
                continue
            tinfo = TARGETS[target]
            threads = warps[0] * warps[1] * tinfo["warp"]
            if threads > tinfo["max_threads"]:
                raise GenError(f"{tw}: {threads} threads per block exceed {target}'s "
                               f"{tinfo['max_threads']}")
            for tname in types:
                combo = combos[tname]
                if tinfo["platform"] == "amd" and "fp8" in combo["a"] + combo["b"] and \
                        target == "gfx90a":
                    raise GenError(f"{tw}: {target} has no fp8 matrix instructions (type "
                                   f"combination '{tname}'); list fp8 families for other targets")
                am, an, ak = mma_atom(tinfo["platform"], combo["a"])
                wm, wn = block[0] // warps[0], block[1] // warps[1]
                if wm % am or wn % an or block[2] % ak:
                    raise GenError(f"{tw}: the warp tile {wm}x{wn} and block K {block[2]} must "
                                   f"be multiples of {target}'s {am}x{an}x{ak} instruction for "
                                   f"'{tname}'")
                if tile["schedule"] == "interwave" and (block[2] // ak) % INTERWAVE_CHUNKS:
                    raise GenError(f"{tw}: interwave needs block K in {INTERWAVE_CHUNKS} whole "
                                   "chunks of instructions")
                size = DATATYPES[combo["a"]][2]
                vec = max(1, tile["vector_bytes"] // size)
                for pair in layouts:
                    a_kc, b_kc = pair[0] == "row", pair[1] == "col"
                    shapes = [(block[0], block[2]) if a_kc else (block[2], block[0]),
                              (block[1], block[2]) if b_kc else (block[2], block[1])]
                    if any(not lds_tile_ok(o, i, size) or i % vec for o, i in shapes):
                        raise GenError(f"{tw}: block {block} does not make whole, "
                                       "power-of-two rows of 16-byte vectors in shared memory "
                                       f"for '{tname}' with layouts {pair}")
                    smem = tile["stages"] * (block[0] + block[1]) * block[2] * size
                    if smem > tinfo["dynamic_smem"]:
                        raise GenError(f"{tw}: needs {smem} bytes of shared memory, more than "
                                       f"{target} allows per block ({tinfo['dynamic_smem']})")
                    for epi in epilogues:
                        name = tile_instance_name(combo, pair, tile, split_k, epi)
                        if name in seen[target]:
                            raise GenError(f"{fw}: instance {name} for {target} is also "
                                           f"produced by {seen[target][name]}")
                        seen[target][name] = fw
                        result[target].append({
                            "name": name, "id": fnv1a64(name), "family": fam["name"],
                            "kernel": "tile", "combo": combo, "layouts": pair,
                            "block": block, "warps": warps, "stages": tile["stages"],
                            "schedule": tile["schedule"], "vector_bytes": tile["vector_bytes"],
                            "split_k": split_k, "index_bits": 64, "epilogue": epi,
                            "general": False, "threads": threads, "smem": smem,
                            "target": target})


def wgmma_instance_name(combo, layouts, block, block_k, stages, cluster, schedule, epilogue,
                        rows_a=None, b_feed="copy_engine"):
    return ("gemm_wgmma_{a}{b}_{d}_acc{c}_{la}{lb}_{bm}x{bn}x{bk}_s{s}{cl}{pp}{ra}{bt}_{e}".format(
        a=SHORT[combo["a"]], b=SHORT[combo["b"]], d=SHORT[combo["d"]],
        c=SHORT[combo["compute"]], la=LAYOUTS[layouts[0]][2], lb=LAYOUTS[layouts[1]][2],
        bm=block[0], bn=block[1], bk=block_k, s=stages, cl=f"_c{cluster}" if cluster > 1 else "",
        pp="_pp" if schedule == "pingpong" else "",
        ra=f"_a{rows_a}" if rows_a is not None and rows_a != block[0] else "",
        bt="_bt" if b_feed == "threads" else "", e=epilogue))


def wgmma_consumers(block, schedule):
    """Consumer warpgroups of gemm_wgmma_policy: two for ping-pong and for 192-row tiles (each
    takes half the columns), else one per 64 rows."""
    return 2 if schedule == "pingpong" or block[0] == 192 else block[0] // 64


def wgmma_raw_bytes(block, b_feed="copy_engine"):
    """gemm_wgmma_policy's raw ring for a B fed by the threads: slots of N rows of 144 bytes, as
    many as fit 72 KiB, at most 8, and a KiB for their barriers."""
    if b_feed != "threads":
        return 0
    slot = block[1] * 144
    return min(8, 73728 // slot) * slot + 1024


def wgmma_shared_memory(block, stages, schedule="cooperative", rows_a=None, b_feed="copy_engine"):
    """gemm_wgmma_policy's plan: stages of (rows of A + N) rows of 128 bytes (and B's raw ring),
    two barriers per stage, a 64 x 33 chunk of 4-byte accumulators per consumer warpgroup (the
    epilogue's staging) and 1 KiB of alignment slack."""
    rows_a = block[0] if rows_a is None else rows_a
    return (stages * (rows_a + block[1]) * 128 + wgmma_raw_bytes(block, b_feed) + 2 * stages * 8
            + wgmma_consumers(block, schedule) * 64 * 33 * 4 + 1024)


def wgmma_box_slots(block, stages, schedule="cooperative", rows_a=None, b_feed="copy_engine"):
    """Whether gemm_wgmma_policy's plan for 16-bit D has the plain epilogue's wide boxes: after
    the stages, the staging and the barriers (the epilogue's input barriers among them: one per
    consumer and two per consumer warp), room for two output chunks of 64 x 32 per consumer."""
    consumers = wgmma_consumers(block, schedule)
    fixed = wgmma_shared_memory(block, stages, schedule, rows_a, b_feed) + consumers * 9 * 8
    return WGMMA_SMEM_LIMIT - fixed >= consumers * 2 * 64 * 32 * 2


def expand_wgmma_family(fam, fw, combos, instance_set, targets, result, seen):
    """A Hopper family: sm_90a only; MN-major operands (A col, B row) for 16-bit types only."""
    sets = _list_of(f"{fw} sets", fam["sets"], set(SETS))
    fam_targets = _list_of(f"{fw} targets", fam["targets"], set(TARGETS) | {"*"})
    if any(t not in WGMMA_TARGETS for t in fam_targets):
        raise GenError(f"{fw} targets: wgmma kernels run on {', '.join(WGMMA_TARGETS)} only "
                       "(warpgroup MMA and setmaxnreg are sm_90a features)")
    types = _list_of(f"{fw} types", fam["types"], set(combos) | {"*"})
    if "*" in types:
        types = list(combos)
    epilogues = _list_of(f"{fw} epilogues", fam["epilogues"], set(EPILOGUES))
    if fam["index_bits"] != [64]:
        raise GenError(f"{fw} index_bits: wgmma kernels index in 64 bits ([64])")
    if fam.get("general", False) or fam.get("split_k", False):
        raise GenError(f"{fw}: a wgmma family is neither general nor split-K")
    layouts = fam["layouts"]
    if not isinstance(layouts, list) or not layouts or any(
            not isinstance(p, list) or len(p) != 2 or any(x not in ("row", "col") for x in p)
            for p in layouts):
        raise GenError(f"{fw} layouts: wgmma kernels take [a, b] pairs of row and col")
    for tname in types:
        combo = combos[tname]
        if "fp32" in (combo["a"], combo["b"]) and combo["compute"] != "tf32":
            raise GenError(f"{fw}: type combination '{tname}' has fp32 inputs and compute fp32; "
                           "wgmma reads fp32 inputs as TF32, so list them with compute tf32 "
                           "(exact fp32 is the simt kernel's)")
        if DATATYPES[combo["a"]][2] != 2 and any(p != ["row", "col"] for p in layouts):
            raise GenError(f"{fw}: type combination '{tname}' is read K-major only by wgmma: "
                           "its layouts must be [\"row\", \"col\"]")
        for epi in epilogues:
            if epi.startswith("bias") and combo["compute"] == "int32":
                raise GenError(f"{fw}: type combination '{tname}' accumulates in int32, whose "
                               f"epilogue computes in double: the '{epi}' epilogue is float "
                               "only")
        for epi in filter(reads_c, epilogues):
            if DATATYPES[combo["d"]][2] != 2:
                raise GenError(f"{fw}: type combination '{tname}' has a {combo['d']} D: the "
                               f"'{epi}' epilogue loads C into the box slots of a 16-bit D")
    tiles = fam["tiles"]
    if not isinstance(tiles, list) or not tiles:
        raise GenError(f"{fw} tiles: expected a non-empty list")
    if instance_set not in sets:
        return
    for tidx, tile in enumerate(tiles):
        tw = f"{fw} tile #{tidx}"
        _check_keys(tw, tile, WGMMA_TILE_KEYS, ("block", "stages"))
        block = _list_of(f"{tw} block", tile["block"], kind=int)
        if len(block) != 2 or block[0] not in (64, 128, 192) or \
                block[1] not in (64, 80, 96, 112, 128, 144, 160, 176, 192, 256):
            raise GenError(f"{tw}: block is [M, N] with M 64, 128 or 192 and N 64, 80, 96, 112, "
                           "128, 144, 160, 176, 192 or 256")
        if block[1] % 64 and (block[0] != 128 or
                              not set(epilogues) <= WGMMA_ODD_N_EPILOGUES):
            raise GenError(f"{tw}: {block[1]}-column tiles are 128 rows, with the compact "
                           f"epilogues only ({', '.join(sorted(WGMMA_ODD_N_EPILOGUES))}; the "
                           "fused one spills beside their accumulators)")
        if block[1] in WGMMA_ODD_N:
            if any(p[1] != "col" for p in layouts):
                raise GenError(f"{tw}: {block[1]}-column tiles read B column-major only (a "
                               "row-major B is read in groups of 32 or 64 columns)")
            narrow_d = [t for t in types if DATATYPES[combos[t]["d"]][2] < 2]
            if narrow_d:
                raise GenError(f"{tw}: {block[1]}-column tiles store 16-column chunks, 32 bytes "
                               f"or more: type combination '{narrow_d[0]}' has an 8-bit D")
        stages = tile["stages"]
        if not isinstance(stages, int) or not 2 <= stages <= 32:
            raise GenError(f"{tw}: stages {stages!r} must be 2 to 32")
        cluster = tile.get("cluster", 1)
        if cluster not in (1, 2):
            raise GenError(f"{tw}: cluster {cluster!r} must be 1 or 2")
        schedule = tile.get("schedule", "cooperative")
        if schedule not in WGMMA_SCHEDULES:
            raise GenError(f"{tw}: schedule {schedule!r} is not one of {', '.join(WGMMA_SCHEDULES)}")
        if block[0] == 192 and block[1] == 64:
            raise GenError(f"{tw}: a 192-row tile's two consumers take half the columns each: "
                           "N must be 128, 192 or 256")
        if schedule == "pingpong" and block[0] != 64:
            raise GenError(f"{tw}: ping-pong tiles are 64 rows (one consumer warpgroup each)")
        rows_a = tile.get("rows_a", block[0])
        if rows_a != block[0]:
            # A short A tile: M <= rows_a only, read K-major by one 64-row MMA per consumer.
            if block[0] != 64 or cluster != 1 or not isinstance(rows_a, int) or \
                    not 8 <= rows_a < 64 or rows_a % 8:
                raise GenError(f"{tw}: rows_a {rows_a!r} (a short A tile) is 8 to 56 by 8s, "
                               "with block M 64 and no cluster")
            if any(p[0] != "row" for p in layouts):
                raise GenError(f"{tw}: a short A tile (rows_a) needs A row-major (K-major)")
            if (rows_a + block[1]) < 64:
                raise GenError(f"{tw}: the 64 rows the MMA reads past a short A tile must stay "
                               "in the stage")
        b_feed = tile.get("b_feed", "copy_engine")
        if b_feed not in WGMMA_B_FEEDS:
            raise GenError(f"{tw}: b_feed {b_feed!r} is not one of {', '.join(WGMMA_B_FEEDS)}")
        if b_feed == "threads":
            if cluster != 1 or block[1] not in (64, 128):
                raise GenError(f"{tw}: a B fed by the threads (b_feed threads) is one CTA's, 64 "
                               "or 128 columns: the producer's four warps take a quarter each")
            if any(p[1] != "col" for p in layouts):
                raise GenError(f"{tw}: the threads feed a K-major B only: layouts [a, \"col\"]")
        for epi in filter(reads_c, epilogues):
            if wgmma_accumulators(block) > WGMMA_C_ACCUMULATORS:
                raise GenError(f"{tw}: the '{epi}' epilogue reads C beside the accumulators, at "
                               f"most {WGMMA_C_ACCUMULATORS} per thread; this tile has "
                               f"{wgmma_accumulators(block)}")
            if not wgmma_box_slots(block, stages, schedule, rows_a, b_feed):
                raise GenError(f"{tw}: the '{epi}' epilogue loads C into each consumer warp's "
                               f"two box slots, which {stages} stages leave no room for (fewer "
                               "stages)")
        smem = wgmma_shared_memory(block, stages, schedule, rows_a, b_feed)
        if smem > WGMMA_SMEM_LIMIT:
            raise GenError(f"{tw}: needs {smem} bytes of shared memory, more than an sm_90a "
                           f"block may have ({WGMMA_SMEM_LIMIT})")
        for target in targets:
            if target not in fam_targets and "*" not in fam_targets:
                continue
            for tname in types:
                combo = combos[tname]
                block_k = 128 // DATATYPES[combo["a"]][2]
                for pair in layouts:
                    for epi in epilogues:
                        name = wgmma_instance_name(combo, pair, block, block_k, stages, cluster,
                                                   schedule, epi, rows_a, b_feed)
                        if name in seen[target]:
                            raise GenError(f"{fw}: instance {name} for {target} is also "
                                           f"produced by {seen[target][name]}")
                        seen[target][name] = fw
                        result[target].append({
                            "name": name, "id": fnv1a64(name), "family": fam["name"],
                            "kernel": "wgmma", "combo": combo, "layouts": pair,
                            "block": block + [block_k], "stages": stages, "cluster": cluster,
                            "schedule": schedule, "rows_a": rows_a, "b_feed": b_feed,
                            "index_bits": 64, "epilogue": epi, "general": False,
                            "threads": 128 * (wgmma_consumers(block, schedule) + 1),
                            "smem": smem,
                            "target": target})


def compile_cost(inst):
    """Relative compile time: bigger micro tiles unroll more; fused epilogues add math; a tile
    kernel unrolls its warp tile's instructions and fragment loads."""
    epi = 0.5 if inst["epilogue"] == "fused" else 0.0
    if inst.get("kernel") == "wgmma":
        return 4.0 + inst["block"][1] / 64.0 + epi
    if inst.get("kernel") == "tile":
        b, w = inst["block"], inst["warps"]
        return 2.0 + (b[0] // w[0]) * (b[1] // w[1]) * b[2] / 16384.0 + epi
    return 1.0 + inst["thread"][0] * inst["thread"][1] / 16.0 + epi


def group_instances(instances, groups):
    """Longest-processing-time-first: balanced groups, deterministic.

    @post every instance is in exactly one group; no group is empty."""
    groups = max(1, min(groups, len(instances)))
    order = sorted(instances, key=lambda i: (-compile_cost(i), i["name"]))
    buckets = [[0.0, []] for _ in range(groups)]
    for inst in order:
        bucket = min(buckets, key=lambda b: b[0])
        bucket[0] += compile_cost(inst)
        bucket[1].append(inst)
    return [sorted(b[1], key=lambda i: i["name"]) for b in buckets if b[1]]


def translation_units(instances, groups):
    """The GEMM instances' source files: every Hopper (wgmma) instance alone, the others in
    `groups` balanced groups. nvcc optimizes the kernels of one file as one LLVM module, and
    several Hopper kernels in one module came out worse than each alone: with nvcc 13.0, in the
    four files the ci set used to make, ptxas serialized the wgmma pipeline (its C7511, C7514
    and C7518 notes: registers, accumulators read by other instructions, a dependence in a
    divergent path) in 26 of the 35 Hopper kernels, the plain 128x256 tile among them, and in
    none compiled alone.

    @post every instance is in exactly one unit; no unit is empty; a unit holding a Hopper
    instance holds nothing else."""
    hopper = sorted((i for i in instances if i.get("kernel") == "wgmma"), key=lambda i: i["name"])
    others = [i for i in instances if i.get("kernel") != "wgmma"]
    return [[i] for i in hopper] + (group_instances(others, groups) if others else [])


def must_not_spill(unit):
    """Whether a translation unit's kernels must keep everything in registers: a Hopper kernel
    whose epilogue reads no C (alpha only, a bias, a bias and one activation). With nvcc 13.0
    every such kernel of the ci and full sets compiles with no stack frame, where the fused
    epilogue, the ones reading C and the 192x192 pairs' plain one hold a few values on the stack
    between tiles. The build turns ptxas's spill warning on for these units, so that a spill in the
    kernels the plain and bias problems run (and in the staging copies and reductions compiled
    beside them) is an error where warnings are (CKTILE_WARNINGS_AS_ERRORS)."""
    return bool(unit) and all(i.get("kernel") == "wgmma" and (
        i["epilogue"] == "alpha" or (i["epilogue"].startswith("bias") and
                                     not reads_c(i["epilogue"]))) for i in unit)


HEADER = "// Generated by python_gen/generate.py from {src}; do not edit.\n"


def kernel_type(inst):
    c = inst["combo"]
    index = "std::int32_t" if inst["index_bits"] == 32 else "std::int64_t"
    acc = "std::int32_t" if c["compute"] == "int32" else "float"
    return ("ck_tile::gemm_simt_kernel<ck_tile::gemm_simt_problem<{a}, {b}, {d}, {acc}, {la}, "
            "{lb}, {index}>, ck_tile::gemm_simt_policy<{bm}, {bn}, {bk}, {tm}, {tn}, {v}>, "
            "{fused}>").format(
        a=DATATYPES[c["a"]][1], b=DATATYPES[c["b"]][1], d=DATATYPES[c["d"]][1], acc=acc,
        la=LAYOUTS[inst["layouts"][0]][1], lb=LAYOUTS[inst["layouts"][1]][1], index=index,
        bm=inst["block"][0], bn=inst["block"][1], bk=inst["block"][2], tm=inst["thread"][0],
        tn=inst["thread"][1], v=inst["vector_k"],
        fused="true" if EPILOGUES[inst["epilogue"]] else "false")


def tile_kernel_type(inst):
    c = inst["combo"]
    acc = "std::int32_t" if c["compute"] == "int32" else "float"
    math = ", ck_tile::gemm_math::tf32" if c["compute"] == "tf32" else ""
    return ("ck_tile::gemm_tile_kernel<ck_tile::gemm_tile_problem<{a}, {b}, {d}, {acc}, {la}, "
            "{lb}{math}>, ck_tile::gemm_tile_policy<{bm}, {bn}, {bk}, {wm}, {wn}, {s}, "
            "ck_tile::gemm_schedule::{sch}, {v}>, {fused}, {sk}>").format(
        a=DATATYPES[c["a"]][1], b=DATATYPES[c["b"]][1], d=DATATYPES[c["d"]][1], acc=acc,
        la=LAYOUTS[inst["layouts"][0]][1], lb=LAYOUTS[inst["layouts"][1]][1], math=math,
        bm=inst["block"][0], bn=inst["block"][1], bk=inst["block"][2], wm=inst["warps"][0],
        wn=inst["warps"][1], s=inst["stages"], sch=inst["schedule"], v=inst["vector_bytes"],
        fused="true" if EPILOGUES[inst["epilogue"]] else "false",
        sk="true" if inst["split_k"] else "false")


# Multiply-accumulates per cycle of a matrix instruction relative to FMA (selection model),
# by input element size; TF32 (4-byte inputs) runs at half the 16-bit rate.
MATH_RATE = {1: 16.0, 2: 8.0, 4: 4.0}
# Warpgroup MMA fed by TMA sustains about 2.5 times what mma.sync kernels reach on an H100;
# TF32 at half the 16-bit rate, as the tensor cores' peaks are.
WGMMA_MATH_RATE = {1: 40.0, 2: 20.0, 4: 10.0}


def wgmma_kernel_type(inst):
    c = inst["combo"]
    acc = "std::int32_t" if c["compute"] == "int32" else "float"
    math = ", ck_tile::gemm_math::tf32" if c["compute"] == "tf32" else ""
    return ("ck_tile::gemm_wgmma_kernel<ck_tile::gemm_tile_problem<{a}, {b}, {d}, {acc}, {la}, "
            "{lb}{math}>, ck_tile::gemm_wgmma_policy<{bm}, {bn}, {s}, {cl}, "
            "ck_tile::gemm_wgmma_schedule::{sch}{ra}{bt}>, {fused}{alpha}>").format(
        a=DATATYPES[c["a"]][1], b=DATATYPES[c["b"]][1], d=DATATYPES[c["d"]][1], acc=acc,
        la=LAYOUTS[inst["layouts"][0]][1], lb=LAYOUTS[inst["layouts"][1]][1], math=math,
        bm=inst["block"][0], bn=inst["block"][1], s=inst["stages"], cl=inst["cluster"],
        sch=inst["schedule"],
        ra=(", 8, {}".format(inst["rows_a"]) if inst.get("rows_a", inst["block"][0]) != inst["block"][0]
            else ", 4, {}".format(inst["block"][0]) if inst.get("b_feed") == "threads" else ""),
        bt=", ck_tile::gemm_wgmma_b_feed::threads" if inst.get("b_feed") == "threads" else "",
        fused="true" if EPILOGUES[inst["epilogue"]] else "false",
        alpha=wgmma_epilogue_args(inst["epilogue"]))


def wgmma_accumulators(block):
    """fp32 accumulators per consumer thread (gemm_wgmma_policy: two consumers split a 192-row
    tile by columns, three 64-row slabs each; the others take 64 rows of every column)."""
    split_n = block[0] == 192
    slabs = block[0] // 64 if split_n else 1
    consumer_n = block[1] // 2 if split_n else block[1]
    return slabs * consumer_n // 2


def wgmma_epilogue_args(epilogue):
    """gemm_wgmma_kernel's template arguments after FusedEpilogue for an epilogue set."""
    if epilogue == "alpha":
        return ", true"
    if epilogue == "bias":
        return ", false, true"
    if reads_c(epilogue):
        activation = epilogue[len("bias_"):-len("_c")] or "none"  # "bias_c": none
        return f", false, true, ck_tile::gemm_activation::{activation}, true"
    if epilogue.startswith("bias_"):
        return f", false, true, ck_tile::gemm_activation::{epilogue[len('bias_'):]}"
    return ""


def record_symbol(inst):
    return f"cktile_instance_{inst['id']:016x}"


def group_source(group, src):
    out = [HEADER.format(src=src), '#include "gemm_instance_adapter.hpp"\n\n#include <cstdint>\n\n']
    for inst in group:
        c = inst["combo"]
        if inst.get("kernel") == "wgmma":
            out.append(
                "extern const cktile_kernel_instance_t {sym} =\n"
                "    cktile::library::make_gemm_wgmma_record<\n"
                "        {ktype},\n"
                "        {a}, {b}, {d}, {cmp}, {la}, {lb}>(\n"
                "        0x{id:016x}ULL, \"{name}\", \"{target}\", {rate});\n\n".format(
                    sym=record_symbol(inst), ktype=wgmma_kernel_type(inst),
                    a=DATATYPES[c["a"]][0], b=DATATYPES[c["b"]][0], d=DATATYPES[c["d"]][0],
                    cmp=DATATYPES[c["compute"]][0], la=LAYOUTS[inst["layouts"][0]][0],
                    lb=LAYOUTS[inst["layouts"][1]][0], id=inst["id"], name=inst["name"],
                    target=inst["target"], rate=WGMMA_MATH_RATE[DATATYPES[c["a"]][2]]))
            continue
        if inst.get("kernel") == "tile":
            out.append(
                "extern const cktile_kernel_instance_t {sym} =\n"
                "    cktile::library::make_gemm_tile_record<\n"
                "        {ktype},\n"
                "        {a}, {b}, {d}, {cmp}, {la}, {lb}>(\n"
                "        0x{id:016x}ULL, \"{name}\", \"{target}\", {rate});\n\n".format(
                    sym=record_symbol(inst), ktype=tile_kernel_type(inst),
                    a=DATATYPES[c["a"]][0], b=DATATYPES[c["b"]][0], d=DATATYPES[c["d"]][0],
                    cmp=DATATYPES[c["compute"]][0], la=LAYOUTS[inst["layouts"][0]][0],
                    lb=LAYOUTS[inst["layouts"][1]][0], id=inst["id"], name=inst["name"],
                    target=inst["target"], rate=MATH_RATE[DATATYPES[c["a"]][2]]))
            continue
        out.append(
            "extern const cktile_kernel_instance_t {sym} =\n"
            "    cktile::library::make_gemm_simt_record<\n"
            "        {ktype},\n"
            "        {a}, {b}, {d}, {cmp}, {la}, {lb}>(\n"
            "        0x{id:016x}ULL, \"{name}\", \"{target}\", {general});\n\n".format(
                sym=record_symbol(inst), ktype=kernel_type(inst), a=DATATYPES[c["a"]][0],
                b=DATATYPES[c["b"]][0], d=DATATYPES[c["d"]][0], cmp=DATATYPES[c["compute"]][0],
                la=LAYOUTS[inst["layouts"][0]][0], lb=LAYOUTS[inst["layouts"][1]][0],
                id=inst["id"], name=inst["name"], target=inst["target"],
                general="true" if inst["general"] else "false"))
    return "".join(out)


def table_source(target, instances, src):
    out = [HEADER.format(src=src), '#include "kernel_library_abi.h"\n\n#include <cstdint>\n\n']
    for inst in instances:
        out.append(f"extern const cktile_kernel_instance_t {record_symbol(inst)};\n")
    out.append("\nnamespace {\nconst cktile_kernel_instance_t* const instances[] = {\n")
    for inst in instances:
        out.append(f"    &{record_symbol(inst)},\n")
    if not instances:
        out.append("    nullptr,\n")
    out.append("};\n")
    out.append(
        "const cktile_kernel_table_t table = {{sizeof(cktile_kernel_table_t), "
        "CKTILE_KERNEL_ABI_VERSION,\n    sizeof(cktile_kernel_instance_t), \"{t}\", "
        "CKTILE_VERSION_STRING, {n}, instances}};\n}} // namespace\n\n".format(
            t=target, n=len(instances)))
    out.append(
        "extern \"C\" __attribute__((visibility(\"default\"))) const cktile_kernel_table_t*\n"
        "cktile_kernel_library_get_table(std::uint32_t abi_version)\n{\n"
        "    return abi_version == CKTILE_KERNEL_ABI_VERSION ? &table : nullptr;\n}\n")
    return "".join(out)


def write_if_changed(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except json.JSONDecodeError as e:
        raise GenError(f"{os.path.basename(path)}: not valid JSON ({e})") from e
    except OSError as e:
        raise GenError(f"{path}: cannot be read ({e.strerror})") from e


def write_grouped(tdir, prefix, instances, groups, render):
    """Writes <prefix><i>.cpp files, render(group) each, sorted instances dealt round-robin;
    returns their paths. @post every instance is in exactly one file; stale files of the
    prefix are removed."""
    files = []
    n = max(1, min(groups, len(instances))) if instances else 0
    buckets = [[] for _ in range(n)]
    for k, inst in enumerate(sorted(instances, key=lambda i: i["name"])):
        buckets[k % n].append(inst)
    for gi, group in enumerate(buckets):
        p = os.path.join(tdir, f"{prefix}{gi}.cpp")
        write_if_changed(p, render(group))
        files.append(p)
    if os.path.isdir(tdir):
        for f in os.listdir(tdir):
            full = os.path.join(tdir, f)
            if f.startswith(prefix) and full not in files:
                os.remove(full)
    return files


def expand_memops(paths, instance_set, targets):
    """The strided memory op lists (instances/elementwise.json, ...): {target: [instance]}."""
    import memops  # noqa: E402  (beside this file)
    merged = {t: [] for t in targets}
    for mpath in paths:
        for target, insts in memops.expand(sys.modules[__name__], load(mpath), mpath,
                                           instance_set, targets).items():
            merged[target] += insts
    return merged


def expand_rowwise(paths, instance_set, targets):
    """The row-wise op lists (instances/norm.json, ...), expanded: {target: [instance]}."""
    import rowwise  # noqa: E402  (beside this file)
    merged = {t: [] for t in targets}
    for rpath in paths:
        for target, insts in rowwise.expand(sys.modules[__name__], load(rpath), rpath,
                                            instance_set, targets).items():
            merged[target] += insts
    return merged


def keep_matching(name_filter, *per_target_lists):
    """Drops the instances whose names the regular expression `name_filter` does not match
    (re.search), in place, from each {target: [instance]}; an empty filter keeps all. A filter
    that keeps nothing, or does not compile, is an error: it would build empty libraries."""
    if not name_filter:
        return
    try:
        pattern = re.compile(name_filter)
    except re.error as e:
        raise GenError(f"instance filter {name_filter!r}: {e}") from e
    kept = 0
    for per_target in per_target_lists:
        for target in per_target:
            per_target[target] = [i for i in per_target[target] if pattern.search(i["name"])]
            kept += len(per_target[target])
    if kept == 0:
        raise GenError(f"instance filter {name_filter!r} matches no instance of the set")


def generate(path, instance_set, targets, out_dir, groups, rowwise_paths=(), memops_paths=(),
             name_filter="", no_spill=None):
    """Writes the sources; returns {target: [source paths]} (groups first, table last).
    `name_filter`: keep_matching's regular expression over every op's instance names.
    `no_spill`: a set that receives the paths of the units that must_not_spill."""
    doc = load(path)
    per_target = expand(doc, path, instance_set, targets)
    src = os.path.basename(path)
    row_per_target = expand_rowwise(rowwise_paths, instance_set, targets)
    mem_per_target = expand_memops(memops_paths, instance_set, targets)
    keep_matching(name_filter, per_target, row_per_target, mem_per_target)
    written = {}
    for target, instances in per_target.items():
        tdir = os.path.join(out_dir, target)
        files = []
        for gi, group in enumerate(translation_units(instances, groups) if instances else []):
            p = os.path.join(tdir, f"gemm_group_{gi}.cpp")
            write_if_changed(p, group_source(group, src))
            files.append(p)
            if no_spill is not None and must_not_spill(group):
                no_spill.add(p)
        import rowwise  # noqa: E402
        files += rowwise.write_sources(sys.modules[__name__], tdir, row_per_target[target],
                                       groups, ", ".join(os.path.basename(r)
                                                         for r in rowwise_paths))
        import memops  # noqa: E402
        msrc = ", ".join(os.path.basename(m) for m in memops_paths)
        files += memops.write_sources(sys.modules[__name__], tdir, mem_per_target[target],
                                      groups, msrc)
        p = os.path.join(tdir, "instance_table.cpp")
        write_if_changed(p, table_source(target, instances + row_per_target[target] +
                                         mem_per_target[target], src))
        files.append(p)
        # Remove group files a previous, larger configuration left behind.
        if os.path.isdir(tdir):
            for f in os.listdir(tdir):
                full = os.path.join(tdir, f)
                if f.startswith("gemm_group_") and full not in files:
                    os.remove(full)
        written[target] = files
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", required=True)
    ap.add_argument("--rowwise-instances", action="append", default=[],
                    help="a row-wise op list (instances/norm.json, ...); repeatable")
    ap.add_argument("--memops-instances", action="append", default=[],
                    help="a strided memory op list (instances/elementwise.json, ...); repeatable")
    ap.add_argument("--set", required=True, choices=SETS)
    ap.add_argument("--targets", required=True, help="';'- or ','-separated GPU targets")
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--groups", type=int, default=4)
    ap.add_argument("--filter", default="",
                    help="build only the instances whose names this regular expression matches")
    ap.add_argument("--list-sources", action="store_true",
                    help="print '<target>=<source>' lines for CMake, and 'no-spill=<source>' "
                         "for the sources whose kernels must not spill (must_not_spill)")
    args = ap.parse_args(argv)
    targets = [t for t in args.targets.replace(",", ";").split(";") if t]
    no_spill = set()
    try:
        written = generate(args.instances, args.set, targets, args.out_dir, args.groups,
                           args.rowwise_instances, args.memops_instances, args.filter, no_spill)
    except GenError as e:
        print(f"python_gen: error: {e}", file=sys.stderr)
        return 1
    if args.list_sources:
        for target, files in written.items():
            for f in files:
                print(f"{target}={f}")
        for f in sorted(no_spill):
            print(f"no-spill={f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
