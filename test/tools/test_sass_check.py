# SPDX-License-Identifier: MIT
"""scripts/sass-check.py on small hand-written SASS listings: what it passes and what it fails."""

import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                      "sass-check.py")
spec = importlib.util.spec_from_file_location("sass_check", SCRIPT)
sass_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sass_check)


def listing(name, body):
    """A cuobjdump-like function listing: one instruction per line with its address."""
    lines = [f"\t\tFunction : {name}"]
    for i, text in enumerate(body):
        lines.append(f"        /*{16 * i:04x}*/                   {text} ;"
                     f"                     /* 0x000000000000794d */")
    return "\n".join(lines) + "\n"


STAGE = ["SYNCS.PHASECHK.TRANS64.TRYWAIT P1, [R14+URZ], R13", "WARPGROUP.ARRIVE",
         "HGMMA.64x256x16.F32 R24, gdesc[UR12], R24",
         "HGMMA.64x256x16.F32 R24, gdesc[UR12], R24, gsb0", "WARPGROUP.DEPBAR.LE gsb0, 0x1",
         "SYNCS.ARRIVE.TRANS64.A1T0 RZ, [R12+URZ], RZ"]
GEMM = "_ZN7ck_tile16gemm_wgmma_entryIXEEvT_"


class SassCheck(unittest.TestCase):
    def run_on(self, text):
        code = sass_check.functions(text)
        return {n: sass_check.check(n, c)[1] for n, c in code.items() if "gemm_wgmma" in n}

    def test_a_clean_main_loop_passes(self):
        self.assertEqual(self.run_on(listing(GEMM, ["MOV R1, c[0x0][0x28]"] + STAGE + ["EXIT"])),
                         {GEMM: []})

    def test_local_memory_outside_the_mma_stretches_is_only_counted(self):
        body = ["STL [R1], R2"] + STAGE + ["LDL R2, [R1]", "EXIT"]
        code = sass_check.functions(listing(GEMM, body))[GEMM]
        report, problems = sass_check.check(GEMM, code)
        self.assertEqual((report["local"], report["inside"], problems), (2, 0, []))

    def test_a_spill_between_the_mmas_fails(self):
        body = STAGE[:3] + ["STL.64 [R1+0x8], R2"] + STAGE[3:]
        problems = self.run_on(listing(GEMM, body))[GEMM]
        self.assertEqual(len(problems), 1)
        self.assertIn("inside MMA stretches", problems[0])

    def test_a_spill_before_the_wait_for_the_mmas_fails(self):
        body = STAGE[:4] + ["LDL R2, [R1]"] + STAGE[4:]
        self.assertEqual(len(self.run_on(listing(GEMM, body))[GEMM]), 1)

    def test_8_bit_mmas_count(self):
        body = ["WARPGROUP.ARRIVE", "QGMMA.64x256x32.F32.E4M3.E4M3 R24, gdesc[UR8], R24, gsb0",
                "IGMMA.64x256x32.S8.S8 R24, gdesc[UR8], R24, gsb0", "WARPGROUP.DEPBAR.LE gsb0, 0x0"]
        report, problems = sass_check.check(GEMM, sass_check.functions(listing(GEMM, body))[GEMM])
        self.assertEqual((report["mmas"], problems), (2, []))

    def test_a_gemm_kernel_without_warpgroup_mma_fails(self):
        body = ["HMMA.16816.F32 R4, R8, R12, R4", "EXIT"]
        self.assertEqual(self.run_on(listing(GEMM, body))[GEMM], ["no warpgroup MMA instruction"])

    def test_other_kernels_are_not_checked(self):
        text = listing("_ZN7ck_tile6kentryIXEEvT_", ["STL [R1], R2", "EXIT"]) + \
            listing(GEMM, STAGE)
        self.assertEqual(list(self.run_on(text)), [GEMM])

    def test_the_command_line_exit_codes(self):
        with tempfile.TemporaryDirectory() as d:
            good, bad = os.path.join(d, "good.sass"), os.path.join(d, "bad.sass")
            with open(good, "w", encoding="utf-8") as f:
                f.write(listing(GEMM, STAGE))
            with open(bad, "w", encoding="utf-8") as f:
                f.write(listing(GEMM, STAGE[:3] + ["STL [R1], R2"] + STAGE[3:]))
            run = lambda p: subprocess.run([sys.executable, SCRIPT, p], capture_output=True,
                                           text=True)
            self.assertEqual(run(good).returncode, 0)
            failed = run(bad)
            self.assertEqual(failed.returncode, 1)
            self.assertIn("FAIL", failed.stdout)


if __name__ == "__main__":
    unittest.main()
