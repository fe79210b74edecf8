# SPDX-License-Identifier: MIT
"""Row-wise memory-bound operations (instances/norm.json, instances/softmax.json, and through
reduce.py instances/reduce.json): expansion, validation and C++ sources. Used by generate.py;
standard library only.

A family expands to the cross product of its type combinations and tiles. A tile is
{"rows_per_block", "warps_per_row", "repeat", "vector"}: a block owns rows_per_block rows,
warps_per_row warps sweep one row, each lane holds `repeat` vectors per chunk, and `vector`
(true: 16-byte accesses, which need aligned rows; false: one element per access) picks the
access width. Errors name the file and the entry, as in generate.py.
"""

import os

OPS = {
    # op -> (C API op kind, type roles, kernel template, record maker, adapter header)
    "norm": ("CKTILE_OP_NORMALIZATION", ("x", "w", "y"), "ck_tile::norm_kernel",
             "make_norm_record", "norm_instance_adapter.hpp"),
    "softmax": ("CKTILE_OP_SOFTMAX", ("x", "y"), "ck_tile::softmax_kernel",
                "make_softmax_record", "softmax_instance_adapter.hpp"),
}
FLOAT_TYPES = ("fp16", "bf16", "fp32")
TOP_KEYS = {"format_version", "op", "description", "type_combinations", "families"}
FAMILY_KEYS = {"name", "description", "sets", "targets", "types", "tiles", "general"}
TILE_KEYS = {"rows_per_block", "warps_per_row", "repeat", "vector"}
OPTIONAL_TILE_KEYS = {"lanes_per_row", "rows_in_flight"}


def expand(g, doc, path, instance_set, targets):
    """Validates `doc` and returns {target: [instance dict]}; `g` is the generate module.

    @post every instance fits its target; names and ids are unique per target; every type
    combination with an instance in the set has a general (scalar, any shape) instance."""
    if isinstance(doc, dict) and doc.get("op") == "reduce":
        import reduce  # noqa: E402  (beside this file)
        return reduce.expand(g, doc, path, instance_set, targets)
    where, combos, families = check_list(g, doc, path, OPS, TOP_KEYS,
                                         lambda op: OPS[op][1])
    op = doc["op"]
    roles = OPS[op][1]
    result = {t: [] for t in targets}
    seen = {t: {} for t in targets}
    names = set()
    for idx, fam in enumerate(families):
        fw, sets, fam_targets, types, general, tiles = check_family(
            g, where, idx, fam, FAMILY_KEYS, ("name", "sets", "targets", "types", "tiles"),
            combos, names)
        for tidx, tile in enumerate(tiles):
            tw = f"{fw} tile #{tidx}"
            g._check_keys(tw, tile, TILE_KEYS | OPTIONAL_TILE_KEYS, TILE_KEYS)
            for k in ("rows_per_block", "warps_per_row", "repeat", "lanes_per_row",
                      "rows_in_flight"):
                if k not in tile:
                    continue
                if not isinstance(tile[k], int) or isinstance(tile[k], bool) or tile[k] < 1:
                    raise g.GenError(f"{tw}: {k} must be a positive integer")
            if not isinstance(tile["vector"], bool):
                raise g.GenError(f"{tw}: vector must be true or false")
            if "rows_in_flight" in tile:
                # Staged rows (norm_kernel's RowsInFlight): whole rows of a block, copied in
                # 16-byte vectors, at most 8 in flight.
                if op != "norm":
                    raise g.GenError(f"{tw}: rows_in_flight is a norm tile option")
                if tile["rows_per_block"] != 1 or not tile["vector"] or \
                        not 2 <= tile["rows_in_flight"] <= 8:
                    raise g.GenError(f"{tw}: rows_in_flight (2 to 8) needs rows_per_block 1 "
                                     "and vector true")
            if general and tile["vector"]:
                raise g.GenError(f"{fw}: a general family must use vector false (it must "
                                 "accept every alignment and row length)")
            if instance_set not in sets:
                continue
            for target in targets:
                if "*" not in fam_targets and target not in fam_targets:
                    continue
                tinfo = g.TARGETS[target]
                threads = tile_threads(g, tw, tile, tinfo["warp"], target)
                if threads > tinfo["max_threads"]:
                    raise g.GenError(f"{tw}: {threads} threads per block on {target} exceeds "
                                     f"{tinfo['max_threads']}")
                for tname in types:
                    combo = combos[tname]
                    xbytes = g.DATATYPES[combo["x"]][2]
                    vec = 16 // xbytes if tile["vector"] else 1
                    if tile["repeat"] * vec > 64:
                        raise g.GenError(f"{tw}: {tile['repeat'] * vec} elements per thread "
                                         "per chunk would spill registers (at most 64)")
                    name = instance_name(op, roles, combo, tile)
                    if name in seen[target]:
                        raise g.GenError(f"{fw}: instance {name} for {target} is also "
                                         f"produced by {seen[target][name]}")
                    seen[target][name] = fw
                    result[target].append({
                        "op": op, "name": name, "id": g.fnv1a64(name), "family": fam["name"],
                        "combo": combo, "tile": tile, "general": general, "target": target,
                        "threads": threads})
    require_general(g, where, result, instance_set)
    return result


