#!/usr/bin/python3
"""campaign.py checks its arguments before it runs anything (issue 37, item 8): a bad --policies,
--modes, --ranks, --reps, --out (and every other option) is one message on stderr and exit 2, with
no traceback, no campaign folder and no run started. The policies come from the program's own
--list-policies (with jackdaw-sim: checked against its --help's --policy line).

Runs against a stand-in app and simulator (small Python scripts), no MPI, no Slurm:
  test_campaign_arguments.py [JACKDAW_SIM TRACE]   (with them: also check the policies read from
                                                    jackdaw-sim and SIM-ARGS refused by it)
"""
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CAMPAIGN = os.path.join(HERE, os.pardir, os.pardir, "slurm", "campaign.py")
SIM, TRACE = (sys.argv[1:3] + [None, None])[:2] if len(sys.argv) > 2 and not sys.argv[1].startswith("-") else (None, None)

# A program as campaign.py sees it: --list-policies lists the policies as the programs do; a run
# writes a stats (or --out) file and counts itself in calls.log.
STAND_IN = textwrap.dedent('''\
    #!/usr/bin/python3
    import json, os, sys
    a = sys.argv[1:]
    if "--list-policies" in a:
        print(json.dumps([{"name": n, "summary": "", "constants": []}
                          for n in ("random", "performance", "proportional", "twochoice")]))
        sys.exit(0)
    if "--info" in a:
        sys.exit(0)
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "calls.log"), "a") as f:
        f.write(" ".join(a) + "\\n")
    path = a[a.index("--stats") + 1] if "--stats" in a else a[a.index("--out") + 1]
    with open(path, "w") as f:
        json.dump({"complete": True, "seconds": 1.0, "stats": {"nodes": 1}}, f)
    ''')


