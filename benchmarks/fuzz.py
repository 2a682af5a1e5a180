"""The fuzz suite (tests/fuzz) with many more examples, and a summary of what it found.

Runs pytest on tests/fuzz under the ``fuzz-long`` hypothesis profile (shrinking
on), with the expected failures run as ordinary tests (``--runxfail``) so known
bugs are reported too. For every failing property it prints the error and the
smallest failing input hypothesis found.

    .venv/bin/python benchmarks/fuzz.py --examples 2000
    .venv/bin/python benchmarks/fuzz.py --examples 300 -k saved_states
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=500, help="examples per property (default 500)")
    parser.add_argument("-k", dest="select", default="", help="only the tests whose names match (pytest -k)")
    args = parser.parse_args()
    if args.examples < 1:
        parser.error("--examples must be at least 1")
    env = {**os.environ, "OBELISK_FUZZ_PROFILE": "fuzz-long", "OBELISK_FUZZ_EXAMPLES": str(args.examples)}
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.xml"
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--runxfail",
                   f"--junitxml={report}", str(ROOT / "tests" / "fuzz")]
        if args.select:
            command += ["-k", args.select]
        started = time.monotonic()
        subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        elapsed = time.monotonic() - started
        if not report.exists():
            print("pytest did not run; try: python -m pytest tests/fuzz", file=sys.stderr)
            return 2
        cases = ElementTree.parse(report).getroot().iter("testcase")
        found = 0
        total = 0
        for case in cases:
            total += 1
            name = f"{case.get('classname', '').rsplit('.', 1)[-1]}::{case.get('name')}"
            problem = case.find("failure")
            if problem is None:
                problem = case.find("error")
            seconds = float(case.get("time", 0))
            if problem is None:
                print(f"ok     {seconds:7.1f}s  {name}")
                continue
            found += 1
            print(f"FOUND  {seconds:7.1f}s  {name}")
            print("       " + (problem.get("message") or "").splitlines()[0][:300] if problem.get("message") else "")
            print(_failing_input(problem.text or ""))
    print(f"{total} properties, {args.examples} examples each, {found} found a problem, {elapsed:.0f} s")
    return 1 if found else 0


def _failing_input(text: str) -> str:
    """The 'Failing test case' / 'Falsifying example' blocks of a failure report, indented."""
    lines = text.splitlines()
    kept: list[str] = []
    for index, line in enumerate(lines):
        stripped = line.lstrip(" |+-E")
        if stripped.startswith(("Failing test case", "Falsifying example")):
            block = [stripped]
            for follow in lines[index + 1:index + 40]:
                body = follow.lstrip(" |+-E")
                if not body or body.startswith(("Explanation", "Traceback", "These lines")):
                    break
                block.append(body[:300])
            kept.extend(block)
    return "\n".join("       " + line for line in kept[:60])


if __name__ == "__main__":
    sys.exit(main())
