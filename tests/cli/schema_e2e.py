#!/usr/bin/env python3
"""Every `usbsat ... --json` document validates against its written JSON Schema (report/schemas, draft 2020-12).

    schema_e2e.py USBSAT SCHEMA_DIR views WITH_FIXTURE SCENARIO_DIR
        topo, drives, ports, doctor, plan --predict, plan --drives 1/2, plan DEV... (re-place) and
        saturate --dry-run under umockdev on one generated scenario
    schema_e2e.py USBSAT SCHEMA_DIR io
        load and saturate with `--engine null` on regular temporary files (no root, no device), a load with a
        target that cannot be opened, the error document of failing commands (exit 2, 3, 5), and version

Each valid document is then broken on purpose (its first top-level key renamed, and separately a required key of
its first nested object dropped): the schema must reject both, so a renamed or missing key can never pass.
Exit 0 pass, 1 fail, 77 skip (no umockdev preload; python3-jsonschema missing outside CI).
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import fail, failures, skip  # noqa: E402,F401  (tests/support/checks.py: one rule for every script)


try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false"):
        print("FAIL: python3-jsonschema is not installed (bootstrap.sh TEST_DEPS)")
        sys.exit(1)
    skip(f"{sys.executable} cannot import jsonschema (Debian: python3-jsonschema)")


def load_schemas(schema_dir):
    store = {}
    for name in sorted(os.listdir(schema_dir)):
        if name.endswith(".schema.json"):
            with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
                s = json.load(f)
            Draft202012Validator.check_schema(s)
            store[s["$id"]] = s
    return store


class Schemas:
    def __init__(self, schema_dir):
        self.dir = schema_dir
        self.store = load_schemas(schema_dir)
        self.checked = 0

    def validator(self, name):
        path = os.path.join(self.dir, f"{name}.schema.json")
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        resolver = jsonschema.RefResolver(schema["$id"], schema, store=self.store)
        return Draft202012Validator(schema, resolver=resolver)

    def check(self, name, text, what):
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            fail(f"{what}: not JSON ({e}): {text[:200]!r}")
            return
        v = self.validator(name)
        errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors[:10]:
            fail(f"{what} vs {name}.schema.json at /{'/'.join(str(p) for p in e.absolute_path)}: {e.message[:300]}")
        if errors:
            return
        self.checked += 1
        for how, broken in mutations(doc):
            if v.is_valid(broken):
                fail(f"{what}: {name}.schema.json accepts the document with {how}")


def mutations(doc):
    """A renamed top-level key and a missing key in the first nested object: both must be rejected."""
    if not isinstance(doc, dict) or not doc:
        return
    first = next(iter(doc))
    renamed = {(k + "_renamed" if k == first else k): v for k, v in doc.items()}
    yield f"top-level key {first!r} renamed", renamed
    path = first_nested_object(doc)
    if path is not None:
        broken = copy.deepcopy(doc)
        obj = broken
        for p in path:
            obj = obj[p]
        key = next(iter(obj))
        del obj[key]
        yield f"key {key!r} dropped at /{'/'.join(map(str, path))}", broken


# Objects that map names (drives, evidence keys) to values: their keys are data, not schema.
NAME_MAPS = {"evidence", "drive_paths", "per_drive_mbs", "predicted_per_drive_mbs"}


def first_nested_object(doc, path=()):
    """Path to the first non-empty object below the root whose keys are fixed (not one of NAME_MAPS)."""
    for k, v in doc.items() if isinstance(doc, dict) else enumerate(doc):
        if k in NAME_MAPS:
            continue
        if isinstance(v, dict) and v:
            return path + (k,)
        if isinstance(v, list):
            found = first_nested_object(v, path + (k,))
            if found is not None:
                return found
    return None


def run(cmd, ok=(0,)):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode == 77:
        skip(p.stderr.strip() or "umockdev preload not available")
    if p.returncode not in ok:
        fail(f"{' '.join(cmd[-6:])} exited {p.returncode}: {p.stderr.strip()[:300]}")
    return p.stdout


def views(schemas, usbsat, with_fixture, scenario_dir):
    def u(*args, ok=(0, 4)):
        return run([with_fixture, scenario_dir, "--", usbsat, *args], ok=ok)

    for view in ("topo", "drives", "ports"):
        schemas.check(view, u(view, "--json", "--mountinfo", ""), f"{view} --json")
    # doctor exits with the worst finding's code (0, 10, 11); the document is the same either way
    schemas.check("doctor", u("doctor", "--json", ok=(0, 4, 10, 11)), "doctor --json")
    schemas.check("plan-predict", u("plan", "--predict", "--json"), "plan --predict --json")
    # usbsat record: the recording of this scenario (stdout), and a view of it read back with --from.
    recording = u("record")
    schemas.check("recording", recording, "record")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "rec.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(recording)
        schemas.check("drives", run([usbsat, "--from", path, "drives", "--json"], ok=(0, 4)), "--from FILE drives --json")
    for n in ("1", "2"):
        schemas.check("plan", u("plan", "--drives", n, "--json"), f"plan --drives {n} --json")
    usb = [d["dev"] for d in json.loads(u("drives", "--json", "--mountinfo", ""))["drives"] if d["usb"]]
    if usb:
        schemas.check("plan", u("plan", *usb[:4], "--json"), f"plan {' '.join(usb[:4])} --json")
        # With no group to measure, `saturate --dry-run --json` prints the (empty) measurement document instead.
        out = u("saturate", "--dry-run", "--json")
        dry = '"dry_run"' in out
        schemas.check("saturate-dry-run" if dry else "saturate", out,
                      "saturate --dry-run --json" + ("" if dry else " (nothing to measure)"))


def io(schemas, usbsat):
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i in range(4):
            path = os.path.join(tmp, f"f{i}")
            with open(path, "wb") as f:
                f.truncate(16 << 20)
            files.append(path)
        common = ["--engine", "null", "--runtime", "0.2", "--ramp", "0"]
        free = run([usbsat, "load", *common, "--json", *files[:2]])
        schemas.check("load", free, "load --engine null")
        pinned = run([usbsat, "load", *common, "--pin-cpus", "--json", *files[:2]])
        schemas.check("load", pinned, "load --pin-cpus")
        # Where each worker was kept: nowhere by default, with --pin-cpus one CPU each (Linux always allows it).
        cpus = [[t["pinned_cpu"] for p in json.loads(doc)["phases"] for t in p["per_target"]] for doc in (free, pinned)]
        if any(c is not None for c in cpus[0]):
            fail(f"load without --pin-cpus kept workers on CPUs: {cpus[0]}")
        if sys.platform.startswith("linux") and not all(isinstance(c, int) for c in cpus[1]):
            fail(f"load --pin-cpus left workers unpinned: {cpus[1]}")
        schemas.check("load", run([usbsat, "load", *common, "--pattern", "randrw", "--write", "--allow-write", files[0],
                                   "--json", files[0]]), "load --pattern randrw --write")
        schemas.check("load", run([usbsat, "load", *common, "--json", files[0], os.path.join(tmp, "missing")],
                                  ok=(4,)), "load with a target that cannot be opened")
        schemas.check("saturate", run([usbsat, "saturate", *common, "--json",
                                       f"--group=G={files[0]},{files[1]}"]), "saturate --group")
        schemas.check("saturate", run([usbsat, "saturate", *common, "--repeat", "2", "--random-pass", "--json",
                                       f"--group=A={','.join(files)}@100M", f"--group=B={files[0]},{files[2]}"]),
                      "saturate two groups, declared capacity, repeats, random pass")
        # Failures with --json: the error document instead of an empty stdout (2 usage, 3 environment, 5 refused).
        schemas.check("error", run([usbsat, "load", "--json", "--runtime", "1e12", files[0]], ok=(2,)),
                      "load usage error")
        schemas.check("error", run([usbsat, "--json", "load", "--qd", "0", files[0]], ok=(2,)),
                      "usage error from the command line parser")
        schemas.check("error", run([usbsat, "load", "--json", "--pin-cpus=garbage", files[0]], ok=(2,)),
                      "load --pin-cpus given a value it cannot take")
        schemas.check("error", run([usbsat, "load", *common, "--json", os.path.join(tmp, "missing")], ok=(3,)),
                      "load with no target that opens (diagnostics)")
        schemas.check("error", run([usbsat, "load", *common, "--json", "--write", "--pattern", "write", files[0]],
                                   ok=(5,)), "load refused")
    schemas.check("error", run([usbsat, "--json", "--from", "/nonexistent/rec.json", "topo"], ok=(3,)),
                  "--from a recording that does not exist")
    schemas.check("version", run([usbsat, "version", "--json"]), "version --json")
    # usbsat history: off, and an empty store in a scratch folder (the store file is the same document).
    schemas.check("history", run([usbsat, "--history", "off", "history", "--json"]), "history --json (off)")
    with tempfile.TemporaryDirectory(prefix="usbsat-schema-") as tmp:
        store = os.path.join(tmp, "history.json")
        run([usbsat, "--history", store, "history", "forget", "all"])
        schemas.check("history", run([usbsat, "--history", store, "history", "--json"]), "history --json")
        with open(store, encoding="utf-8") as f:
            schemas.check("history", f.read(), "the history store file")
    # The shipped sample recordings and the committed v1 recording (relative to report/schemas).
    root = os.path.dirname(os.path.dirname(os.path.abspath(schemas.dir)))
    for folder in ("topology/recording/samples", "tests/fixtures/recordings"):
        for name in sorted(os.listdir(os.path.join(root, folder))):
            if name.endswith(".json"):
                with open(os.path.join(root, folder, name), encoding="utf-8") as f:
                    schemas.check("recording", f.read(), f"{folder}/{name}")


def main(argv):
    if len(argv) == 5 and argv[2] == "views":
        usbsat, schema_dir, _, with_fixture, scenario_dir = argv
        schemas = Schemas(schema_dir)
        views(schemas, usbsat, with_fixture, scenario_dir)
    elif len(argv) == 3 and argv[2] == "io":
        usbsat, schema_dir, _ = argv
        schemas = Schemas(schema_dir)
        io(schemas, usbsat)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if failures:
        return 1
    print(f"OK: {schemas.checked} documents valid, each broken copy rejected")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
