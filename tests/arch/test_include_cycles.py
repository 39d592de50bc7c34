#!/usr/bin/env python3
"""Self-test of include_cycles.py on small synthetic trees, so the check cannot pass vacuously:
it must find a cycle, name every include on it, honour and police the allow-list."""
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import include_cycles  # noqa: E402

# An acyclic tree shaped like malibu's: the board above the devices and the Mali device, the GPU
# engine and the stats below them, the CPU using the bus; the system main above the board, the
# GDB stub and the job-chain printer; malibu-decode (tools/) above the printer.
BASE = {
    "emu/cpu/cpu.h": "",
    "emu/cpu/mmu.c": '#include "cpu.h"\n#include "../../devices/bus.h"\n',
    "emu/gpu/compute.h": '#include "exec.h"\n',
    "emu/gpu/exec.h": "",
    "emu/gpu/compute.c": '#include <stdio.h>\n#include "compute.h"\n#include "isa_generated.h"\n',
    "emu/stats/stats.h": "",
    "emu/stats/stats_gpu.c": '#include "stats.h"\n#include "exec.h"\n',
    "emu/system/main.c": '#include "../../devices/board.h"\n#include "../gpu/compute.h"\n#include "../debug/gdb_stub.h"\n',
    "emu/system/gpu_trace.h": "",
    "emu/system/gpu_trace.c": '#include "gpu_trace.h"\n#include "../decode/job_print.h"\n',
    "emu/debug/gdb_stub.h": "",
    "emu/debug/trace.c": '#include "cpu.h"\n',
    "emu/decode/job_print.h": '#include "../gpu/exec.h"\n',
    "emu/decode/job_print.c": '#include "job_print.h"\n',
    "tools/malibu_decode.c": '#include "../emu/decode/job_print.h"\n',
    "emu/user/main.c": '#include "cpu.h"\n',
    "emu/timing/timing.h": "",
    "devices/bus.h": "",
    "devices/bus.c": '#include "bus.h"\n#include "../emu/stats/stats.h"\n',
    "devices/board.h": '#include "bus.h"\n',
    "devices/board.c": '#include "board.h"\n#include "mali/mali.h"\n#include "../emu/gpu/compute.h"\n',
    "devices/virtio_board.h": "",
    "devices/virtio_board.c": '#include "board.h"\n',
    "devices/mali/mali.h": '#include "../bus.h"\n',
    "devices/mali/mali.c": '#include "mali.h"\n#include "../../emu/stats/stats.h"\n',
    "firmware/psci.h": "",
}


