#include "jackdaw/comm/gather.hpp"

#include <string>

namespace jackdaw::comm {

std::vector<std::vector<std::byte>> gatherBlobs(MPI_Comm comm, std::span<const std::byte> mine) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(rank == 0 ? size : 0), displs(rank == 0 ? size : 0);
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm);
  std::vector<std::byte> all;
  if (rank == 0) {
    int total = 0;
    for (int r = 0; r < size; ++r) {
      displs[r] = total;
      total += lens[r];
    }
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(mine.data(), len, MPI_BYTE, all.data(), lens.data(), displs.data(), MPI_BYTE, 0, comm);
  std::vector<std::vector<std::byte>> out;
  for (int r = 0; rank == 0 && r < size; ++r)
    out.emplace_back(all.begin() + displs[r], all.begin() + displs[r] + lens[r]);
  return out;
}

nlohmann::json toJson(const CommStats& s) {
  return {{"steal_requests_sent", s.stealRequestsSent},
          {"steals_granted", s.stealsGranted},
          {"steals_refused", s.stealsRefused},
          {"requests_answered", s.requestsAnswered},
          {"requests_granted", s.requestsGranted},
          {"tasks_sent", s.tasksSent},
          {"tasks_received", s.tasksReceived},
          {"bytes_sent", s.bytesSent},
          {"bytes_received", s.bytesReceived},
          {"board_publishes", s.boardPublishes},
          {"bound_publishes", s.boundPublishes},
          {"stop_publishes", s.stopPublishes},
          {"termination_waves", s.waves},
          {"steal_round_trip_us_mean",
           (s.stealsGranted + s.stealsRefused) ? s.stealRoundTripUsTotal / double(s.stealsGranted + s.stealsRefused) : 0.0},
          {"comm_cpu_seconds", s.commCpuSeconds},
          {"comm_wall_seconds", s.commWallSeconds},
          {"latency_us", s.latencyUs}};
}

nlohmann::json gatherStats(MPI_Comm comm, const CommStats& mine) {
  const std::string text = toJson(mine).dump();
  auto blobs = gatherBlobs(comm, std::as_bytes(std::span(text)));
  if (blobs.empty()) return {};
  nlohmann::json ranks = nlohmann::json::array(), totals = nlohmann::json::object();
  for (const auto& b : blobs) {
    auto j = nlohmann::json::parse(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
    for (auto& [k, v] : j.items()) {
      if (k == "latency_us" || k == "steal_round_trip_us_mean") continue;  // not additive
      totals[k] = totals.value(k, 0.0) + v.get<double>();
    }
    ranks.push_back(std::move(j));
  }
  return {{"ranks", ranks}, {"totals", totals}};
}

}  // namespace jackdaw::comm
