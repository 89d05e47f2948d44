#!/usr/bin/env python3
"""The include graph follows the layers: apps -> distributed -> (skeletons -> core, comm).

  check_layers.py SOURCE_DIR     check the tree; print every violation, exit 1 if any
  check_layers.py --self-test    plant violations in a scratch tree and check they are caught

Rules (a plain check of each file's #include lines):
  core/         includes only jackdaw/core/ and no MPI, cereal, JSON, CLI or logging library
  skeletons/    includes only jackdaw/core/ and jackdaw/skeletons/, and none of those libraries
  comm/         includes no search code: only jackdaw/comm/ (no core, skeletons, distributed, apps)
  distributed/  includes no app code (jackdaw/app/ or an app's model)
  trace/        includes only jackdaw/trace/, no MPI
  sim/          includes only core, trace, sim and the MPI-free comm headers (policies, options,
                counters), no MPI; and it declares no victim policy of its own: it runs the
                runtime's policy objects, never a copy
  comm's MPI-free headers (COMM_CORE) include no MPI and no other comm header that does
  the steal protocol is written once (comm/steal_protocol.hpp): comm/src/comm_thread.cpp and sim/
                both drive a comm::StealProtocol, and neither calls a rule of it (the seed tree's
                hold and redirect rules, the sleep rules, the policy's choice and outcome) nor
                keeps its state (requests in flight, held requests, the thief's back-off)
  so is the rank's turn (comm/comm_turn.hpp): both call comm::commTurn and neither takes a step of
                it on its own (the protocol's turn, publish, probe, refresh and sleep calls)
  the --stats sections of stealing and the board's sample are written once in comm
                (comm/report_sections.hpp, comm/policies/board_view.hpp): sim/ and apps/ call them
                and write no "distributed" counters, herding, board summary or sample of their own
  apps/         calls no MPI function: it reaches the other ranks only through comm's collectives
                (comm/collectives.hpp, comm/failure.hpp); the MPI_Comm type may appear
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
LIBRARIES = ("mpi.h", "mpi/", "cereal/", "nlohmann/", "CLI/", "spdlog/", "fmt/")

# folder -> (jackdaw/ sub-folders it may include, whether the libraries above are banned)
RULES = {
    "core": ({"core"}, True),
    "skeletons": ({"core", "skeletons", "search.hpp"}, True),  # jackdaw/search.hpp: its one include
    "comm": ({"comm"}, False),
    "distributed": ({"core", "skeletons", "search.hpp", "comm", "distributed"}, False),
}
SOURCES = (".hpp", ".h", ".cpp", ".cc")
MPI = ("mpi.h", "mpi/")
# The comm headers of the MPI-free library jackdaw_comm_core (comm/CMakeLists.txt).
COMM_CORE = ("jackdaw/comm/policy.hpp", "jackdaw/comm/policies/", "jackdaw/comm/board_record.hpp",
             "jackdaw/comm/board_scheme.hpp",
             "jackdaw/comm/comm_stats.hpp", "jackdaw/comm/comm_options.hpp", "jackdaw/comm/comm_events.hpp",
             "jackdaw/comm/local_work.hpp", "jackdaw/comm/seed_tree.hpp", "jackdaw/comm/cli_numbers.hpp",
             "jackdaw/comm/steal_protocol.hpp", "jackdaw/comm/comm_cli.hpp", "jackdaw/comm/steal_options.hpp",
             "jackdaw/comm/report_sections.hpp", "jackdaw/comm/comm_turn.hpp", "jackdaw/comm/wire.hpp")
# folder -> (jackdaw/ sub-folders it may include, libraries it must not include, comm headers allowed)
MPI_FREE = {
    "trace": ({"trace"}, MPI, ()),
    "sim": ({"core", "comm", "trace", "sim"}, MPI, COMM_CORE),
}
# The steal protocol's rules and state, which only comm/src/steal_protocol.cpp may hold.
PROTOCOL_RULE = re.compile(r"\b(holdSeedRequest|followSeedRedirect|seedRedirect|seedParent|nextSleep|sleepCap|"
                           r"busyWithDoorbell|onOutcome|onHungry|onRoundTrip|onDelaySample)\s*\(|"
                           r"\b(nextStealNs_?|stealRetryUs_?|publishSoon_?|inflight_|held_)\b|(\.|->)choose\(\)|"
                           r"(\.|->)(onTurn|afterTurn|probeDue|refreshIfDue|publishDue|offerRecord)\s*\(")
# Where the protocol is driven: (path or folder, what it must mention).
PROTOCOL_DRIVERS = (("comm/src/comm_thread.cpp", "comm/include/jackdaw/comm/comm_thread.hpp"), ("sim", "sim"))
# Written once in comm (report_sections.hpp, policies/board_view.hpp): the distributed section's
# fields, its herding and board summaries, the board's sample. sim/ and apps/ only call them.
WRITTEN_ONCE = re.compile(r'\{\s*"(steals_failed|policy_name|steal_requests)"\s*,|\["policy_name"\]\s*=|'
                          r"\b(herding|boardSummary|sampleOtherRanks)\s*\(|\bCandidates\s+candidates\s*\(")
# An MPI call in code (comments stripped): apps/ makes none (comm/collectives.hpp names what it needs).
MPI_CALL = re.compile(r"\bMPI_[A-Z][a-z_]*\s*\(")
POLICY_CLASS = re.compile(r"(class|struct)\s+\w+[^;{]*:\s*(public\s+)?(jackdaw::)?(comm::)?VictimPolicy\b")


def violations(root):
    found = []
    for layer, (allowed, noLibraries) in RULES.items():
        top = os.path.join(root, layer)
        for dirpath, _, files in os.walk(top):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        inc = m.group(1)
                        rel = os.path.relpath(path, root)
                        if inc.startswith("jackdaw/"):
                            part = inc.split("/")[1]
                            if part not in allowed:
                                found.append(f"{rel}:{lineno}: {layer}/ must not include {inc}")
                        elif noLibraries and inc.startswith(LIBRARIES):
                            found.append(f"{rel}:{lineno}: {layer}/ must not include {inc} (the engine is MPI-free "
                                         "and has no serialisation, JSON, CLI or logging dependency)")
    for layer, (allowed, banned, comm) in MPI_FREE.items():
        for path, rel in sources(root, layer):
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for lineno, line in enumerate(text.splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                if inc.startswith("jackdaw/"):
                    part = inc.split("/")[1]
                    if part not in allowed or (part == "comm" and not inc.startswith(comm)):
                        found.append(f"{rel}:{lineno}: {layer}/ must not include {inc} (it builds without MPI)")
                elif inc.startswith(banned):
                    found.append(f"{rel}:{lineno}: {layer}/ must not include {inc} (it builds without MPI)")
            if layer == "sim" and POLICY_CLASS.search(text):
                found.append(f"{rel}: sim/ declares a victim policy; it must run the runtime's own (comm/policies/)")
    for where, declaredIn in PROTOCOL_DRIVERS:
        files = [(os.path.join(root, where), where)] if where.endswith(SOURCES) else list(sources(root, where))
        files = [(p, r) for p, r in files if os.path.exists(p)]
        if not files:
            continue
        declared = False
        decl = [(os.path.join(root, declaredIn), declaredIn)] if declaredIn.endswith(SOURCES) else files
        for path, rel in decl:
            if os.path.exists(path) and re.search(r"\bStealProtocol\b", open(path, encoding="utf-8", errors="replace").read()):
                declared = True
        if not declared:
            found.append(f"{declaredIn}: does not drive the shared comm::StealProtocol (comm/steal_protocol.hpp)")
        if not any(re.search(r"\bcommTurn\s*\(", open(p, encoding="utf-8", errors="replace").read()) for p, _ in files):
            found.append(f"{where}: does not run the shared turn (comm::commTurn, comm/comm_turn.hpp)")
        for path, rel in files:
            with open(path, encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    code = line.split("//", 1)[0]
                    m = PROTOCOL_RULE.search(code)
                    if m:
                        found.append(f"{rel}:{lineno}: {m.group(0)} is the steal protocol's (comm/steal_protocol.hpp), "
                                     "not a transport's")
    for path, rel in sources(root, "comm"):
        if not rel.replace(os.sep, "/").split("include/", 1)[-1].startswith(COMM_CORE):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m and (m.group(1).startswith(MPI) or
                          (m.group(1).startswith("jackdaw/comm/") and not m.group(1).startswith(COMM_CORE))):
                    found.append(f"{rel}:{lineno}: an MPI-free comm header must not include {m.group(1)}")
    for layer in ("sim", "apps"):
        for rel, lineno, code in code_lines(root, layer):
            if m := WRITTEN_ONCE.search(code):
                found.append(f"{rel}:{lineno}: {layer}/ writes {m.group(0).strip()}...: written once in comm "
                             "(comm/report_sections.hpp, comm/policies/board_view.hpp)")
    for rel, lineno, code in code_lines(root, "apps"):
        if m := MPI_CALL.search(code):
            found.append(f"{rel}:{lineno}: apps/ calls {m.group(0).rstrip('( ')}; it reaches other ranks only "
                         "through comm's collectives (comm/collectives.hpp)")
    return found


def code_lines(root, layer):
    """(file, line number, the line without its // comment) for every source line of a layer."""
    for path, rel in sources(root, layer):
        with open(path, encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                yield rel, lineno, line.split("//", 1)[0]


def sources(root, layer):
    for dirpath, _, files in os.walk(os.path.join(root, layer)):
        for name in sorted(files):
            if name.endswith(SOURCES):
                path = os.path.join(dirpath, name)
                yield path, os.path.relpath(path, root)


def self_test():
    planted = {
        "core/include/jackdaw/core/a.hpp": '#include "jackdaw/comm/board.hpp"\n',
        "core/include/jackdaw/core/b.hpp": "#include <mpi.h>\n",
        "skeletons/include/jackdaw/skeletons/c.hpp": "#include <cereal/archives/binary.hpp>\n",
        "skeletons/include/jackdaw/skeletons/d.hpp": '  #  include "jackdaw/distributed/launch.hpp"\n',
        "skeletons/include/jackdaw/skeletons/e.hpp": "#include <nlohmann/json.hpp>\n",
        "comm/src/f.cpp": '#include "jackdaw/skeletons/seq.hpp"\n',
        "comm/include/jackdaw/comm/g.hpp": '#include "jackdaw/app/run.hpp"\n',
        "distributed/include/jackdaw/distributed/h.hpp": '#include "jackdaw/maxclique/model.hpp"\n',
        "sim/src/i.cpp": '#include "jackdaw/comm/session.hpp"\n',
        "sim/src/j.cpp": "#include <mpi.h>\n",
        "sim/src/k.cpp": "struct MyRandom final : public comm::VictimPolicy {\n  int choose() override;\n};\n",
        "trace/src/l.cpp": '#include "jackdaw/core/model.hpp"\n',
        "comm/include/jackdaw/comm/policies/m.hpp": '#include "jackdaw/comm/board.hpp"\n',
        "sim/src/n.cpp": "comm::StealProtocol p;\nif (comm::holdSeedRequest(a, b, c, d)) hold();\n",
        "sim/src/n2.cpp": "auto s = protocol_->afterTurn(active, idle, false);\n",
        "comm/src/comm_thread.cpp": "StealProtocol p;\nconst int v = policy_.choose();\n",
        "apps/common/src/o.cpp": "  if (size > 1) MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_MAX, world);\n",
        "apps/maxclique/p.cpp": "MPI_Barrier (MPI_COMM_WORLD);\n",
        "sim/src/q.cpp": 'out["distributed"] = {{"herding", comm::herding(comms)}};\n',
        "sim/src/r.cpp": 'line.push_back({{"rank", r}, {"steals_failed", s.stealsRefused}});\n',
        "apps/common/src/s.cpp": "Candidates candidates(int self, int size) override { return pick(self, size); }\n",
    }
    clean = {
        "core/include/jackdaw/core/ok.hpp": "#include <atomic>\n#include \"jackdaw/core/model.hpp\"\n",
        "skeletons/include/jackdaw/skeletons/ok.hpp": '#include "jackdaw/core/model.hpp"\n',
        "comm/src/ok.cpp": "#include <mpi.h>\n#include <nlohmann/json.hpp>\n#include \"jackdaw/comm/board.hpp\"\n",
        "distributed/include/jackdaw/distributed/ok.hpp": '#include "jackdaw/comm/session.hpp"\n'
                                                          '#include "jackdaw/skeletons/budget.hpp"\n',
        "sim/src/ok.cpp": '#include <nlohmann/json.hpp>\n#include "jackdaw/comm/policies/random.hpp"\n'
                          '#include "jackdaw/trace/trace.hpp"\nclass View final : public comm::BoardView {};\n',
        "comm/include/jackdaw/comm/policies/ok.hpp": '#include "jackdaw/comm/policy.hpp"\n',
        "comm/include/jackdaw/comm/comm_thread.hpp": "std::unique_ptr<StealProtocol> protocol_;\n",
        "sim/src/turn.cpp": "const comm::TurnEnd end = comm::commTurn(*protocol_, *this, work_, nowNs());\n",
        "apps/common/src/ok.cpp": "// after MPI_Init (a comment)\nMPI_Comm world = MPI_COMM_WORLD;\n"
                                  "const bool any = comm::anyRank(world, stop.requested());\n",
        "sim/src/ok2.cpp": 'out["distributed"] = comm::distributedSection(policy, lines);\n'
                           'const auto failed = tot["steals_failed"].get<std::uint64_t>();  // herding(x)\n',
    }
    with tempfile.TemporaryDirectory() as root:
        for files in (planted, clean):
            for rel, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w") as f:
                    f.write(text)
        found = violations(root)
    caught = {v.split(":")[0] for v in found}
    missed = sorted(set(planted) - caught)
    wrong = sorted(caught - set(planted))
    for m in missed:
        print(f"self-test: planted violation not caught: {m}")
    for w in wrong:
        print(f"self-test: clean file reported: {w}")
    ok = not missed and not wrong
    print(f"{len(planted) - len(missed)} passed, {len(missed) + len(wrong)} failed")
    return 0 if ok else 1


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    found = violations(sys.argv[1])
    for v in found:
        print(v)
    layers = list(RULES) + list(MPI_FREE) + ["apps"]
    files = sum(len(fs) for layer in layers for _, _, fs in os.walk(os.path.join(sys.argv[1], layer)))
    print(f"include graph: {files} files in {', '.join(layers)}; {len(found)} violations")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
