#!/usr/bin/python3
"""campaign.py report on a small made-up campaign: report.html is one self-contained page (summary table,
every plot embedded as a PNG data: URI, no network references), table.md is still written, and the
per-rank plot labels its ranks with integers.

Needs numpy and matplotlib (Debian's /usr/bin/python3). Usage: test_campaign_report.py [--keep]
(--keep leaves the campaign folder in /tmp and prints its path)."""
import base64
import csv
import glob
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CAMPAIGN = os.path.join(HERE, os.pardir, os.pardir, "slurm", "campaign.py")
FIELDS = ["id", "mode", "ranks", "threads", "policy", "rep", "exit", "wall_seconds", "dir", "command"]
POLICIES = ["random", "performance"]
MODES = ["isolated", "simultaneous"]
RANKS = [1, 2]
REPS = 3
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
KEEP = "--keep" in sys.argv


def stats_doc(ranks, policy, rep, seconds):
    """The fields load_runs/extract read from a run's --stats file, with consistent made-up numbers."""
    per_rank = []
    for k in range(ranks):
        granted, refused = 10 + k + rep, 20 + 2 * k
        per_rank.append({"rank": k, "busy_us": seconds * 0.9e6, "idle_us": seconds * 0.1e6 * (k + 1),
                         "steal_requests": granted + refused, "steals_failed": refused,
                         "comm": {"steal_round_trip_us_mean": 100.0 + 10 * k, "steals_granted": granted,
                                  "steals_refused": refused}})
    totals = {key: sum(r[key] for r in per_rank) for key in ("busy_us", "idle_us", "steal_requests", "steals_failed")}
    return {"app": "synthetic", "complete": True, "seconds": seconds, "ranks": ranks,
            "stats": {"nodes": 123456},
            "distributed": {"ranks": ranks, "per_rank": per_rank, "totals": totals,
                            "herding": {"share_to_most_chosen": 0.5 + 0.01 * rep}}}


