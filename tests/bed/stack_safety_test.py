#!/usr/bin/env python3
"""Write safety over storage stacks, with real loop devices, device-mapper and mounts (root only; 77 = SKIP).

    stack_safety_test.py USBSAT CASE
    CASE: second_loop | nested_file | dm_linear | partition | swap | control | mounted_during_write

Each refusal case builds a stack in which the device usbsat is asked to write shares its bytes with a
mounted filesystem (or a swap area) through another member, runs the real
`usbsat load --pattern write --write --allow-write X X`, and checks exit 5, that the message names the mounted
member, that the mounted filesystem's image is byte for byte unchanged (sha256) and that e2fsck finds it clean.
`control` writes an unmounted, unused loop device: allowed, and the bytes change (so the checks can fail).
`mounted_during_write` attaches and mounts a loop device over an image file while a write load runs on the
file: the run stops with exit 5 within about a second (the re-check during the run, issue 41).
Every loop device, dm device, swap area and mount is removed in a finally block.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_test  # noqa: E402  (check/skip/sha/write_mbr and the main)
from e2e_test import check, sha, skip, write_mbr  # noqa: E402

WRITE = ["--pattern", "write", "--runtime", "0.3", "--ramp", "0", "--bs", "4k", "--write"]


def sh(*argv):
    return subprocess.run(argv, check=True, capture_output=True, text=True).stdout.strip()


def add_partitions(disk):
    """Wait for the kernel's partitions of `disk` (losetup -P); a kernel without the MBR parser
    (no CONFIG_MSDOS_PARTITION) gets them from partx -a, which reads the table itself (BLKPG)."""
    for _ in range(20):
        if os.path.exists(disk + "p1"):
            return
        time.sleep(0.1)
    subprocess.run(["partx", "-a", disk], capture_output=True)


class Stack:
    """Loop devices, dm devices, swap areas and mounts made by one case, undone in reverse order."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.undo = []

    def image(self, name, mb=64, fs=True):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.truncate(mb << 20)
        if fs:
            sh("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", path)
        return path

    def loop(self, backing, *opts):
        dev = sh("losetup", "-f", "--show", *opts, backing)
        self.undo.append(["losetup", "-d", dev])
        return dev

    def mount(self, dev, name, *opts):
        mnt = os.path.join(self.tmp, name)
        os.makedirs(mnt, exist_ok=True)
        sh("mount", *opts, dev, mnt)
        self.undo.append(["umount", mnt])
        return mnt

    def dm_linear(self, name, dev):
        sectors = int(sh("blockdev", "--getsz", dev))
        sh("dmsetup", "create", name, "--table", f"0 {sectors} linear {dev} 0")
        self.undo.append(["dmsetup", "remove", "--retry", name])
        return f"/dev/mapper/{name}"

    def swapon(self, dev):
        sh("mkswap", dev)
        subprocess.run(["swapon", dev], check=True, capture_output=True, text=True)
        self.undo.append(["swapoff", dev])

    def teardown(self):
        for argv in reversed(self.undo):
            r = subprocess.run(argv, capture_output=True, text=True)
            if r.returncode != 0:
                e2e_test.checks.fail(f"cleanup {' '.join(argv)}: {r.stderr.strip()}")
        self.undo.clear()


def refused(usbsat, target, image, needle, why):
    """Writing `target` must be refused (exit 5, `needle` named) and leave `image` unchanged."""
    before = sha(image)
    r = subprocess.run([usbsat, "load", *WRITE, "--allow-write", target, target], capture_output=True, text=True)
    check(r.returncode == 5, f"{why}: exit 5 (got {r.returncode}; {r.stderr.strip()})")
    check(needle in r.stderr, f"{why}: the message names {needle} ({r.stderr.strip()})")
    check(sha(image) == before, f"{why}: {os.path.basename(image)} bytes unchanged")


def fsck_clean(image, why):
    r = subprocess.run(["e2fsck", "-fn", image], capture_output=True, text=True)
    check(r.returncode == 0, f"{why}: e2fsck -fn {os.path.basename(image)} is clean (exit {r.returncode}"
                             f"{'; ' + r.stdout.strip()[-300:] if r.returncode else ''})")


