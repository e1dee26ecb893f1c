#!/usr/bin/env python3
"""The Windows scheduled task of the export (src/dist/windows/usbsat-export-task.xml), the twin of
usbsat-export.timer.

  windows_task_test.py TASK_XML USBSAT RECORDING
    1. a Task Scheduler 1.2 document: every trigger repeats every 5 minutes (PT5M, as the timer), it runs as SYSTEM,
       one instance at a time, stopped after less than 5 minutes;
    2. the action runs usbsat.exe with exactly `export --prometheus -o "C:\\Program Files\\windows_exporter\\
       textfile_inputs\\usbsat.prom"` (windows_exporter's default textfile directory); the same arguments, the
       path swapped for a temporary file, work on the Linux build (on RECORDING with --from): the options exist
       and the file is written;
    3. where wine is installed: wine's `schtasks /create /xml` registers it (a throwaway WINEPREFIX), and refuses
       a copy with a broken element (wine's Task Scheduler drops triggers and actions, so 1 and 2 check those).
Exit 77 (skip) never: without wine, step 3 is left out (said on stdout).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

NS = {"t": "http://schemas.microsoft.com/windows/2004/02/mit/task"}
OUT = r"C:\Program Files\windows_exporter\textfile_inputs\usbsat.prom"
ARGS = f'export --prometheus -o "{OUT}"'
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import checks  # noqa: E402  (tests/support/checks.py: one rule for every script)
from checks import check, finish, main_with  # noqa: E402

checks.verbose = True


def main(task_xml, usbsat, recording):
    root = ET.parse(task_xml).getroot()
    check(root.tag == f"{{{NS['t']}}}Task" and root.get("version") == "1.2", "a Task Scheduler 1.2 <Task>")
    triggers = list(root.find("t:Triggers", NS))
    intervals = [t.findtext("t:Repetition/t:Interval", namespaces=NS) for t in triggers]
    check(triggers and intervals == ["PT5M"] * len(triggers),
          f"every trigger repeats every 5 minutes: {[t.tag.split('}')[1] for t in triggers]} {intervals}")
    check(root.findtext("t:Principals/t:Principal/t:UserId", namespaces=NS) == "S-1-5-18", "runs as SYSTEM")
    check(root.findtext("t:Settings/t:MultipleInstancesPolicy", namespaces=NS) == "IgnoreNew",
          "one instance at a time")
    limit = root.findtext("t:Settings/t:ExecutionTimeLimit", namespaces=NS) or ""
    check(limit.startswith("PT") and limit.endswith("M") and 0 < int(limit[2:-1]) < 5,
          f"stopped before the next run ({limit})")
    execs = root.findall("t:Actions/t:Exec", NS)
    command = execs[0].findtext("t:Command", namespaces=NS) if len(execs) == 1 else ""
    check(command.strip('"').lower().endswith("\\usbsat.exe"), f"one action, usbsat.exe: {command}")
    args = execs[0].findtext("t:Arguments", namespaces=NS) if execs else ""
    check(args == ARGS, f"its arguments are `{ARGS}`: `{args}`")

    with tempfile.TemporaryDirectory() as tmp:
        prom = os.path.join(tmp, "usbsat.prom")
        argv = args.replace(f'"{OUT}"', prom).split()
        p = subprocess.run([usbsat, "--from", recording, *argv], capture_output=True, text=True)
        written = os.path.exists(prom) and "usbsat_drive_link_speed_bytes_per_second{" in open(prom).read()
        check(p.returncode == 0 and written,
              f"the Linux build runs the same arguments (exit {p.returncode}{'' if written else ', no file'}) "
              f"{p.stderr.strip()}")

        wine = shutil.which("wine")
        if not wine:
            print("note: wine not found: schtasks /create /xml not tried")
            return finish()
        env = dict(os.environ, WINEPREFIX=os.path.join(tmp, "wine"), WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=")
        # Both files in the prefix's working directory, named relatively (wine maps it to a Windows path).
        with open(task_xml) as f:
            text = f.read()
        for name, body in (("task.xml", text), ("broken.xml", text.replace("<Settings>", "<Settings><Bogus>", 1))):
            with open(os.path.join(tmp, name), "w") as g:
                g.write(body)

        def schtasks(name, path):
            try:
                return subprocess.run([wine, "schtasks", "/create", "/tn", name, "/xml", path], env=env, cwd=tmp,
                                      capture_output=True, text=True, timeout=120).returncode
            except subprocess.TimeoutExpired:
                return "timeout"

        good_rc = schtasks("usbsat-export", "task.xml")
        check(good_rc == 0, f"wine schtasks /create /xml registers it (exit {good_rc})")
        bad_rc = schtasks("usbsat-export-broken", "broken.xml")
        check(bad_rc not in (0, "timeout"), f"and refuses a broken copy (exit {bad_rc})")
        subprocess.run(["wineserver", "-k"], env=env, capture_output=True, timeout=30)
    return finish()


if __name__ == "__main__":
    main_with(main, 3, __doc__)
