#!/usr/bin/env python3
"""The Debian package of usbsat (src/dist/CMakeLists.txt, CPack), built once and checked from a scratch root.

  deb_test.py build BUILD_DIR      rm BUILD_DIR/package, run cpack: exactly one usbsat_*.deb (the CTest fixture)
  deb_test.py contents BUILD_DIR   dpkg-deb --info: Section, Maintainer, Description, Depends with libudev1 and
                                   liburing2 (dpkg-shlibdeps); dpkg -x into a temporary root; the extracted
                                   usbsat is a stripped program for the package's Architecture; its `--version`; `man -l` on its page: NAME, SYNOPSIS, DESCRIPTION, EXAMPLES
                                   and every command of `usbsat --help`; bash completes with the installed
                                   script, zsh -n parses _usbsat; the units, the schemas, the
                                   Prometheus rules (promtool check rules on the shipped copy)
  deb_test.py install BUILD_DIR    the package installs: `apt-get -s install ./usbsat_*.deb` resolves every
                                   Depends on this system; dpkg installs it into a scratch root with its own dpkg
                                   database (root only), the installed `usbsat` runs (`--version`, `drives` on a
                                   shipped recording), and dpkg removes every file again
  deb_test.py systemd BUILD_DIR    systemd-analyze verify on the extracted units (ExecStart pointed at the
                                   extracted binary, MANPATH at its man page, so Documentation=man:usbsat(1) resolves)
  deb_test.py same_files BUILD_DIR LINUX_BUILD_DIR
                                   a cross-built package (arm64) holds the same files as the Linux build's, which
                                   cpack packages into a temporary directory for the comparison
USBSAT_EMULATOR (a command, e.g. qemu-aarch64): the packaged usbsat runs under it (the arm64 leg).
Exit 77 (skip) only when a tool the step needs is absent.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import fail, finish, skip  # noqa: E402  (tests/support/checks.py: one rule for every script)


def need(*tools):
    for t in tools:
        if not shutil.which(t):
            skip(f"{t} not found")


def the_deb(build_dir):
    debs = glob.glob(os.path.join(build_dir, "package", "usbsat_*.deb"))
    if len(debs) != 1:
        print(f"FAIL: want exactly one usbsat_*.deb in {build_dir}/package, found {debs}", file=sys.stderr)
        sys.exit(1)
    return debs[0]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def architecture(deb):
    """The package's Architecture field (amd64, arm64)."""
    return run(["dpkg-deb", "--field", deb, "Architecture"]).stdout.strip()


def run_usbsat(usbsat, *args):
    """The packaged usbsat, under USBSAT_EMULATOR where that is set (a cross-built package)."""
    return run([*os.environ.get("USBSAT_EMULATOR", "").split(), usbsat, *args])


def build(build_dir):
    need("cpack", "dpkg-shlibdeps", "file")
    shutil.rmtree(os.path.join(build_dir, "package"), ignore_errors=True)
    p = run(["cpack", "--config", os.path.join(build_dir, "CPackConfig.cmake")], cwd=build_dir)
    if p.returncode != 0:
        fail(f"cpack exited {p.returncode}: {p.stdout}{p.stderr}")
        return
    the_deb(build_dir)


def commands_of(usbsat):
    """The subcommand names `usbsat --help` lists (its Subcommands: section)."""
    text = run_usbsat(usbsat, "--help").stdout
    section = text.split("Subcommands:", 1)[-1]
    return re.findall(r"^  (\w+)\s", section, re.M)


