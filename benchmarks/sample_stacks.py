"""Where a running process spends its time, by sampling its stack with gdb: a profiler that
sees numba's compiled functions by name.

Run: python benchmarks/sample_stacks.py [--samples N] [--depth K] -- python my_workload.py ...

perf and py-spy see numba's machine code as anonymous addresses, but LLVM registers every
function it loads (also from numba's cache) with gdb's JIT interface, so gdb's backtraces name
them (`engine::collision::driver::collide_tree`, ...). This script starts the workload, lets
it warm up, interrupts it N times with `gdb -batch -ex bt` (about a second each: gdb reads the
JIT symbols anew every time) and prints the functions found innermost, then the innermost K
frames, by share of samples. The workload should run for longer than the sampling (N seconds or
so); it is killed at the end. Needs gdb and permission to attach (ptrace).
"""

import argparse
import collections
import re
import shutil
import subprocess
import sys
import time

_FRAME = re.compile(r"^#\d+\s+(?:0x[0-9a-f]+ in )?([^\s(]+)")


def _stack(pid, depth):
  """The innermost `depth` function names of the process's main thread ('??' unknown)."""
  out = subprocess.run(
    ["gdb", "-q", "-p", str(pid), "-batch", "-ex", f"bt {depth}"],
    capture_output=True,
    text=True,
    timeout=60,
  ).stdout
  names = []
  for line in out.splitlines():
    match = _FRAME.match(line)
    if match:
      names.append(re.sub(r"\[abi:[^\]]*\]", "", match.group(1)))
  return names


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--samples", type=int, default=100)
  parser.add_argument("--depth", type=int, default=3, help="frames per sample to tally")
  parser.add_argument("--warmup", type=float, default=20.0, help="seconds before sampling")
  parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the workload")
  args = parser.parse_args(argv)
  command = args.command[1:] if args.command[:1] == ["--"] else args.command
  if not command:
    parser.error("give the workload's command after --")
  if shutil.which("gdb") is None:
    parser.error("gdb is not installed")
  process = subprocess.Popen(command)
  try:
    time.sleep(args.warmup)
    innermost, chains = collections.Counter(), collections.Counter()
    for _ in range(args.samples):
      if process.poll() is not None:
        print("the workload ended before the sampling did", file=sys.stderr)
        break
      stack = _stack(process.pid, args.depth)
      if stack:
        innermost[stack[0]] += 1
        chains[" <- ".join(stack)] += 1
  finally:
    process.kill()
  total = sum(innermost.values()) or 1
  print(f"{total} samples; innermost functions:")
  for name, count in innermost.most_common(30):
    print(f"{100 * count / total:5.1f}%  {name}")
  print(f"\ninnermost {args.depth} frames:")
  for chain, count in chains.most_common(20):
    print(f"{100 * count / total:5.1f}%  {chain}")


if __name__ == "__main__":
  main()
