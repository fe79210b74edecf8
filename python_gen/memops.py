# SPDX-License-Identifier: MIT
"""Strided memory-bound operations (instances/elementwise.json, instances/permute.json):
expansion, validation and C++ sources. Used by generate.py; standard library only.

A family names its kernel and expands to the cross product of its type combinations and
tiles:
- kernel "elementwise" (include/ck_tile/ops/elementwise/elementwise_kernel.hpp): tiles
  {"rows_per_block", "warps_per_row", "repeat", "vector"} as in the row-wise lists (a row
  tile of the widest type); "vector" true is the 16-byte path for rows of contiguous elements,
  false the general strided path;
- kernel "transpose" (include/ck_tile/ops/permute/transpose_kernel.hpp, permute only): tiles
  {"warps"} and optionally "tiles_ahead" (1 to 4: tiles of x a block copies into shared memory
  ahead of the one it writes) and, with it, "width" (x's tile along p in 16-byte vectors, a
  multiple of 8, 2-byte types only; default 8); the tile is 8 vectors of 16 bytes along q.
Errors name the file and the entry, as in generate.py.
"""

# op -> (C API op kind, type roles, record maker, kernels allowed)
OPS = {
    "elementwise": ("CKTILE_OP_ELEMENTWISE", ("a", "y"), "make_elementwise_record",
                    ("elementwise",)),
    "permute": ("CKTILE_OP_PERMUTE", ("x",), "make_permute_record",
                ("elementwise", "transpose")),
}
ADAPTER = "memops_instance_adapter.hpp"
FLOAT_TYPES = ("fp16", "bf16", "fp32")
TOP_KEYS = {"format_version", "op", "description", "type_combinations", "families"}
FAMILY_KEYS = {"name", "description", "kernel", "sets", "targets", "types", "tiles", "general"}
ROW_TILE_KEYS = {"rows_per_block", "warps_per_row", "repeat", "vector"}
TRANSPOSE_TILE_KEYS = {"warps"}
OPTIONAL_TRANSPOSE_TILE_KEYS = {"tiles_ahead", "width"}


def _positive(g, where, tile, keys):
    for k in keys:
        if not isinstance(tile[k], int) or isinstance(tile[k], bool) or tile[k] < 1:
            raise g.GenError(f"{where}: {k} must be a positive integer")


def expand(g, doc, path, instance_set, targets):
    """Validates `doc` and returns {target: [instance dict]}; `g` is the generate module.

    @post every instance fits its target; names and ids are unique per target; every type
    combination with an instance in the set has a general (strided, any alignment) one."""
    import rowwise  # noqa: E402  (beside this file)
    where, combos, families = rowwise.check_list(g, doc, path, OPS, TOP_KEYS,
                                                 lambda op: OPS[op][1])
    op = doc["op"]
    kernels = OPS[op][3]
    result = {t: [] for t in targets}
    seen = {t: {} for t in targets}
    names = set()
    for idx, fam in enumerate(families):
        fw, sets, fam_targets, types, general, tiles = rowwise.check_family(
            g, where, idx, fam, FAMILY_KEYS, ("name", "kernel", "sets", "targets", "types",
                                              "tiles"), combos, names)
        kernel = fam["kernel"]
        if kernel not in kernels:
            raise g.GenError(f"{fw}: kernel {kernel!r} is not one of {', '.join(kernels)}")
        for tidx, tile in enumerate(tiles):
            tw = f"{fw} tile #{tidx}"
            if kernel == "transpose":
                g._check_keys(tw, tile, TRANSPOSE_TILE_KEYS | OPTIONAL_TRANSPOSE_TILE_KEYS,
                              TRANSPOSE_TILE_KEYS)
                _positive(g, tw, tile, TRANSPOSE_TILE_KEYS & tile.keys() |
                          OPTIONAL_TRANSPOSE_TILE_KEYS & tile.keys())
                if tile.get("tiles_ahead", 1) > 4:
                    raise g.GenError(f"{tw}: tiles_ahead must be 1 to 4")
                if tile.get("width", 8) % 8 != 0:
                    raise g.GenError(f"{tw}: width must be a multiple of 8 vectors")
                if tile.get("width", 8) != 8 and "tiles_ahead" not in tile:
                    raise g.GenError(f"{tw}: a width other than 8 needs tiles_ahead (unstaged "
                                     "tiles are square)")
                if general:
                    raise g.GenError(f"{fw}: the transpose kernel cannot be general (it runs "
                                     "transposes of whole 16-byte vectors only)")
            else:
                g._check_keys(tw, tile, ROW_TILE_KEYS, ROW_TILE_KEYS)
                _positive(g, tw, tile, ("rows_per_block", "warps_per_row", "repeat"))
                if not isinstance(tile["vector"], bool):
                    raise g.GenError(f"{tw}: vector must be true or false")
                if general and tile["vector"]:
                    raise g.GenError(f"{fw}: a general family must use vector false (it must "
                                     "accept every stride and alignment)")
            if instance_set not in sets:
                continue
            for target in targets:
                if "*" not in fam_targets and target not in fam_targets:
                    continue
                tinfo = g.TARGETS[target]
                for tname in types:
                    combo = combos[tname]
                    inst = _instance(g, op, kernel, combo, tile, tinfo, tw, target)
                    inst.update({"family": fam["name"], "general": general})
                    if inst["name"] in seen[target]:
                        raise g.GenError(f"{fw}: instance {inst['name']} for {target} is also "
                                         f"produced by {seen[target][inst['name']]}")
                    seen[target][inst["name"]] = fw
                    result[target].append(inst)
    rowwise.require_general(g, where, result, instance_set)
    return result