def case_second_loop(usbsat, st):
    # issue 24 item 2: a second loop device over the image of a mounted loop device.
    img = st.image("fs.img")
    l0 = st.loop(img)
    st.mount(l0, "m", "-o", "ro")
    l2 = st.loop(img)
    refused(usbsat, l2, img, os.path.basename(l0), "second loop over a mounted image")
    link = os.path.join(st.tmp, "link-to-l2")
    os.symlink(l2, link)
    refused(usbsat, link, img, os.path.basename(l0), "second loop over a mounted image, named by a symlink")
    # The image unlinked (sysfs then says "fs.img (deleted)"), a hard link keeping its bytes: the loop
    # devices still share one inode, which the kernel reports (LOOP_GET_STATUS64).
    keep = os.path.join(st.tmp, "keep.img")
    os.link(img, keep)
    os.unlink(img)
    refused(usbsat, l2, keep, os.path.basename(l0), "second loop over a mounted image that was unlinked")
    refused(usbsat, keep, keep, os.path.basename(l0), "another link to the unlinked image of a mounted loop device")
    st.teardown()
    fsck_clean(keep, "second loop over a mounted image")


def case_nested_file(usbsat, st):
    # inner.img lives on the filesystem of outer.img (mounted through one loop device) and is itself mounted
    # through another; a third loop device over inner.img must not be writable.
    outer = st.image("outer.img", 96)
    lo = st.loop(outer)
    m1 = st.mount(lo, "outer", "-o", "noatime")  # noatime: reading inner.img leaves outer.img's bytes alone
    inner = os.path.join(m1, "inner.img")
    with open(inner, "wb") as f:
        f.truncate(32 << 20)
    sh("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", inner)
    sh("sync")
    li = st.loop(inner)
    st.mount(li, "inner", "-o", "ro")
    lx = st.loop(inner)
    refused(usbsat, lx, inner, os.path.basename(li), "loop over a file on a mounted fs whose image is mounted")
    refused(usbsat, lo, outer, "mounted", "the loop device holding the outer filesystem")
    copy = os.path.join(st.tmp, "inner-copy.img")
    shutil.copyfile(inner, copy)  # before teardown unmounts outer, which holds inner.img
    st.teardown()
    fsck_clean(copy, "inner image")
    fsck_clean(outer, "outer image")


def case_dm_linear(usbsat, st):
    if not shutil.which("dmsetup"):
        skip("no dmsetup (Debian package dmsetup)")
    img = st.image("fs.img")
    l0 = st.loop(img)
    st.mount(l0, "m", "-o", "ro")
    l1 = st.loop(img)
    try:
        dm = st.dm_linear(f"usbsat-stack-{os.getpid()}", l1)
    except subprocess.CalledProcessError as e:
        skip(f"device-mapper unavailable: {e.stderr.strip()}")
    refused(usbsat, dm, img, os.path.basename(l0), "dm-linear over a loop whose image is mounted")
    refused(usbsat, l1, img, os.path.basename(l0), "the loop under dm-linear")
    st.teardown()
    fsck_clean(img, "dm-linear over a mounted image")


def case_partition(usbsat, st):
    img = st.image("disk.img", 64, fs=False)
    half = (64 << 20) // 512 // 2
    write_mbr(img, (2048, half - 2048), (half, half))
    disk = st.loop(img, "-P")
    p1, p2 = disk + "p1", disk + "p2"
    add_partitions(disk)
    if not (os.path.exists(p1) and os.path.exists(p2)):
        skip(f"no partitions on {disk}, neither from the kernel nor from partx -a")
    sh("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", p1)
    st.mount(p1, "p1", "-o", "ro")
    p1_image = os.path.join(st.tmp, "p1.img")  # p1's bytes, to compare and fsck after
    refused(usbsat, p2, img, os.path.basename(p1), "another partition of a disk whose p1 is mounted")
    refused(usbsat, disk, img, os.path.basename(p1), "the whole disk of a mounted partition")
    # A second loop device with partscan over the same image: its p2 shares the disk with the mounted p1.
    disk2 = st.loop(img, "-P")
    add_partitions(disk2)
    if os.path.exists(disk2 + "p2"):
        refused(usbsat, disk2 + "p2", img, os.path.basename(p1), "p2 of a second loop over the image")
    st.teardown()
    with open(img, "rb") as src, open(p1_image, "wb") as dst:
        src.seek(2048 * 512)
        dst.write(src.read((half - 2048) * 512))
    fsck_clean(p1_image, "the mounted partition")