class IncludeCycles(unittest.TestCase):
    def run_check(self, changes, allow=None):
        """(ok, report) of include_cycles.check on BASE with changes (path: text, None removes)."""
        files = dict(BASE)
        for path, text in changes.items():
            if text is None:
                files.pop(path)
            else:
                files[path] = files.get(path, "") + text
        with tempfile.TemporaryDirectory() as root:
            for path, text in files.items():
                os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(root, path), "w") as f:
                    f.write(text)
            allow_path = None
            if allow is not None:
                allow_path = os.path.join(root, "allow")
                with open(allow_path, "w") as f:
                    f.write(allow)
            out = io.StringIO()
            ok = include_cycles.check(root, allow_path, out=out)
            return ok, out.getvalue()

    def test_acyclic_tree_passes(self):
        ok, report = self.run_check({})
        self.assertTrue(ok, report)
        self.assertIn("0 allowed; ok", report)

    def test_cycle_fails_and_names_each_include(self):
        # the engine including the device back: emu/gpu -> devices/mali -> emu/stats -> emu/gpu
        ok, report = self.run_check({"emu/gpu/compute.c": '#include "../../devices/mali/mali.h"\n'})
        self.assertFalse(ok, report)
        self.assertIn("emu/gpu/compute.c:4 includes devices/mali/mali.h  (emu/gpu -> devices/mali)", report)
        self.assertIn("devices/mali/mali.c:2 includes emu/stats/stats.h", report)
        self.assertIn("emu/stats/stats_gpu.c:2 includes emu/gpu/exec.h", report)

    def test_cycle_through_include_path(self):
        # "stats.h" found through the -I directories, not next to the file
        ok, report = self.run_check({"emu/gpu/exec.h": '#include "stats.h"\n'})
        self.assertFalse(ok, report)
        self.assertIn("emu/gpu/exec.h:1 includes emu/stats/stats.h  (emu/gpu -> emu/stats)", report)

    def test_device_including_the_board_is_a_cycle(self):
        ok, report = self.run_check({"devices/mali/mali.c": '#include "../board.h"\n'})
        self.assertFalse(ok, report)
        self.assertIn("devices/board -> devices/mali -> devices/board", report)

    def test_allow_list_tolerates_listed_includes(self):
        ok, report = self.run_check(
            {"emu/gpu/compute.c": '#include "../../devices/mali/mali.h"\n'},
            "# comment\nemu/gpu/compute.c -> devices/mali/mali.h   # goes later\n")
        self.assertTrue(ok, report)
        self.assertIn("allowed: emu/gpu/compute.c:4 includes devices/mali/mali.h, closing", report)

    def test_allow_list_does_not_hide_another_cycle(self):
        ok, report = self.run_check(
            {"emu/gpu/compute.c": '#include "../../devices/mali/mali.h"\n',
             "emu/gpu/exec.h": '#include "../../devices/board.h"\n'},
            "emu/gpu/compute.c -> devices/mali/mali.h\n")
        self.assertFalse(ok, report)
        self.assertIn("emu/gpu/exec.h:1 includes devices/board.h", report)

    def test_allow_list_entry_for_a_removed_include_fails(self):
        ok, report = self.run_check({}, "emu/gpu/compute.c -> devices/mali/mali.h\n")
        self.assertFalse(ok, report)
        self.assertIn("emu/gpu/compute.c no longer includes devices/mali/mali.h", report)

    def test_allow_list_entry_that_closes_no_cycle_fails(self):
        ok, report = self.run_check({}, "devices/bus.c -> emu/stats/stats.h\n")
        self.assertFalse(ok, report)
        self.assertIn("no longer closes a cycle", report)

    def test_missing_directory_is_an_error(self):
        with self.assertRaises(SystemExit):
            self.run_check({"firmware/psci.h": None})
        with self.assertRaises(SystemExit):
            self.run_check({"tools/malibu_decode.c": None})

    def test_printer_including_the_system_is_a_cycle(self):
        # the library reaching back into one of the programs that link it
        ok, report = self.run_check({"emu/decode/job_print.c": '#include "../system/gpu_trace.h"\n'})
        self.assertFalse(ok, report)
        self.assertIn("emu/decode/job_print.c:2 includes emu/system/gpu_trace.h  (emu/decode -> emu/system)",
                      report)
        self.assertIn("emu/system/gpu_trace.c:2 includes emu/decode/job_print.h  (emu/system -> emu/decode)",
                      report)

    def test_cycle_through_the_debug_directory(self):
        # emu/debug found through its -I directory: emu/cpu -> emu/debug -> emu/cpu
        ok, report = self.run_check({"emu/cpu/cpu.h": '#include "gdb_stub.h"\n'})
        self.assertFalse(ok, report)
        self.assertIn("emu/cpu/cpu.h:1 includes emu/debug/gdb_stub.h  (emu/cpu -> emu/debug)", report)
        self.assertIn("emu/debug/trace.c:1 includes emu/cpu/cpu.h", report)

    def test_cycle_between_system_and_debug(self):
        ok, report = self.run_check({"emu/debug/gdb_stub.h": '#include "../system/gpu_trace.h"\n'})
        self.assertFalse(ok, report)
        self.assertIn("emu/debug -> emu/system -> emu/debug", report)

    def test_cycle_with_a_tool(self):
        ok, report = self.run_check({"emu/decode/job_print.h": '#include "../../tools/malibu_decode.h"\n',
                                     "tools/malibu_decode.h": ""})
        self.assertFalse(ok, report)
        self.assertIn("emu/decode/job_print.h:2 includes tools/malibu_decode.h  (emu/decode -> tools)", report)

    def test_new_directory_is_read_without_being_listed(self):
        ok, report = self.run_check({"emu/newpart/part.h": '#include "../system/gpu_trace.h"\n',
                                     "emu/system/gpu_trace.h": '#include "../newpart/part.h"\n'})
        self.assertFalse(ok, report)
        self.assertIn("emu/newpart -> emu/system -> emu/newpart", report)

    def test_guest_sample_programs_are_read(self):
        ok, report = self.run_check({"guest-images/apps/common.h": '#include "../../emu/gpu/exec.h"\n',
                                     "guest-images/apps/vecadd.c": '#include "common.h"\n',
                                     "emu/gpu/exec.h": '#include "../../guest-images/apps/common.h"\n'})
        self.assertFalse(ok, report)
        self.assertIn("emu/gpu -> guest-images/apps -> emu/gpu", report)

if __name__ == "__main__":
    unittest.main(verbosity=1)