def check_list(g, doc, path, ops, top_keys, roles_of):
    """The checks every row-wise list shares: top-level keys, format version, the op (one of
    `ops`), type combinations of float types for the op's roles (`roles_of(op)`), a non-empty
    family list. Returns (file name for messages, combinations, families)."""
    where = os.path.basename(path)
    g._check_keys(where, doc, top_keys, ("format_version", "op", "type_combinations",
                                         "families"))
    if doc["format_version"] != g.FORMAT_VERSION:
        raise g.GenError(f"{where}: format_version {doc['format_version']!r}, expected "
                         f"{g.FORMAT_VERSION}")
    op = doc["op"]
    if op not in ops:
        raise g.GenError(f"{where}: op {op!r} is not one of {', '.join(ops)}")
    roles = roles_of(op)
    combos = doc["type_combinations"]
    if not isinstance(combos, dict) or not combos:
        raise g.GenError(f"{where}: type_combinations must be a non-empty object")
    for name, combo in combos.items():
        g._check_keys(f"{where} type combination '{name}'", combo, set(roles), roles)
        for role in roles:
            if combo[role] not in FLOAT_TYPES:
                raise g.GenError(f"{where} type combination '{name}': {role}={combo[role]!r} "
                                 f"is not one of {', '.join(FLOAT_TYPES)}")
    families = doc["families"]
    if not isinstance(families, list) or not families:
        raise g.GenError(f"{where}: families must be a non-empty list")
    return where, combos, families


def check_family(g, where, idx, fam, family_keys, required, combos, names):
    """The family checks every row-wise list shares; adds the name to `names`. Returns (name
    for messages, sets, targets, type combination names, general, tiles)."""
    g._check_keys(f"{where} family #{idx}", fam, family_keys, required)
    fw = f"{where} family '{fam['name']}'"
    if fam["name"] in names:
        raise g.GenError(f"{fw}: duplicate family name")
    names.add(fam["name"])
    sets = g._list_of(f"{fw} sets", fam["sets"], set(g.SETS))
    fam_targets = g._list_of(f"{fw} targets", fam["targets"], set(g.TARGETS) | {"*"})
    types = g._list_of(f"{fw} types", fam["types"], set(combos) | {"*"})
    if "*" in types:
        types = list(combos)
    general = fam.get("general", False)
    if not isinstance(general, bool):
        raise g.GenError(f"{fw} general: expected true or false")
    tiles = fam["tiles"]
    if not isinstance(tiles, list) or not tiles:
        raise g.GenError(f"{fw} tiles: expected a non-empty list")
    return fw, sets, fam_targets, types, general, tiles


def require_general(g, where, result, instance_set):
    """Every type combination with an instance in the set has a general instance."""
    for target, insts in result.items():
        gen = {tuple(sorted(i["combo"].items())) for i in insts if i["general"]}
        for inst in insts:
            if tuple(sorted(inst["combo"].items())) not in gen:
                raise g.GenError(f"{where}: instance {inst['name']} for {target} has no general "
                                 f"instance of its types in set {instance_set}")


