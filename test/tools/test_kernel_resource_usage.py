# SPDX-License-Identifier: MIT
"""scripts/kernel-resource-usage.py's reading of code sizes from a cubin (an ELF64 file), on a
small hand-built one."""

import importlib.util
import os
import struct
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                      "kernel-resource-usage.py")
spec = importlib.util.spec_from_file_location("kernel_resource_usage", SCRIPT)
kru = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kru)


def elf(sections):
    """An ELF64 file with a null section, a section name table and `sections` ((name, size)
    pairs; their contents are not read, so none are stored)."""
    names = b"\0.shstrtab\0" + b"".join(n.encode() + b"\0" for n, _ in sections)
    header = bytearray(64)
    header[:4] = b"\x7fELF"
    shoff = 64 + len(names)
    table = [struct.pack("<IIQQQQIIQQ", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
             struct.pack("<IIQQQQIIQQ", 1, 3, 0, 0, 64, len(names), 0, 0, 1, 0)]
    at = len(b"\0.shstrtab\0")
    for name, size in sections:
        table.append(struct.pack("<IIQQQQIIQQ", at, 1, 6, 0, 0, size, 0, 0, 128, 0))
        at += len(name) + 1
    struct.pack_into("<Q", header, 0x28, shoff)
    struct.pack_into("<HHH", header, 0x3A, 64, len(table), 1)
    return bytes(header) + names + b"".join(table)


class TextSizes(unittest.TestCase):
    def sizes_of(self, sections):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "k.cubin")
            with open(path, "wb") as f:
                f.write(elf(sections))
            return kru.text_sizes(path)

    def test_each_kernels_text_section_by_its_mangled_name(self):
        self.assertEqual(self.sizes_of([(".text._Z1av", 16 * 1872), (".text._Z1bv", 48),
                                        (".rela.text._Z1av", 24), (".nv.info._Z1av", 8)]),
                         {"_Z1av": 16 * 1872, "_Z1bv": 48})

    def test_no_kernels(self):
        self.assertEqual(self.sizes_of([(".nv.info", 8)]), {})


if __name__ == "__main__":
    unittest.main()
