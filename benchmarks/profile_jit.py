"""Where a running process spends its time, per function, numba's compiled code included:
perf samples the instruction pointer (thousands of samples a second), gdb names the addresses.

Run: python benchmarks/profile_jit.py [--seconds S] [--warmup W] [--top N] -- python work.py

perf alone shows numba's machine code as anonymous addresses, and benchmarks/sample_stacks.py
(gdb backtraces) takes about a second per sample. Here perf records the workload's instruction
pointers for S seconds after W seconds of warm-up; then, with the workload still running (its
code still mapped), one gdb session resolves every sampled address through the JIT symbols
LLVM registers with gdb (`info symbol`), and the samples are summed per function. The shares
are innermost (self) time. Needs perf and gdb, and permission to attach (ptrace). The workload
is killed at the end.
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

_SUFFIX = re.compile(r"( \+ \d+)? in section .*$|\[abi:.*$|\$\d+.*$")


def _ips(pid, seconds, workdir):
  """{address: samples} of the process's instruction pointer over `seconds`."""
  data = os.path.join(workdir, "perf.data")
  subprocess.run(
    ["perf", "record", "-F", "1999", "-p", str(pid), "-o", data, "--", "sleep", str(seconds)],
    capture_output=True,
    check=True,
  )
  out = subprocess.run(
    ["perf", "script", "-i", data, "-F", "ip"], capture_output=True, text=True, check=True
  ).stdout
  return collections.Counter(line.strip() for line in out.splitlines() if line.strip())


def _names(pid, addresses, workdir):
  """The function name of each address (gdb's `info symbol`), in order."""
  script = os.path.join(workdir, "symbols.gdb")
  with open(script, "w") as f:
    for address in addresses:
      f.write(f"info symbol 0x{address}\n")
  out = subprocess.run(
    ["gdb", "-q", "-p", str(pid), "-batch", "-x", script], capture_output=True, text=True
  ).stdout
  lines = [
    line for line in out.splitlines() if " in section " in line or line.startswith("No symbol")
  ]
  return [_SUFFIX.sub("", line.strip()) for line in lines]


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--seconds", type=float, default=20)
  parser.add_argument("--warmup", type=float, default=10)
  parser.add_argument("--top", type=int, default=40)
  parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the workload")
  args = parser.parse_args(argv)
  command = args.command[1:] if args.command[:1] == ["--"] else args.command
  if not command:
    parser.error("give the workload after --")
  for tool in ("perf", "gdb"):
    if shutil.which(tool) is None:
      sys.exit(f"{tool} is not installed")
  process = subprocess.Popen(command)
  try:
    time.sleep(args.warmup)
    with tempfile.TemporaryDirectory() as workdir:
      ips = _ips(process.pid, args.seconds, workdir)
      addresses = list(ips)
      names = _names(process.pid, addresses, workdir)
  finally:
    process.kill()
  if len(names) != len(addresses):
    sys.exit(f"gdb named {len(names)} of {len(addresses)} addresses (ptrace not permitted?)")
  total = collections.Counter()
  for address, name in zip(addresses, names):
    total[name] += ips[address]
  count = sum(total.values())
  print(f"{count} samples; innermost functions:")
  for name, samples in total.most_common(args.top):
    print(f"{100 * samples / count:5.1f}%  {name[:110]}")


if __name__ == "__main__":
  main()
