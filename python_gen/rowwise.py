# SPDX-License-Identifier: MIT
"""Row-wise memory-bound operations (instances/norm.json, instances/softmax.json): expansion,
validation and C++ sources. Used by generate.py; standard library only.

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


def expand(g, doc, path, instance_set, targets):
    """Validates `doc` and returns {target: [instance dict]}; `g` is the generate module.

    @post every instance fits its target; names and ids are unique per target; every type
    combination with an instance in the set has a general (scalar, any shape) instance."""
    where = os.path.basename(path)
    g._check_keys(where, doc, TOP_KEYS, ("format_version", "op", "type_combinations",
                                         "families"))
    if doc["format_version"] != g.FORMAT_VERSION:
        raise g.GenError(f"{where}: format_version {doc['format_version']!r}, expected "
                         f"{g.FORMAT_VERSION}")
    op = doc["op"]
    if op not in OPS:
        raise g.GenError(f"{where}: op {op!r} is not a row-wise op ({', '.join(OPS)})")
    roles = OPS[op][1]
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
    result = {t: [] for t in targets}
    seen = {t: {} for t in targets}
    names = set()
    for idx, fam in enumerate(families):
        g._check_keys(f"{where} family #{idx}", fam, FAMILY_KEYS,
                      ("name", "sets", "targets", "types", "tiles"))
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
        for tidx, tile in enumerate(tiles):
            tw = f"{fw} tile #{tidx}"
            g._check_keys(tw, tile, TILE_KEYS, TILE_KEYS)
            for k in ("rows_per_block", "warps_per_row", "repeat"):
                if not isinstance(tile[k], int) or isinstance(tile[k], bool) or tile[k] < 1:
                    raise g.GenError(f"{tw}: {k} must be a positive integer")
            if not isinstance(tile["vector"], bool):
                raise g.GenError(f"{tw}: vector must be true or false")
            if general and tile["vector"]:
                raise g.GenError(f"{fw}: a general family must use vector false (it must "
                                 "accept every alignment and row length)")
            if instance_set not in sets:
                continue
            for target in targets:
                if "*" not in fam_targets and target not in fam_targets:
                    continue
                tinfo = g.TARGETS[target]
                threads = tile["rows_per_block"] * tile["warps_per_row"] * tinfo["warp"]
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
    for target in targets:
        gen = {tuple(sorted(i["combo"].items())) for i in result[target] if i["general"]}
        for inst in result[target]:
            if tuple(sorted(inst["combo"].items())) not in gen:
                raise g.GenError(f"{where}: instance {inst['name']} for {target} has no general "
                                 f"instance of its types in set {instance_set}")
    return result


def instance_name(op, roles, combo, tile):
    types = "".join(g_short(combo[r]) for r in roles[:-1]) + "_" + g_short(combo[roles[-1]])
    return "{op}_{t}_accf32_r{r}_w{w}_x{x}_{v}".format(
        op=op, t=types, r=tile["rows_per_block"], w=tile["warps_per_row"], x=tile["repeat"],
        v="v16" if tile["vector"] else "s")


def g_short(t):
    return {"fp16": "f16", "bf16": "bf16", "fp32": "f32"}[t]


def kernel_type(g, inst):
    op = OPS[inst["op"]]
    c, t = inst["combo"], inst["tile"]
    xt = g.DATATYPES[c["x"]][1]
    vbytes = 16 if t["vector"] else g.DATATYPES[c["x"]][2]
    shape = "ck_tile::row_tile_shape<{x}, {r}, {w}, {rep}, {vb}>".format(
        x=xt, r=t["rows_per_block"], w=t["warps_per_row"], rep=t["repeat"], vb=vbytes)
    args = [g.DATATYPES[c[role]][1] for role in op[1]]
    return "{k}<{a}, {s}>".format(k=op[2], a=", ".join(args), s=shape)


def group_source(g, group, src):
    headers = sorted({OPS[i["op"]][4] for i in group})
    out = [g.HEADER.format(src=src)]
    out += [f'#include "{h}"\n' for h in headers]
    out.append("\n#include <cstdint>\n\n")
    for inst in group:
        op = OPS[inst["op"]]
        enums = ", ".join(g.DATATYPES[inst["combo"][r]][0] for r in op[1])
        out.append(
            "extern const cktile_kernel_instance_t {sym} =\n"
            "    cktile::library::{maker}<\n"
            "        {ktype},\n"
            "        {enums}>(\n"
            "        0x{id:016x}ULL, \"{name}\", \"{target}\", {general});\n\n".format(
                sym=g.record_symbol(inst), maker=op[3], ktype=kernel_type(g, inst), enums=enums,
                id=inst["id"], name=inst["name"], target=inst["target"],
                general="true" if inst["general"] else "false"))
    return "".join(out)


def write_sources(g, tdir, instances, groups, src):
    """Writes rowwise_group_<i>.cpp files for `instances`; returns their paths.

    @post every instance is in exactly one file; stale group files are removed."""
    return g.write_grouped(tdir, "rowwise_group_", instances, groups,
                           lambda group: group_source(g, group, src))
