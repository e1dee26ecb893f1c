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
  devstdout_append  -o /dev/stdout, /dev/fd/N and /proc/self/fd/1 with stdout (or fd N) opened for appending
             (`>> FILE`): the old content is kept and the output follows it, in the same file (inode)
  devstdout_position  -o /dev/stdout with stdout a file opened read-write at offset 4 (`1<> FILE` after
             a read): the output is written at that position, the first bytes kept, the same inode
  keep_mode  -o over an existing 0600 (and a 0640) file: the new file has the old mode (and owner);
             record --keep-serials onto a new name creates it 0600; export onto a new name 0644
  stale      stale temporary files of the target's own pattern (.NAME.XXXXXX, older than 10 minutes,
             regular, ours) beside it are removed; a fresh one, other names, a directory and a symlink of
             that pattern are kept
  signal     SIGINT and SIGTERM while the temporary file is written (strace delays its fsync): no
             temporary file left, the target holds the old content or the whole new one (SKIP without
             strace)
  symlink    -o LINK, a symlink to an existing file: the file gets the output, LINK stays a symlink to it
  directory  -o DIR: exit 2 with a sentence, the directory untouched
  empty      -o '': exit 2 with a sentence
  dash       -o -: the output on stdout, no file named "-"
  full_disk  (root) -o over an existing file on a full 64k tmpfs: exit 3, the old content intact, no
             temporary file left
