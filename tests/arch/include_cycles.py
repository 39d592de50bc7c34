#!/usr/bin/env python3
"""Fails on an include cycle between malibu's components.

Reads the `#include "..."` lines of the C sources and headers of every product directory: each
directory under PRODUCT_ROOTS that holds .c/.h files (found by walking the tree, so a new
directory is checked without being listed here; REQUIRED_DIRS must be among them, so a walk that
went wrong cannot pass by reading nothing).  Each include is resolved to a file of the tree (next
to the including file first, then in the build's include directories, INCLUDE_DIRS; generated
headers under build/ resolve to nothing and are skipped) and the graph of components is built:
a component is a directory, except that the board assembly (BOARD_FILE_RE: the code that creates
every device and wires it up) is a component of its own, above the device models of devices/ (it
has to include them, and they include the bus and the GIC).  The check fails on any cycle
between components.

Includes that still close a cycle are listed in an allow-list (--allow FILE; lines
`FILE -> HEADER  # why`; empty today, and it only shrinks): they are left out of the graph (and
each is printed with the cycle it closes), so any other cycle fails; an entry that is no longer
an include, or whose include no longer closes a cycle, fails too.

    include_cycles.py [--root DIR] [--allow FILE] [--graph]
"""
import argparse
import collections
import os
import re
import sys

# Where the product's C lives: the emulator, the board and its firmware, the tools, the ISA
# generators, the guest's sample programs.  Tests and the build tree are not product.
PRODUCT_ROOTS = ["emu", "devices", "firmware", "tools", "isa", "guest-images/apps"]
SKIP_DIRS = {"build", "cache", "out"}
REQUIRED_DIRS = ["emu/cpu", "emu/debug", "emu/decode", "emu/gpu", "emu/stats", "emu/system",
                 "emu/timing", "emu/user", "devices", "devices/mali", "firmware", "tools"]
BOARD = "devices/board"
# The board assembly: devices/board*.c|h (board.c, board_gpu.c, board_ckpt.c, board_io_ckpt.c, ...)
# and virtio_board.c|h, by name, so that a new part of the board joins it without a list to update.
BOARD_FILE_RE = re.compile(r"^devices/(board[a-z_]*|virtio_board)\.[ch]$")
# -I directories of the build (CFLAGS, BIFROST_CFLAGS, the unit tests), in order
INCLUDE_DIRS = ["emu/cpu", "emu/user", "emu/gpu", "emu/stats", "emu/timing", "emu/debug", "devices"]
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def component(path):
    return BOARD if BOARD_FILE_RE.match(path) else os.path.dirname(path)


def product_dirs(root):
    """Every directory under PRODUCT_ROOTS with C sources or headers, sorted."""
    dirs = []
    for top in PRODUCT_ROOTS:
        for d, subdirs, names in os.walk(os.path.join(root, top)):
            subdirs[:] = sorted(n for n in subdirs if n not in SKIP_DIRS and not n.startswith("."))
            if any(n.endswith((".c", ".h")) for n in names):
                dirs.append(os.path.relpath(d, root))
    missing = [d for d in REQUIRED_DIRS if d not in dirs]
    if missing:
        raise SystemExit("include_cycles: no C sources in %s under %s" % (", ".join(missing), root))
    return sorted(dirs)


def read_sources(root):
    """{path: [(line number, included name)]} for every .c/.h of the product directories."""
    sources = {}
    for d in product_dirs(root):
        full = os.path.join(root, d)
        for n in sorted(n for n in os.listdir(full) if n.endswith((".c", ".h"))):
            path = d + "/" + n
            with open(os.path.join(full, n), errors="replace") as f:
                sources[path] = [(i, m.group(1)) for i, line in enumerate(f, 1)
                                 for m in [INCLUDE_RE.match(line)] if m]
    return sources


def resolve(root, src, name):
    """The tree path an include names, or None (system or generated header)."""
    for d in [os.path.dirname(src)] + INCLUDE_DIRS:
        path = os.path.normpath(os.path.join(d, name))
        if not path.startswith("..") and os.path.isfile(os.path.join(root, path)):
            return path
    return None


def include_edges(root, sources):
    """[(src component, dst component, file, line, header)] for includes across components."""
    edges = []
    for src, incs in sources.items():
        for line, name in incs:
            dst = resolve(root, src, name)
            if dst and component(dst) != component(src):
                edges.append((component(src), component(dst), src, line, dst))
    return edges