def case_swap(usbsat, st):
    img = st.image("swap.img", 32, fs=False)
    l0 = st.loop(img)
    try:
        st.swapon(l0)
    except subprocess.CalledProcessError as e:
        skip(f"swapon refused here: {e.stderr.strip()}")
    l1 = st.loop(img)
    refused(usbsat, l1, img, os.path.basename(l0), "second loop over an active swap area")
    # A swap file (allocated: swapon rejects holes), written by name.
    swapfile = os.path.join(st.tmp, "swapfile")
    with open(swapfile, "wb") as f:
        f.write(bytes(16 << 20))
    os.chmod(swapfile, 0o600)
    try:
        st.swapon(swapfile)
    except subprocess.CalledProcessError as e:
        print(f"note  swapon refused a swap file here ({e.stderr.strip()}); swap-file case not exercised")
        return
    refused(usbsat, swapfile, swapfile, "is used as swap", "an active swap file")
    st.teardown()


def case_control(usbsat, st):
    # Positive control: an unmounted, unused loop device (over an image that nothing else uses) is writable,
    # and the write does change the bytes, so the unchanged checksums above can fail.
    img = st.image("fs.img")
    l0 = st.loop(img)
    before = sha(img)
    r = subprocess.run([usbsat, "load", *WRITE, "--allow-write", l0, l0], capture_output=True, text=True)
    check(r.returncode == 0, f"unused loop device: the allowed write exits 0 (got {r.returncode}; "
                             f"{r.stderr.strip()})")
    check(sha(img) != before, "unused loop device: the allowed write changed the image")
    # And a dm-linear over it, with nothing mounted anywhere: allowed as well (its slave is held by dm only).
    if shutil.which("dmsetup"):
        try:
            dm = st.dm_linear(f"usbsat-ctl-{os.getpid()}", l0)
        except subprocess.CalledProcessError:
            dm = None
        if dm:
            r = subprocess.run([usbsat, "load", *WRITE, "--allow-write", dm, dm], capture_output=True, text=True)
            check(r.returncode == 0, f"unused dm-linear: the allowed write exits 0 (got {r.returncode}; "
                                     f"{r.stderr.strip()})")
    st.teardown()


def case_mounted_during_write(usbsat, st):
    # issue 41 item 7: the stack is checked again while the load runs. A write load on an image file (its last
    # 32 MiB: the ext4 filesystem in its first 32 MiB stays intact and mountable); a second after it starts, a
    # loop device is attached over the image and its filesystem mounted. The run must stop within about a
    # second (the re-check's interval) with exit 5, naming the loop device.
    img = os.path.join(st.tmp, "fs.img")
    with open(img, "wb") as f:
        f.truncate(64 << 20)
    sh("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", img, "32M")
    argv = [usbsat, "load", "--pattern", "write", "--runtime", "10", "--ramp", "0", "--bs", "64k", "--offset",
            "32m", "--size", "32m", "--write", "--allow-write", img, img]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1.0)
        check(p.poll() is None, "the write load runs before the stack changes")
        loop = st.loop(img)
        st.mount(loop, "m", "-o", "ro")
        changed = time.monotonic()
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    took = time.monotonic() - changed
    check(p.returncode == 5, f"a loop device mounted over the image during the run: exit 5 (got {p.returncode}; "
                             f"{err.strip()[-300:]})")
    check(os.path.basename(loop) in err and "stopped the write load" in err,
          f"the message names {os.path.basename(loop)} and says the load was stopped ({err.strip()[-300:]})")
    check(took < 4, f"stopped {took:.1f} s after the mount, want within the re-check's second (and a margin)")
    st.teardown()
    fsck_clean(img, "a loop device mounted over the image during the run")


CASES = {"second_loop": case_second_loop, "nested_file": case_nested_file, "dm_linear": case_dm_linear,
         "partition": case_partition, "swap": case_swap, "control": case_control,
         "mounted_during_write": case_mounted_during_write}

def run(case, usbsat):
    if not shutil.which("losetup") or not os.path.exists("/dev/loop-control"):
        skip("no loop devices")
    if not shutil.which("mkfs.ext4"):
        skip("no mkfs.ext4 (e2fsprogs)")
    with tempfile.TemporaryDirectory(prefix="usbsat-stack-") as tmp:
        stack = Stack(tmp)
        try:
            case(usbsat, stack)
        finally:
            stack.teardown()


if __name__ == "__main__":
    e2e_test.run_cases(CASES, __doc__, run)