def contents(build_dir):
    need("dpkg-deb", "man", "bash")
    deb = the_deb(build_dir)
    info = run(["dpkg-deb", "--info", deb]).stdout
    depends = re.search(r"^ Depends: (.*)$", info, re.M)
    for lib in ("libudev1", "liburing2"):
        if not depends or not re.search(rf"\b{lib}\b", depends.group(1)):
            fail(f"Depends lacks {lib}: {depends.group(1) if depends else 'no Depends field'}")
    for field in ("Section: admin", "Maintainer: ", "Description: ", "Package: usbsat"):
        if f" {field}" not in info:
            fail(f"dpkg-deb --info has no '{field}'")
    with tempfile.TemporaryDirectory() as root:
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
        usbsat = os.path.join(root, "usr/bin/usbsat")
        arch = architecture(deb)
        machine = {"amd64": "x86-64", "arm64": "ARM aarch64"}.get(arch, arch)
        described = run(["file", "-b", usbsat]).stdout
        if machine not in described or "not stripped" in described:
            fail(f"the package is for {arch}, its usbsat is not a stripped {machine} program: {described.strip()}")
        version = run_usbsat(usbsat, "--version")
        if version.returncode != 0 or not re.fullmatch(r"usbsat \d+\.\d+\.\d+\n", version.stdout):
            fail(f"extracted usbsat --version: exit {version.returncode}, {version.stdout!r} {version.stderr!r}")
        page = os.path.join(root, "usr/share/man/man1/usbsat.1")
        env = dict(os.environ, MANWIDTH="80", LANG="C", LC_ALL="C")
        man = run(["man", "-l", "-P", "cat", page], env=env)
        if man.returncode != 0:
            fail(f"man -l {page}: exit {man.returncode}: {man.stderr}")
        for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXAMPLES"):
            if not re.search(rf"^{section}$", man.stdout, re.M):
                fail(f"the man page has no {section} section")
        if "???" in man.stdout:
            fail("the man page shows ??? under LANG=C (a raw non-ASCII character)")
        cmds = commands_of(usbsat)
        if len(cmds) < 5:
            fail(f"usbsat --help lists too few commands: {cmds}")
        for c in cmds:
            if not re.search(rf"^\s+{c}\b", man.stdout, re.M):
                fail(f"the man page does not list the command {c}")
        if "usbsat export --prometheus" not in man.stdout:
            fail("the man page's EXAMPLES lack the export example")

        bash_script = os.path.join(root, "usr/share/bash-completion/completions/usbsat")
        got = run(["bash", "-c", f"source {bash_script}; COMP_WORDS=(usbsat exp); COMP_CWORD=1; _usbsat; "
                   "echo \"${COMPREPLY[*]}\""]).stdout
        if got != "export\n":
            fail(f"installed bash completion of 'usbsat exp': {got!r}")
        zsh_script = os.path.join(root, "usr/share/zsh/vendor-completions/_usbsat")
        if not os.path.isfile(zsh_script):
            fail("no zsh completion at share/zsh/vendor-completions/_usbsat")
        elif shutil.which("zsh"):
            p = run(["zsh", "-n", zsh_script])
            if p.returncode != 0:
                fail(f"zsh -n _usbsat: {p.stderr}")
        for f in ("usr/lib/systemd/system/usbsat-export.service", "usr/lib/systemd/system/usbsat-export.timer",
                  "usr/share/usbsat/schemas/drives.schema.json", "usr/share/usbsat/prometheus/usbsat-rules.yml"):
            if not os.path.isfile(os.path.join(root, f)):
                fail(f"the package lacks /{f}")
        rules = os.path.join(root, "usr/share/usbsat/prometheus/usbsat-rules.yml")
        if os.path.isfile(rules) and shutil.which("promtool"):
            p = run(["promtool", "check", "rules", rules])
            if p.returncode != 0:
                fail(f"promtool check rules on the packaged rules: {p.stdout}{p.stderr}")
        with open(os.path.join(root, "usr/lib/systemd/system/usbsat-export.service"), encoding="utf-8") as f:
            if "ExecStart=/usr/bin/usbsat " not in f.read():
                fail("the service does not start /usr/bin/usbsat (the packaged path)")


def install(build_dir):
    need("apt-get", "dpkg")
    deb = os.path.abspath(the_deb(build_dir))
    sim = run(["apt-get", "-s", "install", deb])
    if sim.returncode != 0 or not re.search(r"^Inst usbsat ", sim.stdout, re.M):
        fail(f"apt-get -s install {deb}: exit {sim.returncode}: {sim.stdout[-800:]}{sim.stderr[-800:]}")
    if os.geteuid() != 0:
        skip("installing into a scratch dpkg root needs root")
    with tempfile.TemporaryDirectory() as root:
        admin = os.path.join(root, "var/lib/dpkg")
        for d in ("updates", "info", "triggers"):
            os.makedirs(os.path.join(admin, d))
        open(os.path.join(admin, "status"), "w").close()
        # The Depends were resolved against this system above; the scratch root has no libc6 package to satisfy.
        dpkg = ["dpkg", f"--root={root}", "--log=/dev/null"]
        p = run([*dpkg, "--force-depends", "-i", deb])
        if p.returncode != 0:
            fail(f"dpkg -i into a scratch root: exit {p.returncode}: {p.stdout}{p.stderr}")
            return
        status = run([*dpkg, "-s", "usbsat"]).stdout
        if "Status: install ok installed" not in status:
            fail(f"dpkg -s usbsat after installing: {status!r}")
        usbsat = os.path.join(root, "usr/bin/usbsat")
        version = run([usbsat, "--version"])
        if version.returncode != 0 or not version.stdout.startswith("usbsat "):
            fail(f"installed usbsat --version: exit {version.returncode}, {version.stdout!r} {version.stderr!r}")
        sample = os.path.join(root, "usr/share/usbsat/recordings/workstation.json")
        drives = run([usbsat, "--from", sample, "drives", "--json"])
        if drives.returncode != 0 or '"dev": "sdc"' not in drives.stdout.replace('":"', '": "'):
            fail(f"installed usbsat --from {sample} drives --json: exit {drives.returncode}: {drives.stderr[-400:]}")
        p = run([*dpkg, "-r", "usbsat"])
        left = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(root, "usr")) for f in fs]
        if p.returncode != 0 or left:
            fail(f"dpkg -r usbsat: exit {p.returncode}, files left: {left[:5]} {p.stderr}")


