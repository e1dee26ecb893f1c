#!/usr/bin/env python3
"""The one `-o` rule (src/cli/output_file.hpp) for every command that writes a file: export, report, record.

    output_e2e.py USBSAT SAMPLE CASE COMMAND

SAMPLE is a recording for --from (export and report; record scans this system). COMMAND is export, report or
record. CASE:
  chardev    (root) -o onto a character device node made with mknod (1,3: /dev/null): exit 0, still a
             character device (export renamed its temporary file over it: a 0644 regular file)
  fifo       -o a FIFO with a reader: the reader gets the output, the FIFO stays a FIFO
  devstdout  -o /dev/stdout with stdout a pipe: the bytes arrive on the pipe, /dev/stdout stays a symlink
  devstdout_file  -o /dev/stdout with stdout redirected to a file: the file gets the bytes, /dev/stdout stays
             a symlink (its target is replaced, never the link)
  symlink    -o LINK, a symlink to an existing file: the file gets the output, LINK stays a symlink to it
  directory  -o DIR: exit 2 with a sentence, the directory untouched
  empty      -o '': exit 2 with a sentence
  dash       -o -: the output on stdout, no file named "-"
  full_disk  (root) -o over an existing file on a full 64k tmpfs: exit 3, the old content intact, no
             temporary file left
Exit 77 (skip) for the root cases without root, or when tmpfs cannot be mounted.
"""
import os
import stat
import subprocess
import sys
import tempfile
import threading

TIMEOUT = 60
# A prefix every output of each command starts with (where it is written is not part of it).
HEAD = {"export": b"# HELP", "report": b"<!DOCTYPE html>", "record": b"{"}


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def skip(msg):
    print("SKIP:", msg)
    sys.exit(77)


def argv_for(usbsat, sample, command, output):
    # --time: a fixed page time, so two reports differ only in their command line.
    extra = {"export": ["export", "--prometheus"], "report": ["report", "--time", "t"], "record": ["record"]}
    front = [usbsat] if command == "record" else [usbsat, "--from", sample]
    return front + extra[command] + ["-o", output]


def run(argv, cwd, **kw):
    try:
        p = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=TIMEOUT, **kw)
    except subprocess.TimeoutExpired:
        fail(f"{argv}: still running after {TIMEOUT} s")
    if "internal error" in p.stderr.decode(errors="replace") or p.returncode < 0:
        fail(f"{argv}: crashed ({p.returncode}): {p.stderr.decode(errors='replace')[-500:]}")
    return p


def expect(p, code, what):
    ok = p.returncode in ((0, 4) if code == 0 else (code,))  # 4: a scan diagnostic of this system (record)
    if not ok:
        fail(f"{what}: exit {p.returncode}, want {code}: {p.stderr.decode(errors='replace').strip()}")


def need_root(case):
    if os.geteuid() != 0:
        skip(f"{case} needs root")


def case_chardev(argv, tmp, command):
    need_root("chardev")
    node = os.path.join(tmp, "n")
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    p = run(argv(node), tmp)
    expect(p, 0, f"-o onto a character device ({command})")
    mode = os.lstat(node).st_mode
    if not stat.S_ISCHR(mode):
        fail(f"{command} -o NODE replaced the character device by {stat.filemode(mode)}")
    if os.listdir(tmp) != ["n"]:
        fail(f"{command} left {sorted(os.listdir(tmp))} beside the device")


def case_fifo(argv, tmp, command):
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    got = []

    def reader():
        with open(fifo, "rb") as f:
            got.append(f.read())
    t = threading.Thread(target=reader, daemon=True)  # daemon: blocked forever in open() if never written
    t.start()
    p = run(argv(fifo), tmp)
    expect(p, 0, f"-o a FIFO ({command})")
    t.join(timeout=10)
    if not got:
        fail(f"{command} -o FIFO: the reader got nothing (the FIFO is now "
             f"{stat.filemode(os.lstat(fifo).st_mode)})")
    if not got[0].startswith(HEAD[command]):
        fail(f"{command} -o FIFO: the reader got {got[0][:60]!r}")
    if not stat.S_ISFIFO(os.lstat(fifo).st_mode):
        fail(f"{command} -o FIFO replaced the FIFO")


def case_devstdout(argv, tmp, command):
    if not os.path.islink("/dev/stdout"):
        skip("/dev/stdout is not a symlink here")
    p = run(argv("/dev/stdout"), tmp)
    expect(p, 0, f"-o /dev/stdout ({command})")
    if not os.path.islink("/dev/stdout"):
        fail(f"{command} -o /dev/stdout replaced the /dev/stdout symlink")
    if not p.stdout.startswith(HEAD[command]):
        fail(f"{command} -o /dev/stdout: stdout is {p.stdout[:60]!r}")


