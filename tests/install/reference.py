#!/usr/bin/env python3
"""Checks what the out-of-tree examples print against answers computed here another way.

The examples search (branch and bound, backtracking with a bound); this file does not: it rebuilds
the same instance from the seed (splitmix64, as each example's main.cpp describes) and answers by
dynamic programming (knapsack) and by inclusion-exclusion over independent sets (colouring).

  reference.py knapsack ITEMS SEED PROFITS OUTPUT...       PROFITS: drawn, or correlated (--correlated)
  reference.py colouring VERTICES DENSITY SEED K OUTPUT...
  reference.py chromatic VERTICES DENSITY SEED              prints the chromatic number
  reference.py dimacs VERTICES DENSITY SEED FILE            writes that graph as a DIMACS file
  reference.py chromatic_number FILE CHI OUTPUT...          examples/chromatic_number: chi and a proper colouring
  reference.py decide FILE CHI K OUTPUT...                  the same with --decide K: yes (and a colouring) iff K >= CHI
  reference.py chromatic_of FILE                            prints the chromatic number of a DIMACS file

Each OUTPUT is a file that the example printed for that instance (one per run). When every one is
right, the check prints the answer and exits 0; else it says which file is wrong, how, and exits 1.
"""
import sys

MASK = (1 << 64) - 1
CURRENT = ""  # the output file being checked, for the messages


def splitmix64(seed):
    state = seed & MASK
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def fail(message, output):
    print(f"{CURRENT}: {message}")
    print("--- the example printed:")
    print(output, end="")
    sys.exit(1)


def field(output, name):
    """The text after 'name:' on the line that starts with it, or None."""
    for line in output.splitlines():
        if line.startswith(name + ":"):
            return line[len(name) + 1:].strip()
    return None


def knapsack_optimum(items, seed, correlated):
    """(optimum, weights, profits, capacity) of the instance knapsack_bb draws."""
    rng = splitmix64(seed)
    weight, profit = [], []
    for _ in range(items):
        weight.append(1 + next(rng) % 100)
        profit.append(1 + next(rng) % 100)
        if correlated:
            profit[-1] = weight[-1] + 10
    capacity = sum(weight) // 2
    # best[c]: the best profit of the items so far within capacity c (each item once: c downwards).
    best = [0] * (capacity + 1)
    for w, p in zip(weight, profit):
        for c in range(capacity, w - 1, -1):
            best[c] = max(best[c], best[c - w] + p)
    return best[capacity], weight, profit, capacity


def knapsack(items, instance, output):
    optimum, weight, profit, capacity = instance
    if field(output, "items") != f"{items}, capacity: {capacity}":
        fail(f"knapsack_bb: expected 'items: {items}, capacity: {capacity}' (another instance?)", output)
    if field(output, "optimum") != str(optimum):
        fail(f"knapsack_bb: the optimum is {optimum}", output)
    packed_text = field(output, "packed")
    if packed_text is None:
        fail("knapsack_bb: no 'packed:' line", output)
    packed = [int(x) for x in packed_text.split()]
    if len(set(packed)) != len(packed) or any(not 0 <= i < items for i in packed):
        fail("knapsack_bb: the packed items are not distinct items of the instance", output)
    if sum(weight[i] for i in packed) > capacity or sum(profit[i] for i in packed) != optimum:
        fail(f"knapsack_bb: the packed items do not fit in {capacity} or do not earn {optimum}", output)


def graph(vertices, density, seed):
    rng = splitmix64(seed)
    adj = [0] * vertices
    for u in range(vertices):
        for v in range(u + 1, vertices):
            if next(rng) % 100 < density:
                adj[u] |= 1 << v
                adj[v] |= 1 << u
    return adj


def chromatic(vertices, adj):
    """The least k such that k independent sets cover every vertex (Bjorklund, Husfeldt, Koivisto):
    the number of k-tuples of independent sets covering V is the sum over S of
    (-1)^(n-|S|) * ind(S)^k, where ind(S) counts the independent subsets of S (the empty one too)."""
    if vertices == 0:
        return 0
    full = (1 << vertices) - 1
    ind = [1] * (full + 1)
    for s in range(1, full + 1):
        v = (s & -s).bit_length() - 1  # lowest vertex of s: sets without it, and sets with it
        ind[s] = ind[s & ~(1 << v)] + ind[s & ~(adj[v] | (1 << v))]
    sign = [1 if (vertices - bin(s).count("1")) % 2 == 0 else -1 for s in range(full + 1)]
    for k in range(1, vertices + 1):
        if sum(sg * i ** k for sg, i in zip(sign, ind)) > 0:
            return k
    return vertices