class CampaignArguments(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.prog = os.path.join(self.dir, "standin")
        with open(self.prog, "w") as f:
            f.write(STAND_IN)
        os.chmod(self.prog, 0o755)
        self.trace = os.path.join(self.dir, "t.jdtrace")
        open(self.trace, "wb").close()
        self.out = os.path.join(self.dir, "out")

    def tearDown(self):
        self.tmp.cleanup()

    def campaign(self, *args):
        return subprocess.run(["/usr/bin/python3", CAMPAIGN] + list(args), capture_output=True, text=True,
                              timeout=120)

    def calls(self):
        path = os.path.join(self.dir, "calls.log")
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return f.read().splitlines()

    def run_args(self, *extra):
        return ["run", "--out", self.out, "--launcher", "direct", "--ranks", "1", "--reps", "1",
                "--modes", "isolated"] + list(extra) + ["--", self.prog]

    def sim_args(self, *extra):
        return ["simulate", "--out", self.out, "--sim", self.prog, "--trace", self.trace, "--ranks", "2",
                "--reps", "1", "--modes", "isolated"] + list(extra)

    def assertRefused(self, p, *names):
        """Exit 2, one line on stderr naming each of `names`, no traceback, nothing run or written."""
        lines = [line for line in p.stderr.splitlines() if line.strip()]
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertNotIn("Traceback", p.stderr)
        for name in names:
            self.assertIn(name, lines[0])
        self.assertEqual(self.calls(), [], "runs were started")
        self.assertFalse(os.path.exists(os.path.join(self.out, "runs.tsv")), "a manifest was written")

    def test_good_arguments_run(self):
        # The stand-ins are good enough to run: what the other cases refuse is the argument.
        p = self.campaign(*self.run_args("--policies", "random,performance"))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(len(self.calls()), 2)
        p = self.campaign(*(self.sim_args("--policies", "random,proportional") + ["--out", self.out + "2"]))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(len(self.calls()), 4)

    def test_unknown_policy(self):
        for args in (self.run_args("--policies", "random,bogus"), self.sim_args("--policies", "random,bogus")):
            self.assertRefused(self.campaign(*args), "bogus", "random, performance, proportional, twochoice")

    def test_program_that_lists_no_policies(self):
        with open(self.prog, "w") as f:
            # An older program: --list-policies is an unknown option (CLI11's exit code for one).
            f.write(STAND_IN.replace('print(json.dumps(', 'sys.exit(109); print(json.dumps('))
        self.assertRefused(self.campaign(*self.run_args("--policies", "random")), "--list-policies")

    def test_policy_lists(self):
        for value in ("", "random,", "random,random"):
            self.assertRefused(self.campaign(*self.sim_args("--policies", value)), "--policies")

    def test_unknown_mode(self):
        for args in (self.run_args("--modes", "weird"), self.sim_args("--modes", "isolated,weird")):
            self.assertRefused(self.campaign(*args), "weird", "isolated, slow, simultaneous")

    def test_ranks(self):
        for value in ("0", "x", "-1", "", "1,,2", "2,2", "1.5", " 1", "1000000000000"):
            for args in (self.run_args("--ranks", value), self.sim_args("--ranks", value)):
                self.assertRefused(self.campaign(*args), "--ranks")

    def test_reps(self):
        for value in ("0", "-3", "x", "1e3", ""):
            for args in (self.run_args("--reps", value), self.sim_args("--reps", value)):
                self.assertRefused(self.campaign(*args), "--reps")

    def test_numbers(self):
        cases = [("--threads", "0"), ("--threads", "x"), ("--slowdown", "nan"), ("--slowdown", "0.5"),
                 ("--slowdown", "inf"), ("--seed", "-1"), ("--seed", "x"), ("--seed", str(2**64)),
                 ("--timeout", "0"), ("--timeout", "nan"), ("--timeout", "-5"), ("--slow-ranks", "x"),
                 ("--slow-ranks", "-1"), ("--slow-ranks", "")]
        for opt, value in cases:
            self.assertRefused(self.campaign(*self.run_args(opt, value)), opt)
        for opt, value in cases[2:] + [("--jobs", "0"), ("--jobs", "x")]:
            self.assertRefused(self.campaign(*self.sim_args(opt, value)), opt)

    def test_out_is_a_file(self):
        with open(self.out, "w") as f:
            f.write("not a folder\n")
        for args in (self.run_args(), self.sim_args()):
            p = self.campaign(*args)
            self.assertRefused(p, self.out)
            with open(self.out) as f:
                self.assertEqual(f.read(), "not a folder\n")

    def test_out_cannot_be_made(self):
        blocker = os.path.join(self.dir, "file")
        open(blocker, "w").close()
        self.out = os.path.join(blocker, "sub")
        self.assertRefused(self.campaign(*self.sim_args()), self.out)

    def test_missing_programs(self):
        p = self.campaign("simulate", "--out", self.out, "--sim", os.path.join(self.dir, "nosim"), "--trace",
                          self.trace)
        self.assertRefused(p, "nosim")
        p = self.campaign("simulate", "--out", self.out, "--sim", self.prog, "--trace",
                          os.path.join(self.dir, "none.jdtrace"))
        self.assertRefused(p, "none.jdtrace")
        p = self.campaign("run", "--out", self.out, "--", os.path.join(self.dir, "noapp"))
        self.assertRefused(p, "noapp")
        p = self.campaign("run", "--out", self.out)
        self.assertRefused(p, "app")

    def test_direct_launcher_one_rank(self):
        args = self.run_args()
        args[args.index("--ranks") + 1] = "1,2"
        self.assertRefused(self.campaign(*args), "--launcher direct", "--ranks")

    def test_unknown_option_one_line(self):
        self.assertRefused(self.campaign("report", "--no-such-option", self.out), "--no-such-option")
        self.assertRefused(self.campaign("run", "--no-such-option", "--out", self.out), "--no-such-option")
        self.assertRefused(self.campaign("nosuchcommand"), "nosuchcommand")

    @unittest.skipUnless(SIM, "needs jackdaw-sim and a trace")
    def test_simulator_arguments(self):
        # SIM-ARGS go to every run: the simulator checks them (with --info) before the first.
        base = ["simulate", "--out", self.out, "--sim", SIM, "--trace", TRACE, "--ranks", "2", "--reps", "1"]
        self.assertRefused(self.campaign(*(base + ["--", "--no-such-option"])), "--no-such-option")
        self.assertRefused(self.campaign(*(base + ["--", "--workers", "nan"])), "--workers")
        self.assertRefused(self.campaign(*(base[:7] + [self.trace] + base[8:])), "t.jdtrace")

    def test_report_missing_folder(self):
        self.assertRefused(self.campaign("report", os.path.join(self.dir, "nowhere")), "nowhere")

    @unittest.skipUnless(SIM, "needs jackdaw-sim's path")
    def test_policies_are_the_simulators(self):
        sys.path.insert(0, os.path.dirname(CAMPAIGN))
        import campaign_args  # noqa: E402
        p = subprocess.run([SIM, "--help"], capture_output=True, text=True, timeout=60)
        listed = re.search(r"--policy TEXT:\{([^}]*)\}", p.stdout).group(1).split(",")
        self.assertEqual(campaign_args.policies_of(SIM), listed)
        self.assertIn("random", listed)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