def _widest(g, combo):
    return max((combo[r] for r in combo), key=lambda t: g.DATATYPES[t][2])


def _instance(g, op, kernel, combo, tile, tinfo, tw, target):
    types = "_".join(g.SHORT[combo[r]] for r in OPS[op][1])
    if kernel == "transpose":
        size = g.DATATYPES[combo["x"]][2]
        edge = 8 * (16 // size)
        width_vectors = tile.get("width", 8)
        width = width_vectors * (16 // size)
        rows_per_pass = tile["warps"] * (tinfo["warp"] // 8)
        if edge % rows_per_pass != 0:
            raise g.GenError(f"{tw}: {tile['warps']} warps cover {rows_per_pass} rows per pass "
                             f"on {target}, which does not divide the {edge}-row tile")
        threads = tile["warps"] * tinfo["warp"]
        if width_vectors != 8:
            if size != 2:
                raise g.GenError(f"{tw}: tiles wider than 8 vectors are for 2-byte types only")
            if width % (2 * rows_per_pass) != 0 or edge * width_vectors % threads != 0:
                raise g.GenError(f"{tw}: {tile['warps']} warps do not divide the {edge} x "
                                 f"{width} tile on {target}")
        ahead = tile.get("tiles_ahead", 0)
        smem = (ahead + 1 if ahead else 2) * edge * width * size
        if smem > tinfo["static_smem"]:
            raise g.GenError(f"{tw}: {smem} bytes of shared memory exceed {target}'s "
                             f"{tinfo['static_smem']}")
        shape = f"t{edge}" if width == edge else f"t{edge}x{width}"
        name = f"{op}_transpose_{types}_{shape}_w{tile['warps']}" + (f"_a{ahead}" if ahead else "")
    else:
        threads = tile["rows_per_block"] * tile["warps_per_row"] * tinfo["warp"]
        wide = g.DATATYPES[_widest(g, combo)][2]
        vec = 16 // wide if tile["vector"] else 1
        if tile["repeat"] * vec > 64:
            raise g.GenError(f"{tw}: {tile['repeat'] * vec} elements per thread per tile would "
                             "spill registers (at most 64)")
        name = "{op}_{k}_{t}_accf32_r{r}_w{w}_x{x}_{v}".format(
            op=op, k="vec" if tile["vector"] else "strided", t=types, r=tile["rows_per_block"],
            w=tile["warps_per_row"], x=tile["repeat"], v="v16" if tile["vector"] else "s")
    if threads > tinfo["max_threads"]:
        raise g.GenError(f"{tw}: {threads} threads per block on {target} exceeds "
                         f"{tinfo['max_threads']}")
    return {"op": op, "kernel": kernel, "name": name, "id": g.fnv1a64(name), "combo": combo,
            "tile": tile, "target": target, "threads": threads}


def kernel_type(g, inst):
    c, t = inst["combo"], inst["tile"]
    if inst["kernel"] == "transpose":
        ahead = f", {t['tiles_ahead']}" if "tiles_ahead" in t else ""
        if t.get("width", 8) != 8:
            ahead += f", {t['width']}"
        return "ck_tile::transpose_kernel<{x}, {w}{a}>".format(x=g.DATATYPES[c["x"]][1],
                                                                w=t["warps"], a=ahead)
    a = c["a"] if inst["op"] == "elementwise" else c["x"]
    y = c["y"] if inst["op"] == "elementwise" else c["x"]
    wide = _widest(g, c)
    vbytes = 16 if t["vector"] else g.DATATYPES[wide][2]
    shape = "ck_tile::row_tile_shape<{w}, {r}, {wr}, {rep}, {vb}>".format(
        w=g.DATATYPES[wide][1], r=t["rows_per_block"], wr=t["warps_per_row"], rep=t["repeat"],
        vb=vbytes)
    return "ck_tile::elementwise_kernel<{a}, {a}, {y}, {s}, {v}>".format(
        a=g.DATATYPES[a][1], y=g.DATATYPES[y][1], s=shape,
        v="true" if t["vector"] else "false")


def group_source(g, group, src):
    out = [g.HEADER.format(src=src), f'#include "{ADAPTER}"\n', "\n#include <cstdint>\n\n"]
    for inst in group:
        op = OPS[inst["op"]]
        enums = ", ".join(g.DATATYPES[inst["combo"][r]][0] for r in op[1])
        out.append(
            "extern const cktile_kernel_instance_t {sym} =\n"
            "    cktile::library::{maker}<\n"
            "        {ktype},\n"
            "        {enums}>(\n"
            "        0x{id:016x}ULL, \"{name}\", \"{target}\", {general});\n\n".format(
                sym=g.record_symbol(inst), maker=op[2], ktype=kernel_type(g, inst), enums=enums,
                id=inst["id"], name=inst["name"], target=inst["target"],
                general="true" if inst["general"] else "false"))
    return "".join(out)


def write_sources(g, tdir, instances, groups, src):
    """Writes memops_group_<i>.cpp files for `instances`; returns their paths."""
    return g.write_grouped(tdir, "memops_group_", instances, groups,
                           lambda group: group_source(g, group, src))