def colouring(vertices, adj, k, chi, output):
    edges = sum(bin(a).count("1") for a in adj) // 2
    if field(output, "graph") != f"{vertices} vertices, {edges} edges; colours: {k}":
        fail(f"graph_colouring: expected 'graph: {vertices} vertices, {edges} edges; colours: {k}'", output)
    expected = "yes" if k >= chi else "no"
    answer = field(output, "colourable")
    if answer != expected:
        fail(f"graph_colouring: the chromatic number is {chi}, so {k} colours: {expected}", output)
    if expected == "yes":
        proper(output, vertices, adj, k, "graph_colouring", "colours")


def write_dimacs(vertices, adj, path):
    edges = [(u, v) for u in range(vertices) for v in range(u + 1, vertices) if (adj[u] >> v) & 1]
    with open(path, "w") as f:
        f.write(f"c random graph (reference.py dimacs)\np edge {vertices} {len(edges)}\n")
        f.writelines(f"e {u + 1} {v + 1}\n" for u, v in edges)


def read_dimacs(path):
    """(vertices, adjacency masks) of a DIMACS 'p edge' file (edges listed twice are one)."""
    n, adj = 0, []
    for line in open(path):
        t = line.split()
        if t and t[0] == "p":
            n = int(t[2])
            adj = [0] * n
        elif t and t[0] == "e":
            u, v = int(t[1]) - 1, int(t[2]) - 1
            adj[u] |= 1 << v
            adj[v] |= 1 << u
    return n, adj


def proper(output, vertices, adj, colours, name, key="colouring"):
    """The 'KEY:' line gives each vertex one of `colours` colours, no edge joining two alike."""
    text = field(output, key)
    c = [int(x) for x in text.split()] if text else []
    if len(c) != vertices or any(not 0 <= x < colours for x in c):
        fail(f"{name}: the colouring does not give each of the {vertices} vertices one of {colours} colours", output)
    for u in range(vertices):
        for v in range(u + 1, vertices):
            if (adj[u] >> v) & 1 and c[u] == c[v]:
                fail(f"{name}: the colouring gives both ends of edge {u + 1}-{v + 1} colour {c[u]}", output)


def chromatic_number(vertices, adj, chi, output):
    if field(output, "chromatic number") != str(chi):
        fail(f"chromatic: the chromatic number is {chi}", output)
    proper(output, vertices, adj, chi, "chromatic")


def decide(vertices, adj, chi, k, output):
    expected = "yes" if k >= chi else "no"
    if field(output, f"colourable with {k} colours") != expected:
        fail(f"chromatic --decide {k}: the chromatic number is {chi}, so: {expected}", output)
    if expected == "yes":
        proper(output, vertices, adj, k, "chromatic --decide")


def check_each(files, check):
    global CURRENT
    for name in files:
        CURRENT = name
        with open(name) as f:
            check(f.read())


def main(argv):
    if len(argv) >= 6 and argv[1] == "knapsack" and argv[4] in ("drawn", "correlated"):
        items = int(argv[2])
        instance = knapsack_optimum(items, int(argv[3]), argv[4] == "correlated")
        check_each(argv[5:], lambda out: knapsack(items, instance, out))
        print(f"optimum {instance[0]}")
    elif len(argv) >= 7 and argv[1] == "colouring":
        vertices, density, seed, k = (int(x) for x in argv[2:6])
        adj = graph(vertices, density, seed)
        chi = chromatic(vertices, adj)
        check_each(argv[6:], lambda out: colouring(vertices, adj, k, chi, out))
        print(f"chromatic number {chi}: {'yes' if k >= chi else 'no'}")
    elif len(argv) == 6 and argv[1] == "dimacs":
        vertices = int(argv[2])
        write_dimacs(vertices, graph(vertices, int(argv[3]), int(argv[4])), argv[5])
    elif len(argv) >= 4 and argv[1] == "chromatic_number":
        vertices, adj = read_dimacs(argv[2])
        chi = int(argv[3])
        check_each(argv[4:], lambda out: chromatic_number(vertices, adj, chi, out))
        print(f"chromatic number {chi}")
    elif len(argv) >= 5 and argv[1] == "decide":
        vertices, adj = read_dimacs(argv[2])
        chi, k = int(argv[3]), int(argv[4])
        check_each(argv[5:], lambda out: decide(vertices, adj, chi, k, out))
        print(f"chromatic number {chi}: {k} colours {'suffice' if k >= chi else 'do not suffice'}")
    elif len(argv) == 3 and argv[1] == "chromatic_of":
        print(chromatic(*read_dimacs(argv[2])))
    elif len(argv) == 5 and argv[1] == "chromatic":
        vertices = int(argv[2])
        print(chromatic(vertices, graph(vertices, int(argv[3]), int(argv[4]))))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
