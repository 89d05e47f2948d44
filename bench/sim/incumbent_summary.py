#!/usr/bin/python3
"""What replaying the incumbent changes in a simulated branch-and-bound grid (docs/simulation.md).

    bench/sim/incumbent_summary.py REPLAYED_DIR [OPTIMUM_DIR]

REPLAYED_DIR is a `campaign.py simulate` directory run on a trace with levels (jackdaw-sim's default
`--incumbent replay`); OPTIMUM_DIR, if given, the same campaign with `--incumbent optimum` (isolated
mode is enough). Prints three Markdown tables: speedup (4.1) over random with its paired 95 %
interval and variability (4.2) per mode and size; per mode and size the nodes replayed, the share of
tasks started before their rank knew the optimum, and the correlation of makespan with nodes; and,
with OPTIMUM_DIR, each policy's makespan replayed over optimum-known, paired by seed.
"""
import csv
import json
import os
import statistics
import sys

POLICIES = ['performance', 'proportional', 'twochoice']
MODES = ['isolated', 'slow', 'simultaneous']


def table(d):
    return {(r['mode'], int(r['ranks']), r['policy']): r for r in csv.DictReader(open(os.path.join(d, 'table.csv')))}


def runs(d):
    """(mode, ranks, policy, rep) -> (makespan s, nodes, tasks started per tree, strongest first)."""
    out = {}
    for r in csv.DictReader(open(os.path.join(d, 'runs.tsv')), delimiter='\t'):
        if r['exit'] != '0':
            continue
        j = json.load(open(os.path.join(d, r['dir'], 'stats.json')))
        per_tree = j['simulation'].get('incumbent', {}).get('tasks_started_per_tree', [])
        out[(r['mode'], int(r['ranks']), r['policy'], int(r['rep']))] = (j['seconds'], j['stats']['nodes'], per_tree)
    return out


def correlation(xs, ys):
    mx, my = statistics.mean(xs), statistics.mean(ys)
    sx = sum((x - mx) ** 2 for x in xs) ** 0.5
    sy = sum((y - my) ** 2 for y in ys) ** 0.5
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (sx * sy) if sx and sy else float('nan')


def spread(xs):
    return (max(xs) - min(xs)) / min(xs) * 100


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    replayed = argv[1]
    g, a = table(replayed), runs(replayed)
    sizes = sorted({k[1] for k in g})
    modes = [m for m in MODES if any(k[0] == m for k in g)]
    print('| mode | nodes | random mean s | ' + ' | '.join(f'{p} (4.1)' for p in POLICIES) +
          ' | variability (4.2) random / perf. / prop. / twochoice | idle % (random) |')
    print('|---|---|---|' + '---|' * len(POLICIES) + '---|---|')
    for mode in modes:
        for n in sizes:
            cells = []
            for p in POLICIES:
                x = g[(mode, n, p)]
                lo, hi = float(x['paired_lo_pct']), float(x['paired_hi_pct'])
                star = ' *' if lo > 0 or hi < 0 else ''
                cells.append(f"{float(x['speedup_mean_pct']):+.1f} % ({lo:+.1f} … {hi:+.1f}){star}")
            var = ' / '.join(f"{float(g[(mode, n, p)]['variability_pct']):.1f}" for p in ['random'] + POLICIES)
            r = g[(mode, n, 'random')]
            print(f"| {mode} | {n} | {float(r['mean_s']):.3f} | " + ' | '.join(cells) +
                  f" | {var} % | {float(r['idle_pct']):.1f} |")
    print()
    print('| mode | nodes | nodes replayed, millions (min … max, all policies) | tasks started before the optimum, % (median) |'
          ' correlation of makespan with nodes |')
    print('|---|---|---|---|---|')
    for mode in modes:
        for n in sizes:
            ks = [k for k in a if k[0] == mode and k[1] == n]
            nodes = [a[k][1] / 1e6 for k in ks]
            early = [100 * sum(a[k][2][1:]) / sum(a[k][2]) for k in ks if sum(a[k][2]) > 0]
            share = f'{statistics.median(early):.1f}' if early else '—'
            print(f"| {mode} | {n} | {min(nodes):.0f} … {max(nodes):.0f} | {share} | "
                  f"{correlation([a[k][0] for k in ks], nodes):.2f} |")
    if len(argv) == 3:
        b = runs(argv[2])
        print()
        print('| nodes | policy | optimum known, mean s | replayed, mean s | replayed / optimum known, paired median [min, max] |'
              ' variability optimum known / replayed, % |')
        print('|---|---|---|---|---|---|')
        for n in sizes:
            for p in ['random'] + POLICIES:
                ks = [k for k in b if k[0] == 'isolated' and k[1] == n and k[2] == p and k in a]
                if not ks:
                    continue
                ratios = sorted(a[k][0] / b[k][0] for k in ks)
                print(f"| {n} | {p} | {statistics.mean(b[k][0] for k in ks):.3f} | {statistics.mean(a[k][0] for k in ks):.3f} | "
                      f"{statistics.median(ratios):.3f} [{ratios[0]:.3f}, {ratios[-1]:.3f}] | "
                      f"{spread([b[k][0] for k in ks]):.1f} / {spread([a[k][0] for k in ks]):.1f} |")


if __name__ == '__main__':
    main(sys.argv)
