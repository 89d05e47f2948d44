// Writes a task tree as a trace file with Jackdaw::trace alone, reads it back and checks it: the
// same records and header, the totals, the critical path of the tree (worked out by hand below),
// and a file cut short refused with TraceError.
//
//   trace_only FILE     prints "ok: ..." and exits 0, or says what differs and exits 1
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <string>

#include "jackdaw/trace/trace.hpp"

namespace tr = jackdaw::trace;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: trace_only FILE\n";
    return 2;
  }
  const std::string path = argv[1];
  // A root of 100 nodes (1,000 ns) spawning task 1 after 40 nodes and task 2 after 80; task 1 (50
  // nodes, 500 ns) spawns task 3 after 10. Critical path: task 1 starts at 400 ns, task 3 at
  // 400 + 100 = 500 ns and ends at 500 + 2,000 = 2,500 ns; the root ends at 1,000, task 2 at
  // 800 + 300 = 1,100, task 1 at 900.
  tr::Trace t;
  t.header = {{"app", "trace_only"}, {"kind", "enumeration"}, {"workers", 1}};
  t.tasks = {{tr::kNoParent, 0, 100, 1000, 0, 16},
             {0, 40, 50, 500, 1, 16},
             {0, 80, 30, 300, 1, 16},
             {1, 10, 200, 2000, 2, 24}};
  tr::write(path, t);
  const tr::Trace back = tr::read(path);
  bool same = back.tasks.size() == t.tasks.size() && back.header.at("app") == "trace_only";
  for (std::size_t i = 0; same && i < t.tasks.size(); ++i) {
    const auto &a = t.tasks[i], &b = back.tasks[i];
    same = a.parent == b.parent && a.afterNodes == b.afterNodes && a.nodes == b.nodes && a.cpuNs == b.cpuNs &&
           a.depth == b.depth && a.bytes == b.bytes;
  }
  if (!same) {
    std::cerr << "trace_only: the trace read back differs from the one written\n";
    return 1;
  }
  if (back.totalNodes() != 380 || back.totalCpuNs() != 3800 || back.criticalPathNs() != 2500) {
    std::cerr << "trace_only: totals " << back.totalNodes() << " nodes, " << back.totalCpuNs()
              << " ns, critical path " << back.criticalPathNs() << " ns (expected 380, 3800, 2500)\n";
    return 1;
  }
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  try {
    tr::read(path);
    std::cerr << "trace_only: a file cut in half was read as a trace\n";
    return 1;
  } catch (const tr::TraceError& e) {
    std::cout << "ok: 4 tasks written and read back, 380 nodes, critical path 2500 ns; cut short: " << e.what() << "\n";
  }
  return 0;
}
