#!/usr/bin/python3
"""What replaying the incumbent changes in a simulated branch-and-bound grid (docs/simulation.md).

    bench/sim/incumbent_summary.py REPLAYED_DIR [OPTIMUM_DIR]

REPLAYED_DIR is a `campaign.py simulate` directory run on a trace with levels (jackdaw-sim's default
`--incumbent replay`); OPTIMUM_DIR, if given, the same campaign with `--incumbent optimum` (isolated
mode is enough). Prints three Markdown tables: speedup (4.1) over random with its paired 95 %
interval and variability (4.2) per mode and size; per mode and size the nodes replayed, the share of
tasks started before their rank knew the optimum, and the correlation of makespan with nodes; and,
with OPTIMUM_DIR, each policy's makespan replayed over optimum-known, paired by seed. The numbers
are the campaign report's own (slurm/campaign.py), read from the same runs.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "slurm"))
import campaign  # noqa: E402

POLICIES = ['performance', 'proportional', 'twochoice']


def load(d):
    """The successful runs by (mode, ranks, policy, rep), and the report's rows by (mode, ranks, policy)."""
    runs = [r for r in campaign.load_runs(d) if r['ok']]
    rows = {(r['mode'], r['ranks'], r['policy']): r for r in campaign.summarise(runs)}
    return {(r['mode'], r['ranks'], r['policy'], r['rep']): r for r in runs}, rows


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    a, g = load(argv[1])
    sizes = sorted({k[1] for k in g})
    modes = campaign.mode_order(k[0] for k in g)
    print('| mode | nodes | random mean s | ' + ' | '.join(f'{p} (4.1)' for p in POLICIES) +
          ' | variability (4.2) random / perf. / prop. / twochoice | idle % (random) |')
    print('|---|---|---|' + '---|' * len(POLICIES) + '---|---|')
    for mode in modes:
        for n in sizes:
            cells = []
            for p in POLICIES:
                x = g[(mode, n, p)]
                lo, hi = x['paired_lo_pct'], x['paired_hi_pct']
                star = ' *' if lo > 0 or hi < 0 else ''
                cells.append(f"{x['speedup_mean_pct']:+.1f} % ({lo:+.1f} … {hi:+.1f}){star}")
            var = ' / '.join(f"{g[(mode, n, p)]['variability_pct']:.1f}" for p in ['random'] + POLICIES)
            r = g[(mode, n, 'random')]
            print(f"| {mode} | {n} | {r['mean_s']:.3f} | " + ' | '.join(cells) + f" | {var} % | {r['idle_pct']:.1f} |")
    print()
    print('| mode | nodes | nodes replayed, millions (min … max, all policies) | tasks started before the optimum, % (median) |'
          ' correlation of makespan with nodes |')
    print('|---|---|---|---|---|')
    for mode in modes:
        for n in sizes:
            rs = [r for k, r in a.items() if k[0] == mode and k[1] == n]
            nodes = [r['nodes'] / 1e6 for r in rs]
            early = [100 * sum(r['tasks_per_tree'][1:]) / sum(r['tasks_per_tree']) for r in rs if sum(r['tasks_per_tree']) > 0]
            share = f'{statistics.median(early):.1f}' if early else '—'
            print(f"| {mode} | {n} | {min(nodes):.0f} … {max(nodes):.0f} | {share} | "
                  f"{statistics.correlation([r['seconds'] for r in rs], nodes):.2f} |")
    if len(argv) == 3:
        b, h = load(argv[2])
        print()
        print('| nodes | policy | optimum known, mean s | replayed, mean s | replayed / optimum known, paired median [min, max] |'
              ' variability optimum known / replayed, % |')
        print('|---|---|---|---|---|---|')
        for n in sizes:
            for p in ['random'] + POLICIES:
                ks = [k for k in b if k[:3] == ('isolated', n, p) and k in a]
                if not ks:
                    continue
                ratios = sorted(a[k]['seconds'] / b[k]['seconds'] for k in ks)
                opt, rep = h[('isolated', n, p)], g[('isolated', n, p)]
                print(f"| {n} | {p} | {opt['mean_s']:.3f} | {rep['mean_s']:.3f} | "
                      f"{statistics.median(ratios):.3f} [{ratios[0]:.3f}, {ratios[-1]:.3f}] | "
                      f"{opt['variability_pct']:.1f} / {rep['variability_pct']:.1f} |")


if __name__ == '__main__':
    main(sys.argv)