def strongly_connected(nodes, succ):
    """Tarjan's algorithm: {node: index of its strongly connected component}."""
    index, low, comp, stack, on_stack = {}, {}, {}, [], set()
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(succ[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp[w] = v
                if w == v:
                    break

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return comp


def path_back(succ, comp, start, goal):
    """Shortest component path start -> ... -> goal inside one strongly connected component."""
    prev, queue = {start: None}, collections.deque([start])
    while queue:
        v = queue.popleft()
        if v == goal:
            path = []
            while v is not None:
                path.append(v)
                v = prev[v]
            return path[::-1]
        for w in sorted(succ[v]):
            if w not in prev and comp[w] == comp[start]:
                prev[w] = v
                queue.append(w)
    return None


def read_allow(path):
    """{(file, header): line number} of an allow-list."""
    allow = {}
    if not path:
        return allow
    with open(path) as f:
        for i, line in enumerate(f, 1):
            entry = line.split("#", 1)[0].strip()
            if not entry:
                continue
            parts = [p.strip() for p in entry.split("->")]
            if len(parts) != 2 or not all(parts):
                raise SystemExit("%s:%d: expected 'FILE -> HEADER'" % (path, i))
            allow[tuple(parts)] = i
    return allow


def find_cycles(nodes, succ):
    """One shortest cycle per component edge inside a strongly connected component of more than
    one component: [[a, b, ..., a]], each cycle once."""
    comp = strongly_connected(nodes, succ)
    members = collections.defaultdict(set)
    for v in nodes:
        members[comp[v]].add(v)
    cycles, seen = [], set()
    for a in sorted(nodes):
        for b in sorted(succ[a]):
            c = comp[a]
            if comp[b] != c or len(members[c]) < 2:
                continue
            cycle = [a] + path_back(succ, comp, b, a)
            key = min(tuple(cycle[i:-1] + cycle[:i]) for i in range(len(cycle) - 1))
            if key not in seen:
                seen.add(key)
                cycles.append(cycle)
    return cycles


def graph(edges, skip=()):
    """Component successors and the includes behind each component edge, without skip."""
    succ = collections.defaultdict(set)
    by_pair = collections.defaultdict(list)
    for a, b, src, line, dst in edges:
        if (src, dst) not in skip:
            succ[a].add(b)
            by_pair[(a, b)].append((src, line, dst))
    return succ, by_pair


def print_cycle(cycle, by_pair, out, indent="  "):
    print("%s%s" % (indent, " -> ".join(cycle)), file=out)
    for u, v in zip(cycle, cycle[1:]):
        for src, line, dst in by_pair[(u, v)]:
            print("%s  %s:%d includes %s  (%s -> %s)" % (indent, src, line, dst, u, v), file=out)


def check(root, allow_path=None, show_graph=False, out=sys.stdout):
    """Prints the report; True when the includes outside the allow-list form no cycle and every
    allow-list entry is an include that still closes one."""
    sources = read_sources(root)
    edges = include_edges(root, sources)
    nodes = {component(p) for p in sources} | {e[1] for e in edges}
    allow = read_allow(allow_path)
    succ, by_pair = graph(edges)
    if show_graph:
        for (a, b), incs in sorted(by_pair.items()):
            print("%s -> %s: %s" % (a, b, ", ".join("%s:%d" % (s, n) for s, n, _ in incs)), file=out)

    # An allow-list entry must be an include whose component edge still closes a cycle.
    comp = strongly_connected(nodes, succ)
    includes = {(src, dst): (a, b, line) for a, b, src, line, dst in edges}
    stale = []
    for (src, dst), n in sorted(allow.items(), key=lambda x: x[1]):
        if (src, dst) not in includes:
            stale.append("%s:%d: %s no longer includes %s: remove the entry" % (allow_path, n, src, dst))
            continue
        a, b, line = includes[(src, dst)]
        if comp[a] != comp[b]:
            stale.append("%s:%d: %s -> %s (%s -> %s) no longer closes a cycle: remove the entry"
                         % (allow_path, n, src, dst, a, b))
        else:
            print("allowed: %s:%d includes %s, closing" % (src, line, dst), file=out)
            print_cycle([a] + path_back(succ, comp, b, a), by_pair, out, "    ")

    # Without the allowed includes the graph must have no cycle.
    rest_succ, rest_by_pair = graph(edges, skip=set(allow))
    cycles = find_cycles(nodes, rest_succ)
    for cycle in cycles:
        print("include cycle (not in the allow-list):", file=out)
        print_cycle(cycle, rest_by_pair, out)
    for msg in stale:
        print(msg, file=out)
    ok = not cycles and not stale
    print("include cycles: %d components, %d files, %d includes across components, %d allowed; %s" %
          (len(nodes), len(sources), len(edges), len(allow), "ok" if ok else "FAILED"), file=out)
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=".")
    ap.add_argument("--allow", help="allow-list of cycle edges that still exist")
    ap.add_argument("--graph", action="store_true", help="print every include across components")
    args = ap.parse_args()
    sys.exit(0 if check(args.root, args.allow, args.graph) else 1)


if __name__ == "__main__":
    main()