def case_devstdout_file(argv, tmp, command):
    if not os.path.islink("/dev/stdout"):
        skip("/dev/stdout is not a symlink here")
    out = os.path.join(tmp, "out")
    with open(out, "wb") as f:
        try:
            p = subprocess.run(argv("/dev/stdout"), cwd=tmp, stdout=f, stderr=subprocess.PIPE, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            fail(f"{command} -o /dev/stdout > FILE: still running after {TIMEOUT} s")
    expect(p, 0, f"-o /dev/stdout > FILE ({command})")
    if not os.path.islink("/dev/stdout"):
        fail(f"{command} -o /dev/stdout > FILE replaced the /dev/stdout symlink")
    with open(out, "rb") as f:
        got = f.read()
    if not got.startswith(HEAD[command]):
        fail(f"{command} -o /dev/stdout > FILE: the file holds {got[:60]!r}")


def case_symlink(argv, tmp, command):
    real, link = os.path.join(tmp, "real"), os.path.join(tmp, "link")
    with open(real, "wb") as f:
        f.write(b"old\n")
    os.symlink("real", link)
    p = run(argv(link), tmp)
    expect(p, 0, f"-o LINK ({command})")
    if not os.path.islink(link) or os.readlink(link) != "real":
        fail(f"{command} -o LINK replaced the symlink")
    with open(real, "rb") as f:
        got = f.read()
    if not got.startswith(HEAD[command]):
        fail(f"{command} -o LINK: the file it points to holds {got[:60]!r}")
    if sorted(os.listdir(tmp)) != ["link", "real"]:
        fail(f"{command} -o LINK left {sorted(os.listdir(tmp))}")


def case_directory(argv, tmp, command):
    d = os.path.join(tmp, "d")
    os.mkdir(d)
    p = run(argv(d), tmp)
    expect(p, 2, f"-o DIR ({command})")
    if b"is a directory" not in p.stderr:
        fail(f"{command} -o DIR: no sentence saying it is a directory: {p.stderr!r}")
    if os.listdir(d) or sorted(os.listdir(tmp)) != ["d"]:
        fail(f"{command} -o DIR wrote {os.listdir(d)} / {os.listdir(tmp)}")


def case_empty(argv, tmp, command):
    p = run(argv(""), tmp)
    expect(p, 2, f"-o '' ({command})")
    if b"is not a file name" not in p.stderr:
        fail(f"{command} -o '': no sentence: {p.stderr!r}")
    if os.listdir(tmp):
        fail(f"{command} -o '' wrote {os.listdir(tmp)}")


def case_dash(argv, tmp, command):
    p = run(argv("-"), tmp)
    expect(p, 0, f"-o - ({command})")
    if not p.stdout.startswith(HEAD[command]):
        fail(f"{command} -o -: stdout is {p.stdout[:60]!r}")
    if os.listdir(tmp):
        fail(f"{command} -o - wrote {os.listdir(tmp)} instead of stdout")


def case_full_disk(argv, tmp, command):
    need_root("full_disk")
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    m = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt], capture_output=True, text=True)
    if m.returncode != 0:
        skip(f"cannot mount a tmpfs: {m.stderr.strip()}")
    try:
        old = b"the old content\n"
        target = os.path.join(mnt, "out")
        with open(target, "wb") as f:
            f.write(old)
        try:  # fill every block that is left
            with open(os.path.join(mnt, "filler"), "wb") as f:
                while True:
                    f.write(b"\0" * 4096)
                    f.flush()
        except OSError:
            pass
        p = run(argv(target), tmp)
        if p.returncode != 3:
            fail(f"{command} -o FILE on a full disk: exit {p.returncode}, want 3: {p.stderr!r}")
        if b"No space left on device" not in p.stderr:
            fail(f"{command} -o FILE on a full disk: the reason is not said: {p.stderr!r}")
        with open(target, "rb") as f:
            now = f.read()
        if now != old:
            fail(f"{command} -o FILE on a full disk lost the old content: now {len(now)} bytes {now[:40]!r}")
        left = sorted(set(os.listdir(mnt)) - {"out", "filler"})
        if left:
            fail(f"{command} -o FILE on a full disk left {left}")
    finally:
        subprocess.run(["umount", mnt], check=False)


CASES = {"chardev": case_chardev, "fifo": case_fifo, "devstdout": case_devstdout,
         "devstdout_file": case_devstdout_file, "symlink": case_symlink, "directory": case_directory,
         "empty": case_empty, "dash": case_dash, "full_disk": case_full_disk}


def main():
    if len(sys.argv) != 5 or sys.argv[3] not in CASES or sys.argv[4] not in HEAD:
        sys.exit(__doc__)
    usbsat, sample, case, command = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        CASES[case](lambda output: argv_for(usbsat, sample, command, output), tmp, command)
    print(f"ok: {command} -o ({case})")


if __name__ == "__main__":
    main()
