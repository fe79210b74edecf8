# SPDX-License-Identifier: MIT
"""Reductions (instances/reduce.json): expansion, validation and the C++ each instance needs.
Used by generate.py through rowwise.py (the sources are written with the row-wise ones);
standard library only.

A family names its kernel and expands to the cross product of its type combinations and
tiles. Tiles per kernel:
  row      {"rows_per_block", "warps_per_row", "repeat", "vector"[, "lanes_per_row"]} as in
           norm.json
           (include/ck_tile/ops/reduce/reduce_row_kernel.hpp, reductions over the last axis)
  column   {"warps", "inner_lanes", "repeat", "vector"}: warps per block, lanes of a warp
           along the contiguous kept axis (the rest take further reduced rows), reduced rows
           per thread per step, 16-byte accesses or one element (reduce_column_kernel.hpp)
  strided  {"warps"}: a warp per output, any layout (reduce_strided_kernel.hpp); the general
           family must use it.
Errors name the file and the entry, as in generate.py.
"""

import os

KERNELS = {
    "row": ("ck_tile::reduce_row_kernel", {"rows_per_block", "warps_per_row", "repeat", "vector"},
            {"lanes_per_row"}),
    "column": ("ck_tile::reduce_column_kernel", {"warps", "inner_lanes", "repeat", "vector"},
               set()),
    "strided": ("ck_tile::reduce_strided_kernel", {"warps"}, set()),
}
ROLES = ("x", "y")
TOP_KEYS = {"format_version", "op", "description", "type_combinations", "families"}
FAMILY_KEYS = {"name", "description", "kernel", "sets", "targets", "types", "tiles", "general"}
HEADER = "reduce_instance_adapter.hpp"
MAKER = "make_reduce_record"


def _positive(g, where, tile, keys):
    for k in keys:
        if not isinstance(tile[k], int) or isinstance(tile[k], bool) or tile[k] < 1:
            raise g.GenError(f"{where}: {k} must be a positive integer")


def _check_tile(g, tw, kernel, tile, target, xbytes):
    """Validates one tile for one target; returns (threads per block, vector elements)."""
    import rowwise  # noqa: E402  (beside this file)
    keys, optional = KERNELS[kernel][1], KERNELS[kernel][2]
    g._check_keys(tw, tile, keys | optional, keys)
    _positive(g, tw, tile, sorted((keys | (optional & set(tile))) - {"vector"}))
    tinfo = g.TARGETS[target]
    if "vector" in keys and not isinstance(tile["vector"], bool):
        raise g.GenError(f"{tw}: vector must be true or false")
    vec = 16 // xbytes if tile.get("vector") else 1
    warp = tinfo["warp"]
    if kernel == "row":
        threads = rowwise.tile_threads(g, tw, tile, warp, target)
    else:
        threads = tile["warps"] * warp
    if threads > tinfo["max_threads"]:
        raise g.GenError(f"{tw}: {threads} threads per block exceeds {tinfo['max_threads']}")
    if kernel == "column":
        if warp % tile["inner_lanes"] != 0:
            raise g.GenError(f"{tw}: inner_lanes {tile['inner_lanes']} does not divide the "
                             f"warp of {warp} lanes")
        smem = 4 * threads * vec
        if smem > tinfo["static_smem"]:
            raise g.GenError(f"{tw}: {smem} bytes of shared memory exceed the target's "
                             f"{tinfo['static_smem']}")
    if "repeat" in keys and tile["repeat"] * vec > 64:
        raise g.GenError(f"{tw}: {tile['repeat'] * vec} elements per thread per step would "
                         "spill registers (at most 64)")
    return threads, vec


def instance_name(g, combo, kernel, tile):
    t = g.SHORT[combo["x"]] + "_" + g.SHORT[combo["y"]]
    if kernel == "row":
        import rowwise  # noqa: E402
        cfg = "row_" + rowwise.row_tile_name(tile)
    elif kernel == "column":
        cfg = "col_w{w}_l{l}_x{x}".format(w=tile["warps"], l=tile["inner_lanes"], x=tile["repeat"])
    else:
        cfg = "strided_w{w}".format(w=tile["warps"])
    vec = ("_v16" if tile["vector"] else "_s") if "vector" in tile else "_s"
    return f"reduce_{t}_accf32_{cfg}{vec}"


def kernel_type(g, combo, kernel, tile):
    xt, yt = g.DATATYPES[combo["x"]][1], g.DATATYPES[combo["y"]][1]
    name = KERNELS[kernel][0]
    if kernel == "strided":
        return f"{name}<{xt}, {yt}, {tile['warps']}>"
    vbytes = 16 if tile["vector"] else g.DATATYPES[combo["x"]][2]
    if kernel == "row":
        import rowwise  # noqa: E402
        shape = rowwise.row_tile_shape_type(xt, tile, vbytes)
    else:
        shape = "ck_tile::column_tile_shape<{x}, {w}, {l}, {rep}, {vb}>".format(
            x=xt, w=tile["warps"], l=tile["inner_lanes"], rep=tile["repeat"], vb=vbytes)
    return f"{name}<{xt}, {yt}, {shape}>"


def expand(g, doc, path, instance_set, targets):
    """Validates `doc` and returns {target: [instance dict]}; `g` is the generate module.

    @post every instance fits its target; names and ids are unique per target; every type
    combination with an instance in the set has a general (strided) instance."""
    import rowwise  # noqa: E402  (beside this file)
    where, combos, families = rowwise.check_list(g, doc, path, ("reduce",), TOP_KEYS,
                                                 lambda op: ROLES)
    result = {t: [] for t in targets}
    seen = {t: {} for t in targets}
    names = set()
    for idx, fam in enumerate(families):
        fw, sets, fam_targets, types, general, tiles = rowwise.check_family(
            g, where, idx, fam, FAMILY_KEYS,
            ("name", "kernel", "sets", "targets", "types", "tiles"), combos, names)
        kernel = fam["kernel"]
        if kernel not in KERNELS:
            raise g.GenError(f"{fw}: kernel {kernel!r} is not one of {', '.join(KERNELS)}")
        if general and kernel != "strided":
            raise g.GenError(f"{fw}: a general family must use the strided kernel (it must "
                             "accept every layout and alignment)")
        for tidx, tile in enumerate(tiles):
            tw = f"{fw} tile #{tidx}"
            for target in targets:
                if "*" not in fam_targets and target not in fam_targets:
                    continue
                for tname in types:
                    combo = combos[tname]
                    threads, _ = _check_tile(g, tw, kernel, tile, target,
                                             g.DATATYPES[combo["x"]][2])
                    if instance_set not in sets:
                        continue
                    name = instance_name(g, combo, kernel, tile)
                    if name in seen[target]:
                        raise g.GenError(f"{fw}: instance {name} for {target} is also "
                                         f"produced by {seen[target][name]}")
                    seen[target][name] = fw
                    result[target].append({
                        "op": "reduce", "name": name, "id": g.fnv1a64(name),
                        "family": fam["name"], "combo": combo, "tile": tile, "general": general,
                        "target": target, "threads": threads, "kernel": kernel,
                        "header": HEADER, "maker": MAKER,
                        "ktype": kernel_type(g, combo, kernel, tile),
                        "enums": ", ".join(g.DATATYPES[combo[r]][0] for r in ROLES)})
    rowwise.require_general(g, where, result, instance_set)
    return result
