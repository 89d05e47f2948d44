"""campaign.py report's plots: run time against ranks, its spread, per rank, paired speedups (PNG,
one colour per policy in every plot and every campaign)."""
import math
import os
import shlex
import statistics



# One colour per policy, the same in every plot and every campaign (Okabe–Ito, readable by colour-blind
# readers); random, the baseline, is grey. Policies not listed take the spare colours in name order.
POLICY_COLOURS = {"random": "#8c8c8c", "performance": "#0072B2", "proportional": "#E69F00"}
SPARE_COLOURS = ["#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442"]
MODE_ORDER = ["isolated", "slow", "simultaneous"]


def policy_order(policies):
    """random (the baseline) first, then the others by name."""
    return sorted(set(policies), key=lambda p: (p != "random", p))


def mode_order(modes):
    return sorted(set(modes), key=lambda m: (MODE_ORDER.index(m) if m in MODE_ORDER else len(MODE_ORDER), m))


def policy_colours(policies):
    colours = {p: POLICY_COLOURS[p] for p in policies if p in POLICY_COLOURS}
    spare = iter(SPARE_COLOURS * (1 + len(policies) // len(SPARE_COLOURS)))
    for p in sorted(p for p in policies if p not in colours):
        colours[p] = next(spare)
    return colours


def mode_title(mode, runs):
    """A panel title: the mode, and for slow mode which ranks ran slower (from the manifest's command)."""
    if mode != "slow":
        return mode
    for r in runs:
        if r["mode"] != mode:
            continue
        try:
            words = shlex.split(r.get("command", ""))
            ranks = words[words.index("--slow-ranks") + 1]
            factor = words[words.index("--slowdown") + 1]
        except (ValueError, IndexError):
            continue
        return f"slow (rank{'s' if ',' in ranks else ''} {ranks} slowed ×{factor})"
    return mode


def app_name(runs):
    """The app the campaign ran, as its --stats say ("" if none says)."""
    return next((r["app"] for r in runs if r.get("app")), "")


def plot(out, rows, runs):
    """Writes plots/runtime_vs_ranks.png, runtime_spread.png, per_rank.png and (when the campaign ran the
    random policy) speedup.png. Every figure has one panel per mode and the policies as its only
    colours, with the legend below the panels. Returns the file names written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    pdir = os.path.join(out, "plots")
    os.makedirs(pdir, exist_ok=True)
    modes = mode_order(r["mode"] for r in rows)
    policies = policy_order(r["policy"] for r in rows)
    colour = policy_colours(policies)
    rank_counts = sorted({r["ranks"] for r in rows})
    app = app_name(runs)
    prefix = f"{app}: " if app else ""
    ok = [r for r in runs if r["ok"]]
    written = []

    def panels(nrows=1, sharey=False, height=3.6):
        fig, axes = plt.subplots(nrows, len(modes), figsize=(max(6.8, 0.6 + 4.2 * len(modes)), 0.6 + height * nrows),
                                 sharey=sharey, squeeze=False)
        return fig, axes

    def dodge(i, n, width=0.8):
        """Offset of the i-th of n policies inside one x group."""
        return (i - (n - 1) / 2) * width / n

    def rank_axis(ax, label="ranks"):
        # ranks are integers: categorical positions labelled with the rank count
        ax.set_xticks(range(len(rank_counts)))
        ax.set_xticklabels([str(k) for k in rank_counts])
        ax.set_xlim(-0.6, len(rank_counts) - 0.4)
        ax.set_xlabel(label)

    def finish(fig, name, title, handles):
        fig.suptitle(prefix + title, fontsize=11)
        h = fig.get_figheight()
        fig.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 0.0), ncol=min(len(handles), 6),
                   frameon=False)
        fig.tight_layout(rect=(0, 0.45 / h, 1, 1))
        fig.savefig(os.path.join(pdir, name), dpi=110, bbox_inches="tight", pad_inches=0.15)
        plt.close(fig)
        written.append(name)

    def no_data(ax, text="no runs"):
        ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", color="0.5")

    policy_handles = [Patch(facecolor=colour[p], label=p) for p in policies]

    # 1. run time against rank count: median with min–max bars. Modes run at very different
    #    speeds (simultaneous runs share the cores), so each panel has its own y axis.
    fig, axes = panels()
    for ax, mode in zip(axes[0], modes):
        for i, p in enumerate(policies):
            rs = {r["ranks"]: r for r in rows if r["mode"] == mode and r["policy"] == p}
            xs = [j + dodge(i, len(policies), 0.5) for j, k in enumerate(rank_counts) if k in rs]
            rs = [rs[k] for k in rank_counts if k in rs]
            if not rs:
                continue
            y = [r["median_s"] for r in rs]
            err = [[r["median_s"] - r["min_s"] for r in rs], [r["max_s"] - r["median_s"] for r in rs]]
            ax.errorbar(xs, y, yerr=err, marker="o", capsize=4, color=colour[p], lw=1.5)
        ax.set_title(mode_title(mode, runs))
        rank_axis(ax)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("run time (s): median, min–max")
    finish(fig, "runtime_vs_ranks.png", "run time against rank count", policy_handles)

    # 2. spread of run times per configuration: a box per policy and rank count, every run a dot
    fig, axes = panels()
    for ax, mode in zip(axes[0], modes):
        n = len(policies)
        for i, p in enumerate(policies):
            for j, k in enumerate(rank_counts):
                t = [r["seconds"] for r in ok if (r["mode"], r["ranks"], r["policy"]) == (mode, k, p)]
                if not t:
                    continue
                x = j + dodge(i, n)
                ax.boxplot([t], positions=[x], widths=0.7 / n, whis=(0, 100), patch_artist=True,
                           boxprops=dict(facecolor=colour[p], alpha=0.45, edgecolor=colour[p]),
                           medianprops=dict(color="black"), whiskerprops=dict(color=colour[p]),
                           capprops=dict(color=colour[p]))
                jitter = [x + 0.25 / n * ((m * 0.618) % 1 - 0.5) for m in range(len(t))]
                ax.scatter(jitter, t, s=9, color=colour[p], edgecolor="black", linewidth=0.3, zorder=3)
        ax.set_title(mode_title(mode, runs))
        rank_axis(ax)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("run time (s), one dot per run")
    finish(fig, "runtime_spread.png", "spread of run times (box: quartiles and median; whiskers: fastest and slowest run)",
           policy_handles)

    # 3. per-rank idle time and steal requests at the largest rank count: mean over runs, min–max bars
    if ok:
        kmax = max(r["ranks"] for r in ok)
        fig, axes = panels(nrows=2, sharey="row", height=3.0)
        metrics = (("idle_us", 1e-6, "idle time (s)"), ("steal_requests", 1, "steal requests"))
        n = len(policies)
        for c, mode in enumerate(modes):
            drawn = False
            for i, p in enumerate(policies):
                rs = [r for r in ok if r["ranks"] == kmax and r["policy"] == p and r["mode"] == mode
                      and r.get("per_rank")]
                if not rs:
                    continue
                drawn = True
                for row_i, (key, scale, _) in enumerate(metrics):
                    xs, mean, lo, hi = [], [], [], []
                    for k in range(kmax):
                        v = [e[key] * scale for r in rs for e in r["per_rank"] if e["rank"] == k]
                        if not v:
                            continue
                        xs.append(k + dodge(i, n))
                        mean.append(statistics.mean(v))
                        lo.append(mean[-1] - min(v))
                        hi.append(max(v) - mean[-1])
                    axes[row_i][c].bar(xs, mean, 0.8 / n, color=colour[p], yerr=[lo, hi],
                                       error_kw=dict(ecolor="0.25", elinewidth=0.8, capsize=2))
            for row_i, (_, _, label) in enumerate(metrics):
                ax = axes[row_i][c]
                ax.set_xticks(range(kmax))
                ax.set_xticklabels([str(k) for k in range(kmax)])
                ax.set_xlim(-0.6, kmax - 0.4)
                ax.grid(axis="y", alpha=0.3)
                if not drawn:
                    no_data(ax, f"no {kmax}-rank runs")
                if c == 0:
                    ax.set_ylabel(f"{label}\nmean over runs, min–max")
            axes[0][c].set_title(mode_title(mode, runs))
            axes[1][c].set_xlabel("rank")
        finish(fig, "per_rank.png", f"per rank, {kmax}-rank runs", policy_handles)

    # 4. paired speedup over random (median over pairs, 95 % bootstrap interval); the same
    #    percentage scale in every panel, so the y axis is shared. Labels: pairs won.
    others = [p for p in policies if p != "random"]
    if "random" in policies and others:
        fig, axes = panels(sharey=True)
        extent = [0.0]
        for ax, mode in zip(axes[0], modes):
            ax.axhline(0, color=colour["random"], lw=1.5, ls="--", zorder=1)
            for i, p in enumerate(others):
                for j, k in enumerate(rank_counts):
                    r = next((r for r in rows if (r["mode"], r["ranks"], r["policy"]) == (mode, k, p)), None)
                    if r is None or math.isnan(r["paired_median_pct"]):
                        continue
                    x = j + dodge(i, len(others), 0.5)
                    m, lo, hi = r["paired_median_pct"], r["paired_lo_pct"], r["paired_hi_pct"]
                    extent += [lo, hi]
                    ax.errorbar([x], [m], yerr=[[m - lo], [hi - m]], marker="o", capsize=4, color=colour[p],
                                lw=1.5, zorder=3)
                    ax.annotate(r["pairs_won"], (x, hi), xytext=(0, 3), textcoords="offset points",
                                ha="center", va="bottom", fontsize=7, color="0.3")
            ax.set_title(mode_title(mode, runs))
            rank_axis(ax)
            ax.grid(axis="y", alpha=0.3)
        # room above the highest interval for its pairs-won label (the y axis is shared)
        low, high = min(extent), max(extent)
        pad = max(high - low, 1.0) * 0.08
        axes[0][0].set_ylim(low - pad, high + 2 * pad)
        axes[0][0].set_ylabel("speedup over random (%)\npaired median, 95 % CI")
        handles = [Patch(facecolor=colour[p], label=p) for p in others]
        handles.append(Line2D([], [], color=colour["random"], ls="--", label="random (0 %)"))
        finish(fig, "speedup.png", "paired speedup over random (> 0: faster; labels: pairs won)", handles)
    return written