def tile_threads(g, where, tile, warp, target):
    """Threads per block of a row tile on a target with `warp` lanes; checks lanes_per_row."""
    lanes = tile.get("lanes_per_row", warp)
    if warp % lanes != 0:
        raise g.GenError(f"{where}: lanes_per_row {lanes} does not divide the warp of {warp} "
                         f"lanes of {target}")
    rows_per_warp = warp // lanes
    if rows_per_warp > 1 and tile["warps_per_row"] != 1:
        raise g.GenError(f"{where}: rows narrower than a warp (lanes_per_row {lanes}) need "
                         "warps_per_row 1")
    if tile["rows_per_block"] % rows_per_warp != 0:
        raise g.GenError(f"{where}: rows_per_block {tile['rows_per_block']} is not a multiple "
                         f"of the {rows_per_warp} rows a warp holds on {target}")
    return tile["rows_per_block"] // rows_per_warp * tile["warps_per_row"] * warp


def row_tile_name(tile):
    """The tile part of a row instance's name: r<rows>_w<warps>_x<repeat>[_l<lanes>][_f<rows in
    flight>]."""
    lanes = f"_l{tile['lanes_per_row']}" if "lanes_per_row" in tile else ""
    flight = f"_f{tile['rows_in_flight']}" if "rows_in_flight" in tile else ""
    return "r{r}_w{w}_x{x}{l}{f}".format(r=tile["rows_per_block"], w=tile["warps_per_row"],
                                         x=tile["repeat"], l=lanes, f=flight)


def row_tile_shape_type(x_type, tile, vbytes):
    lanes = f", {tile['lanes_per_row']}" if "lanes_per_row" in tile else ""
    return "ck_tile::row_tile_shape<{x}, {r}, {w}, {rep}, {vb}{l}>".format(
        x=x_type, r=tile["rows_per_block"], w=tile["warps_per_row"], rep=tile["repeat"],
        vb=vbytes, l=lanes)


def instance_name(op, roles, combo, tile):
    types = "".join(g_short(combo[r]) for r in roles[:-1]) + "_" + g_short(combo[roles[-1]])
    return "{op}_{t}_accf32_{tile}_{v}".format(op=op, t=types, tile=row_tile_name(tile),
                                              v="v16" if tile["vector"] else "s")


def g_short(t):
    return {"fp16": "f16", "bf16": "bf16", "fp32": "f32"}[t]


def kernel_type(g, inst):
    op = OPS[inst["op"]]
    c, t = inst["combo"], inst["tile"]
    xt = g.DATATYPES[c["x"]][1]
    vbytes = 16 if t["vector"] else g.DATATYPES[c["x"]][2]
    shape = row_tile_shape_type(xt, t, vbytes)
    args = [g.DATATYPES[c[role]][1] for role in op[1]]
    staged = (", ck_tile::norm_kind::either, {}".format(t["rows_in_flight"])
              if "rows_in_flight" in t else "")
    return "{k}<{a}, {s}{f}>".format(k=op[2], a=", ".join(args), s=shape, f=staged)


def source_fields(g, inst):
    """(adapter header, record maker, kernel type, data type enums) of an instance; reduce.py
    fills them in when it expands, the ops of this file here."""
    if "ktype" in inst:
        return inst["header"], inst["maker"], inst["ktype"], inst["enums"]
    op = OPS[inst["op"]]
    return (op[4], op[3], kernel_type(g, inst),
            ", ".join(g.DATATYPES[inst["combo"][r]][0] for r in op[1]))


def group_source(g, group, src):
    headers = sorted({source_fields(g, i)[0] for i in group})
    out = [g.HEADER.format(src=src)]
    out += [f'#include "{h}"\n' for h in headers]
    out.append("\n#include <cstdint>\n\n")
    for inst in group:
        header, maker, ktype, enums = source_fields(g, inst)
        out.append(
            "extern const cktile_kernel_instance_t {sym} =\n"
            "    cktile::library::{maker}<\n"
            "        {ktype},\n"
            "        {enums}>(\n"
            "        0x{id:016x}ULL, \"{name}\", \"{target}\", {general});\n\n".format(
                sym=g.record_symbol(inst), maker=maker, ktype=ktype, enums=enums,
                id=inst["id"], name=inst["name"], target=inst["target"],
                general="true" if inst["general"] else "false"))
    return "".join(out)


def write_sources(g, tdir, instances, groups, src):
    """Writes rowwise_group_<i>.cpp files for `instances`; returns their paths.

    @post every instance is in exactly one file; stale group files are removed."""
    return g.write_grouped(tdir, "rowwise_group_", instances, groups,
                           lambda group: group_source(g, group, src))