def systemd(build_dir):
    need("systemd-analyze", "dpkg-deb")
    deb = the_deb(build_dir)
    with tempfile.TemporaryDirectory() as root:
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
        units = os.path.join(root, "units")
        os.mkdir(units)
        names = []
        for name in ("usbsat-export.service", "usbsat-export.timer"):
            with open(os.path.join(root, "usr/lib/systemd/system", name), encoding="utf-8") as f:
                text = f.read().replace("/usr/bin/usbsat", os.path.join(root, "usr/bin/usbsat"))
            names.append(os.path.join(units, name))
            with open(names[-1], "w", encoding="utf-8") as f:
                f.write(text)
        env = dict(os.environ, MANPATH=os.path.join(root, "usr/share/man"))
        p = run(["systemd-analyze", "verify", *names], env=env)
        if p.returncode != 0 or p.stdout.strip() or p.stderr.strip():
            fail(f"systemd-analyze verify: exit {p.returncode}: {p.stdout}{p.stderr}")


def files_of(deb):
    """The paths a package installs (dpkg-deb --contents), directories left out."""
    listing = run(["dpkg-deb", "--contents", deb]).stdout
    return sorted(line.split()[-1] for line in listing.splitlines() if not line.startswith("d"))


def same_files(build_dir, linux_build_dir):
    need("cpack", "dpkg-deb", "dpkg-shlibdeps")
    deb = the_deb(build_dir)
    if not os.path.isfile(os.path.join(linux_build_dir, "CPackConfig.cmake")):
        fail(f"no Linux build at {linux_build_dir} to compare the package with (cmake --preset ci && cmake --build build)")
        return
    with tempfile.TemporaryDirectory() as out:
        # The Linux build's own package.deb_build may be writing LINUX_BUILD_DIR/package at the same time: this
        # package goes to `out` (a copy of the CPack configuration with its output directory changed).
        with open(os.path.join(linux_build_dir, "CPackConfig.cmake"), encoding="utf-8") as f:
            config = re.sub(r'^set\(CPACK_OUTPUT_FILE_PREFIX "[^"]*"\)$', f'set(CPACK_OUTPUT_FILE_PREFIX "{out}")',
                            f.read(), flags=re.M)
        with open(os.path.join(out, "CPackConfig.cmake"), "w", encoding="utf-8") as f:
            f.write(config)
        p = run(["cpack", "--config", os.path.join(out, "CPackConfig.cmake"), "-B", out], cwd=out)
        linux_debs = glob.glob(os.path.join(out, "usbsat_*.deb"))
        if p.returncode != 0 or len(linux_debs) != 1:
            fail(f"cpack of the Linux build: exit {p.returncode}, {linux_debs}: {p.stdout[-400:]}{p.stderr[-400:]}")
            return
        ours, theirs = files_of(deb), files_of(linux_debs[0])
        arch, linux_arch = architecture(deb), architecture(linux_debs[0])
    if ours != theirs:
        fail(f"{os.path.basename(deb)} and the Linux build's package differ: only in {arch}: "
             f"{sorted(set(ours) - set(theirs))}, only in {linux_arch}: {sorted(set(theirs) - set(ours))}")
    if arch == linux_arch:
        fail(f"both packages are for {arch}: the cross-built one should not be")
    print(f"{len(ours)} files, the same in {os.path.basename(deb)} ({arch}) and the {linux_arch} package")


def main(argv):
    steps = {"build": build, "contents": contents, "install": install, "systemd": systemd, "same_files": same_files}
    if len(argv) < 3 or argv[1] not in steps or len(argv) != (4 if argv[1] == "same_files" else 3):
        print(__doc__, file=sys.stderr)
        return 2
    steps[argv[1]](*argv[2:])
    return finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