Exit 77 (skip) for the root cases without root, or when tmpfs cannot be mounted.
"""
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import skip, stop as fail  # noqa: E402  (tests/support/checks.py; each failure here ends the case)

TIMEOUT = 60
# A prefix every output of each command starts with (where it is written is not part of it).
HEAD = {"export": b"# HELP", "report": b"<!DOCTYPE html>", "record": b"{"}


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


def run_to(argv, tmp, command, fileobj, what, **kw):
    try:
        p = subprocess.run(argv, cwd=tmp, stdout=fileobj, stderr=subprocess.PIPE, timeout=TIMEOUT, **kw)
    except subprocess.TimeoutExpired:
        fail(f"{command} {what}: still running after {TIMEOUT} s")
    expect(p, 0, f"{what} ({command})")
    return p


def check_kept_and_followed(path, old, ino, command, what):
    with open(path, "rb") as f:
        got = f.read()
    if not got.startswith(old):
        fail(f"{command} {what}: the old content is gone, the file holds {got[:60]!r}")
    if not got[len(old):].startswith(HEAD[command]):
        fail(f"{command} {what}: after the old content comes {got[len(old):len(old) + 60]!r}")
    if os.stat(path).st_ino != ino:
        fail(f"{command} {what}: the file was replaced (new inode), not written through")
    if sorted(os.listdir(os.path.dirname(path))) != [os.path.basename(path)]:
        fail(f"{command} {what} left {sorted(os.listdir(os.path.dirname(path)))}")


def case_devstdout_append(argv, tmp, command):
    # The shell's `usbsat ... -o /dev/stdout >> log`: fd 1 is the log with O_APPEND.
    out = os.path.join(tmp, "log")
    for alias, fd in (("/dev/stdout", 1), ("/proc/self/fd/1", 1), ("/dev/fd/5", 5)):
        old = b"OLD line kept\n"
        with open(out, "wb") as f:
            f.write(old)
        ino = os.stat(out).st_ino
        with open(out, "ab") as f:
            if fd == 1:
                run_to(argv(alias), tmp, command, f, f"-o {alias} >> FILE")
            else:
                os.dup2(f.fileno(), fd)
                try:
                    run_to(argv(alias), tmp, command, subprocess.DEVNULL, f"-o {alias} {fd}>> FILE",
                           pass_fds=(fd,))
                finally:
                    os.close(fd)
        check_kept_and_followed(out, old, ino, command, f"-o {alias} >> FILE")


def case_devstdout_position(argv, tmp, command):
    out = os.path.join(tmp, "log")
    with open(out, "wb") as f:
        f.write(b"HEADtail that the output overwrites" + b"x" * 100000)
    ino = os.stat(out).st_ino
    fd = os.open(out, os.O_RDWR)
    try:
        os.lseek(fd, 4, os.SEEK_SET)  # the descriptor's position is 4
        run_to(argv("/dev/stdout"), tmp, command, fd, "-o /dev/stdout 1<> FILE")
    finally:
        os.close(fd)
    check_kept_and_followed(out, b"HEAD", ino, command, "-o /dev/stdout at offset 4")


def case_keep_mode(argv, tmp, command):
    for mode in (0o600, 0o640):
        out = os.path.join(tmp, f"old{mode:o}")
        with open(out, "wb") as f:
            f.write(b"old\n")
        os.chmod(out, mode)
        if os.geteuid() == 0:
            os.chown(out, 65534, 65534)
        p = run(argv(out), tmp)
        expect(p, 0, f"-o over a {mode:o} file ({command})")
        st = os.stat(out)
        if stat.S_IMODE(st.st_mode) != mode:
            fail(f"{command} -o over a {mode:o} file left mode {stat.S_IMODE(st.st_mode):o}")
        if os.geteuid() == 0 and (st.st_uid, st.st_gid) != (65534, 65534):
            fail(f"{command} -o over a file of 65534:65534 left owner {st.st_uid}:{st.st_gid}")
        with open(out, "rb") as f:
            if not f.read().startswith(HEAD[command]):
                fail(f"{command} -o over a {mode:o} file did not write it")
    new = os.path.join(tmp, "new")
    want = 0o644
    if command == "record":
        new_argv = argv(new) + ["--keep-serials"]
        want = 0o600
    else:
        new_argv = argv(new)
    expect(run(new_argv, tmp), 0, f"-o onto a new name ({command})")
    got = stat.S_IMODE(os.stat(new).st_mode)
    if got != want:
        fail(f"{' '.join(new_argv[1:])}: a new file of mode {got:o}, want {want:o}")


def case_stale(argv, tmp, command):
    old = time.time() - 3600
    stale = [".out.AbC123", ".out.zzzzzz"]
    kept_files = [".out.Fresh1", ".out.abc12", ".out.abc1234", ".other.AbC123", "out.AbC123", ".out.ab-123"]
    for name in stale + kept_files:
        with open(os.path.join(tmp, name), "wb") as f:
            f.write(b"partial")
        if name != ".out.Fresh1":
            os.utime(os.path.join(tmp, name), (old, old))
    os.mkdir(os.path.join(tmp, ".out.Dir123"))
    os.symlink("out.AbC123", os.path.join(tmp, ".out.Lnk123"))
    os.utime(os.path.join(tmp, ".out.Lnk123"), (old, old), follow_symlinks=False)
    expect(run(argv(os.path.join(tmp, "out")), tmp), 0, f"-o with stale temporary files ({command})")
    want = sorted(["out"] + kept_files + [".out.Dir123", ".out.Lnk123"])
    if sorted(os.listdir(tmp)) != want:
        fail(f"{command} -o: left {sorted(os.listdir(tmp))}, want {want} (stale {stale} removed)")


def traced_usbsat(tracer, usbsat):
    """The pid of the usbsat strace runs (its child whose executable is usbsat), or None."""
    try:
        with open(f"/proc/{tracer.pid}/task/{tracer.pid}/children") as f:
            kids = [int(k) for k in f.read().split()]
    except OSError:
        return None
    for kid in kids:
        try:
            if os.path.samefile(os.readlink(f"/proc/{kid}/exe"), usbsat):
                return kid
        except OSError:
            pass
    return None


def case_signal(argv, tmp, command):
    if shutil.which("strace") is None:
        skip("strace is not installed (it delays the fsync of the temporary file)")
    out = os.path.join(tmp, "out")
    for sig in (signal.SIGINT, signal.SIGTERM):
        with open(out, "wb") as f:
            f.write(b"old\n")
        tracer = subprocess.Popen(["strace", "-qq", "-f", "-o", "/dev/null", "-e", "trace=fsync",
                                   "-e", "inject=fsync:delay_enter=1500000"] + argv(out),
                                  cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + TIMEOUT
        while not [n for n in os.listdir(tmp) if n.startswith(".out.")]:
            if tracer.poll() is not None or time.time() > deadline:
                fail(f"{command} -o FILE under strace: no temporary file seen ({tracer.stderr.read()!r})")
            time.sleep(0.005)
        child = traced_usbsat(tracer, argv(out)[0])
        if child is None:
            fail(f"{command} -o FILE under strace: no usbsat process below strace")
        os.kill(child, sig)
        tracer.wait(timeout=TIMEOUT)
        left = sorted(set(os.listdir(tmp)) - {"out"})
        if left:
            fail(f"{command} -o FILE, {signal.Signals(sig).name} before the rename: left {left}")
        with open(out, "rb") as f:
            got = f.read()
        if got != b"old\n" and not got.startswith(HEAD[command]):
            fail(f"{command} -o FILE, {signal.Signals(sig).name}: a torn file {got[:60]!r}")


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
         "devstdout_file": case_devstdout_file, "devstdout_append": case_devstdout_append,
         "devstdout_position": case_devstdout_position, "keep_mode": case_keep_mode, "stale": case_stale,
         "signal": case_signal, "symlink": case_symlink, "directory": case_directory,
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
