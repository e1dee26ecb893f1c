"""The end of a script's table test: each row is (what, got, want); a row whose got is not its want is printed
as a failure. Returns the exit status: 0 when every row matches, 1 otherwise, and 1 for no rows at all (a test
that checks nothing must not pass)."""


def report(rows):
    if not rows:
        print("FAIL: the table has no rows")
        return 1
    failed = 0
    for what, got, want in rows:
        if got != want:
            failed += 1
            print(f"FAIL {what}: got {got}, want {want}")
    print(f"{len(rows) - failed} of {len(rows)} rows pass")
    return 1 if failed else 0
