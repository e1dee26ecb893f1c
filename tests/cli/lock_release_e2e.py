#!/usr/bin/env python3
"""A load's targets are closed, and their locks released, before its report is printed.

    lock_release_e2e.py USBSAT COMMAND

COMMAND is load or saturate. Runs COMMAND on two temporary files ten times; each time, as soon as the first
byte of the report arrives on the pipe, takes each file's flock without waiting: it must be free, or the next load
a script starts after reading the report warns that "another process holds a lock" on it (the kernel closes a
process's files in fd order at exit, so the pipe's end of file came before the target's lock was released).
"""
import fcntl
import os
import subprocess
import sys
import tempfile

ROUNDS = 10


def main():
    usbsat, command = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, name) for name in ("a", "b")]
        for path in paths:
            with open(path, "wb") as f:
                f.write(os.urandom(4 << 20))
        if command == "load":
            argv = [usbsat, "load", "--runtime", "0.05", "--ramp", "0", "--bs", "4k", "--json", *paths]
        else:
            argv = [usbsat, "saturate", "--group", "g=" + ",".join(paths), "--runtime", "0.05", "--ramp", "0",
                    "--json"]
        held = 0
        for _ in range(ROUNDS):
            p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            first = p.stdout.read(1)
            for path in paths:
                with open(path, "rb") as f:
                    try:
                        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        fcntl.flock(f, fcntl.LOCK_UN)
                    except BlockingIOError:
                        held += 1
                        break
            rest = p.stdout.read()
            err = p.stderr.read().decode(errors="replace")
            rc = p.wait(timeout=60)
            if rc != 0 or not first:
                print(f"FAIL: {' '.join(argv)} exited {rc} with {len(first + rest)} bytes of output: {err}")
                return 1
        if held:
            print(f"FAIL: {command}: the target was still locked when its report arrived, {held} of {ROUNDS} runs")
            return 1
        print(f"ok: {command}: the target's lock was free when the report arrived, {ROUNDS} of {ROUNDS} runs")
        return 0


if __name__ == "__main__":
    sys.exit(main())
