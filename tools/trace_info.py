#!/usr/bin/env python3
"""Read a Jackdaw task-tree trace (--trace FILE, trace/include/jackdaw/trace/trace.hpp).

  trace_info.py FILE            the header, then: tasks, nodes, CPU seconds, ns per node, depth
                                histogram, largest task's share, bytes per task
  trace_info.py FILE --json     the same as one JSON object (header + summary)
  trace_info.py FILE --check    also check every record (parents before children, spawn points
                                inside the parent's nodes); exit 1 with the first problem

As a module: read(path) -> (header dict, list of task dicts), summary(header, tasks) -> dict;
read_levels(path) -> (header, tasks, levels) with a branch-and-bound trace's levels.

File: gzip of b"JDTRACE1", a u32 (little-endian) header length, the header (JSON), the task count
and, per task, six LEB128 varints: parent + 1 (0: none), after_nodes, nodes, cpu_ns, depth, bytes.
If the header lists "levels" (branch and bound, --trace-levels), each level follows: its tasks as
above, per task the same task's id + 1 in the next stronger tree (0: pruned there), the number of
improvements and per improvement task, after_nodes (varints) and the objective (a little-endian
double).
"""
import collections
import gzip
import json
import struct
import sys
import zlib

MAGIC = b"JDTRACE1"
FIELDS = ("parent", "after_nodes", "nodes", "cpu_ns", "depth", "bytes")


class TraceError(Exception):
    pass


def _varints(data, pos, count):
    out = []
    n = len(data)
    for _ in range(count):
        v = shift = 0
        while True:
            if pos >= n:
                raise TraceError("it ends early")
            b = data[pos]
            pos += 1
            v |= (b & 0x7F) << shift
            if not b & 0x80:
                break
            shift += 7
            if shift >= 64:
                raise TraceError("a number runs past 64 bits")
        out.append(v)
    return out, pos


def _records(data, pos):
    (count,), pos = _varints(data, pos, 1)
    tasks = []
    for i in range(count):
        vals, pos = _varints(data, pos, 6)
        t = dict(zip(FIELDS, vals))
        t["parent"] = None if t["parent"] == 0 else t["parent"] - 1
        t["id"] = i
        tasks.append(t)
    return tasks, pos


def read_levels(path):
    try:
        with gzip.open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise TraceError(f"{path}: no such file")
    except (OSError, EOFError, zlib.error) as e:
        raise TraceError(f"{path}: not a Jackdaw trace (corrupt: {e})")
    try:
        if data[:8] != MAGIC:
            raise TraceError("wrong magic bytes")
        if len(data) < 12:
            raise TraceError("it ends early")
        (hlen,) = struct.unpack("<I", data[8:12])
        if 12 + hlen > len(data):
            raise TraceError("it ends early")
        try:
            header = json.loads(data[12 : 12 + hlen].decode("utf-8"))
        except ValueError:
            raise TraceError("the header is not a JSON object")
        if not isinstance(header, dict):
            raise TraceError("the header is not a JSON object")
        tasks, pos = _records(data, 12 + hlen)
        levels = []
        bounds = header.get("levels", [])
        stronger_size = len(tasks)
        for bound in bounds:
            ltasks, pos = _records(data, pos)
            ups, pos = _varints(data, pos, len(ltasks))
            if any(u > stronger_size for u in ups):
                raise TraceError("a level's task maps to no task of the stronger tree")
            (k,), pos = _varints(data, pos, 1)
            imps = []
            for _ in range(k):
                (task, after), pos = _varints(data, pos, 2)
                if pos + 8 > len(data):
                    raise TraceError("it ends early")
                (obj,) = struct.unpack("<d", data[pos : pos + 8])
                pos += 8
                imps.append({"task": task, "after_nodes": after, "objective": obj})
            levels.append({"bound": bound, "tasks": ltasks, "stronger": [None if u == 0 else u - 1 for u in ups],
                           "improvements": imps})
            stronger_size = len(ltasks)
        if pos != len(data):
            raise TraceError("trailing bytes after the last task")
    except TraceError as e:
        raise TraceError(f"{path}: not a Jackdaw trace ({e})")
    return header, tasks, levels


def read(path):
    header, tasks, _ = read_levels(path)
    return header, tasks


def check(tasks):
    """The first problem with the records, or None."""
    for t in tasks:
        p = t["parent"]
        if p is None:
            continue
        if p >= t["id"]:
            return f"task {t['id']} has parent {p}, recorded after it"
        if t["after_nodes"] > tasks[p]["nodes"]:
            return f"task {t['id']} was spawned after {t['after_nodes']} nodes of its parent {p}, which visited {tasks[p]['nodes']}"
    return None


def summary(header, tasks):
    nodes = sum(t["nodes"] for t in tasks)
    cpu = sum(t["cpu_ns"] for t in tasks)
    depths = collections.Counter(t["depth"] for t in tasks)
    largest = max((t["nodes"] for t in tasks), default=0)
    bytes_ = [t["bytes"] for t in tasks]
    return {
        "tasks": len(tasks),
        "nodes": nodes,
        "cpu_seconds": cpu / 1e9,
        "ns_per_node": cpu / nodes if nodes else 0.0,
        "seed_tasks": sum(1 for t in tasks if t["parent"] is None),
        "depth_histogram": {str(d): depths[d] for d in sorted(depths)},
        "largest_task_nodes": largest,
        "largest_task_share": largest / nodes if nodes else 0.0,
        "bytes_min": min(bytes_, default=0),
        "bytes_mean": sum(bytes_) / len(bytes_) if bytes_ else 0.0,
        "bytes_max": max(bytes_, default=0),
    }


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    flags = {a for a in argv[1:] if a.startswith("--")}
    if len(args) != 1 or flags - {"--json", "--check"}:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        header, tasks = read(args[0])
    except TraceError as e:
        print(f"trace_info: {e}", file=sys.stderr)
        return 1
    if "--check" in flags:
        problem = check(tasks)
        if problem:
            print(f"trace_info: {args[0]}: {problem}", file=sys.stderr)
            return 1
    s = summary(header, tasks)
    if "--json" in flags:
        print(json.dumps({"header": header, "summary": s}, indent=1))
        return 0
    for k, v in header.items():
        print(f"{k}: {json.dumps(v) if isinstance(v, (dict, list)) else v}")
    print("--")
    print(f"tasks: {s['tasks']} ({s['seed_tasks']} without a parent)")
    print(f"nodes: {s['nodes']}")
    print(f"cpu: {s['cpu_seconds']:.6f} s ({s['ns_per_node']:.1f} ns/node)")
    print(f"largest task: {s['largest_task_nodes']} nodes ({100 * s['largest_task_share']:.2f} % of all)")
    print(f"bytes per task: min {s['bytes_min']}, mean {s['bytes_mean']:.1f}, max {s['bytes_max']}")
    print("depth histogram (depth: tasks):")
    for d, c in s["depth_histogram"].items():
        print(f"  {d}: {c}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
