#!/usr/bin/env python3
"""Runs a command and fails it fast, with every thread's stack, when it stops making progress.

    Scripts/ci/watchdog.py [--quiet-minutes M] [--max-rss-mb N] -- COMMAND [ARG ...]

The command's output passes through line by line. Any line is progress. When M minutes
(default 10; 0: never) go by without one, the watchdog prints every thread's stack of each
process the command started (gdb, from Debian's package: `thread apply all bt`), kills the whole
process tree and exits 124, so a hang is a red run with its stacks in minutes, never a run that
eats CI's time limit. Otherwise it exits with the command's own status.

With --max-rss-mb, any process of the command's tree whose resident memory passes N MB is
killed (SIGKILL; that process alone: SwiftPM starts each compiler in a process group of its own,
so the tree is walked) and the watchdog exits 125 when the command ends, whatever its status:
the benchmarks' memory cap (Scripts/bench/build-cost.sh), so that a pathological build cannot
take the machine down.

Standard library only.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import threading
import time


def descendants(root):
    """The pids under `root` (children, their children, ...), from /proc."""
    children = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8", errors="replace") as file:
                fields = file.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(name))
    found, stack = [], [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
    except OSError:
        return "?"


def resident_mb(pid):
    """A process's resident memory in MB, 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8", errors="replace") as file:
            for line in file:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def print_stacks(root):
    gdb = shutil.which("gdb")
    pids = [root] + descendants(root)
    for pid in pids:
        print(f"\n===== watchdog: process {pid}: {command_line(pid)}", flush=True)
        if not gdb:
            print("(gdb is not installed: `apt-get install gdb` gives stacks here)", flush=True)
            continue
        try:
            result = subprocess.run(
                [gdb, "-p", str(pid), "-batch", "-nx", "-ex", "info threads", "-ex", "thread apply all bt"],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120, check=False)
            sys.stdout.write(result.stdout.decode("utf-8", "replace"))
        except subprocess.TimeoutExpired:
            print("(gdb took over 2 minutes; skipped)")
        sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quiet-minutes", type=float, default=10.0)
    parser.add_argument("--max-rss-mb", type=float, default=0)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")

    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    last_progress = [time.monotonic()]

    def pump():
        for line in iter(process.stdout.readline, b""):
            last_progress[0] = time.monotonic()
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    limit = args.quiet_minutes * 60
    over_cap = False
    while process.poll() is None:
        time.sleep(0.25 if args.max_rss_mb else 1)
        if args.max_rss_mb:
            for pid in [process.pid] + descendants(process.pid):
                used = resident_mb(pid)
                if used > args.max_rss_mb:
                    print(f"watchdog: process {pid} ({command_line(pid)[:80]}) passed {args.max_rss_mb:g} MB "
                          f"({used:.0f} MB); killed", file=sys.stderr, flush=True)
                    try:
                        os.kill(pid, signal.SIGKILL)
                        over_cap = True
                    except ProcessLookupError:
                        pass
        if limit and time.monotonic() - last_progress[0] > limit:
            print(f"\nerror: watchdog: no output for {args.quiet_minutes:g} minutes from: {' '.join(command)}", flush=True)
            print("error: watchdog: every thread's stack follows, then the command is killed", flush=True)
            print_stacks(process.pid)
            # The whole tree: a test's children may lead process groups of their own
            # (Foundation's Process spawns them so), which killing our group would miss.
            for pid in [process.pid] + descendants(process.pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
            print(f"\nerror: watchdog: {' '.join(command)} hung (no output for {args.quiet_minutes:g} minutes); stacks above", flush=True)
            sys.exit(124)
    reader.join(timeout=10)
    sys.exit(125 if over_cap else process.returncode)


if __name__ == "__main__":
    main()