def make_campaign(out):
    n = 0
    rows = []
    for mode in MODES:
        for ranks in RANKS:
            for rep in range(REPS):
                for policy in POLICIES:
                    n += 1
                    run_id = f"{n:04d}"
                    rdir = os.path.join(out, "runs", run_id)
                    os.makedirs(rdir)
                    # performance a little faster than random, more so on 2 ranks; simultaneous slower
                    seconds = (10.0 / ranks) * (2.0 if mode == "simultaneous" else 1.0) \
                        * (1.0 - (0.02 * ranks if policy == "performance" else 0.0)) + 0.05 * rep
                    with open(os.path.join(rdir, "stats.json"), "w") as f:
                        json.dump(stats_doc(ranks, policy, rep, seconds), f)
                    rows.append({"id": run_id, "mode": mode, "ranks": ranks, "threads": 1, "policy": policy,
                                 "rep": rep, "exit": 0, "wall_seconds": f"{seconds + 0.2:.3f}",
                                 "dir": f"runs/{run_id}",
                                 "command": f"mpirun -n {ranks} build/apps/synthetic/synthetic -g 5 "
                                            f"--policy {policy} --threads 1 --seed {rep + 1} "
                                            f"--stats {rdir}/stats.json"})
    # one failed run (no stats file): reported as excluded, in no table row
    n += 1
    os.makedirs(os.path.join(out, "runs", f"{n:04d}"))
    rows.append({"id": f"{n:04d}", "mode": "isolated", "ranks": 2, "threads": 1, "policy": "random", "rep": REPS,
                 "exit": 1, "wall_seconds": "0.100", "dir": f"runs/{n:04d}", "command": "mpirun -n 2 synthetic"})
    with open(os.path.join(out, "runs.tsv"), "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS, delimiter="\t")
        w.writeheader()
        w.writerows(rows)


class Page(html.parser.HTMLParser):
    """Collects the summary table's body rows, every img src, and every src/href attribute."""

    def __init__(self):
        super().__init__()
        self.tables, self.rows, self.imgs, self.links, self.scripts = 0, [], [], [], []
        self._in_tbody, self._row, self._cell = False, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("src", "href"):
            if attrs.get(key):
                self.links.append(attrs[key])
        if tag == "table":
            self.tables += 1
        elif tag == "tbody":
            self._in_tbody = True
        elif tag == "tr" and self._in_tbody:
            self._row = []
        elif tag == "td" and self._row is not None:
            self._cell = ""
        elif tag == "img":
            self.imgs.append(attrs.get("src", ""))
        elif tag == "script":
            self.scripts.append(attrs)

    def handle_endtag(self, tag):
        if tag == "tbody":
            self._in_tbody = False
        elif tag == "td" and self._cell is not None:
            self._row.append(self._cell.strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


class CampaignReport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="campaign-report-")
        cls.out = os.path.join(cls.tmp, "campaign")
        make_campaign(cls.out)
        cls.proc = subprocess.run([sys.executable, CAMPAIGN, "report", cls.out], capture_output=True, text=True,
                                  timeout=100)
        path = os.path.join(cls.out, "report.html")
        cls.html = ""
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                cls.html = f.read()
        cls.page = Page()
        cls.page.feed(cls.html)

    @classmethod
    def tearDownClass(cls):
        if KEEP:
            print(f"campaign folder kept: {cls.out}", file=sys.stderr)
        else:
            shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_report_ran(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stdout + self.proc.stderr)

    def test_files(self):
        for f in ("report.html", "table.md", "table.csv", "plots/runtime_vs_ranks.png", "plots/runtime_spread.png",
                  "plots/per_rank.png", "plots/speedup.png"):
            self.assertTrue(os.path.getsize(os.path.join(self.out, f)) > 0, f)

    def test_table_has_a_row_per_configuration(self):
        self.assertGreaterEqual(self.page.tables, 1)
        self.assertIn("<table", self.html)
        got = sorted((r[0], int(r[1]), r[2]) for r in self.page.rows if len(r) > 3 and r[1].isdigit())
        want = sorted((m, k, p) for m in MODES for k in RANKS for p in POLICIES)
        self.assertEqual(got, want)
        for r in self.page.rows:
            self.assertEqual(r[3], str(REPS), r)  # runs: the failed run is excluded
        self.assertIn("1 failed or incomplete", self.html)

    def test_table_matches_table_md(self):
        with open(os.path.join(self.out, "table.md"), encoding="utf-8") as f:
            md = [[c.strip() for c in line.strip().strip("|").split("|")] for line in f
                  if line.startswith("| ") and not line.startswith("| mode |")]
        self.assertEqual(md, self.page.rows)

    def test_every_plot_embedded_as_png(self):
        pngs = glob.glob(os.path.join(self.out, "plots", "*.png"))
        data = [s for s in self.page.imgs if s.startswith("data:image/png;base64,")]
        self.assertGreaterEqual(len(pngs), 4)
        self.assertGreaterEqual(len(data), len(pngs))
        self.assertEqual(len(data), len(self.page.imgs), "an img that is not an embedded PNG")
        for src in data:
            self.assertTrue(base64.b64decode(src.split(",", 1)[1], validate=True).startswith(PNG_SIGNATURE))

    def test_no_network_references(self):
        for link in self.page.links:
            self.assertFalse(re.match(r"\s*(https?:)?//", link, re.I), link)
        self.assertNotRegex(self.html, r"(?i)(src|href)\s*=\s*[\"']?\s*(https?:)?//")
        self.assertNotRegex(self.html, r"(?i)<script[^>]*\bsrc")
        self.assertNotRegex(self.html, r"(?i)@import|url\(\s*[\"']?(https?:)?//")
        self.assertEqual(self.page.scripts, [])

    def test_header(self):
        self.assertIn("synthetic", self.html)  # the app
        self.assertIn(f"{len(MODES) * len(RANKS) * REPS * len(POLICIES) + 1} (1 failed", self.html)
        for word in MODES + POLICIES:
            self.assertIn(word, self.html)
        self.assertRegex(self.html, r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC")

    def test_rank_ticks_are_integers(self):
        """In-process: the tick labels of every x axis in per_rank.png (ranks) and the rank-count axes."""
        sys.path.insert(0, os.path.dirname(CAMPAIGN))
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.figure
        import campaign_plots
        import campaign_report
        labels = {}
        original = matplotlib.figure.Figure.savefig

        def savefig(fig, fname, *args, **kwargs):
            original(fig, fname, *args, **kwargs)
            labels[os.path.basename(str(fname))] = [[t.get_text() for t in ax.get_xticklabels()] for ax in fig.axes]

        tmp_out = os.path.join(self.tmp, "inprocess")
        shutil.copytree(self.out, tmp_out)
        matplotlib.figure.Figure.savefig = savefig
        try:
            runs = campaign_report.load_runs(tmp_out)
            campaign_plots.plot(tmp_out, campaign_report.summarise(runs), runs)
        finally:
            matplotlib.figure.Figure.savefig = original
        for name, axes in labels.items():
            for ticks in axes:
                self.assertTrue(ticks, name)
                for t in ticks:
                    self.assertRegex(t, r"^\d+$", f"{name}: tick '{t}' in {ticks}")
        self.assertEqual(set(labels), {"runtime_vs_ranks.png", "runtime_spread.png", "per_rank.png", "speedup.png"})
        self.assertIn(["0", "1"], labels["per_rank.png"])
        self.assertIn(["1", "2"], labels["speedup.png"])


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
