#include "jackdaw/comm/collectives.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace jackdaw::comm {

namespace {
// Point-to-point tags of streamToRoot and rootClockNow. They run between sessions, when no comm
// thread is listening, and are apart from its tags (comm_thread.cpp) anyway.
constexpr int kTagLength = 71, kTagChunk = 72, kTagClock = 73;
constexpr std::size_t kChunk = std::size_t{1} << 30;  // MPI counts are ints: big texts go in pieces
constexpr std::size_t kClockIdBytes = 96;

// Which CLOCK_MONOTONIC this process reads: its kernel's boot and its time namespace ("" if
// unknown, which never counts as shared; also under JACKDAW_TEST_CLOCK_PINGPONG, so that one
// machine's tests reach the ping-pong that ranks on other hosts use).
std::string clockIdentity() {
  if (std::getenv("JACKDAW_TEST_CLOCK_PINGPONG")) return "";  // TEST ONLY: as if on another host
  std::ifstream f("/proc/sys/kernel/random/boot_id");
  std::string boot;
  if (!std::getline(f, boot) || boot.empty()) return "";
  char ns[64] = {};
  const ssize_t n = ::readlink("/proc/self/ns/time", ns, sizeof ns - 1);
  return (boot + "/" + (n > 0 ? std::string(ns, static_cast<std::size_t>(n)) : std::string())).substr(0, kClockIdBytes - 1);
}

int rankOf(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

int sizeOf(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}
}  // namespace

std::vector<std::vector<std::byte>> gatherBlobs(MPI_Comm comm, std::span<const std::byte> mine) {
  const int rank = rankOf(comm), size = sizeOf(comm);
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

std::vector<double> gatherDoubles(MPI_Comm comm, std::span<const double> mine) {
  const int n = static_cast<int>(mine.size());
  std::vector<double> all(rankOf(comm) == 0 ? mine.size() * static_cast<std::size_t>(sizeOf(comm)) : 0);
  MPI_Gather(mine.data(), n, MPI_DOUBLE, all.data(), n, MPI_DOUBLE, 0, comm);
  return all;
}

void streamToRoot(MPI_Comm comm, std::string_view mine, const std::function<void(int, std::string_view)>& take) {
  if (rankOf(comm) != 0) {
    const std::uint64_t n = mine.size();
    MPI_Send(&n, 1, MPI_UINT64_T, 0, kTagLength, comm);
    for (std::size_t at = 0; at < mine.size(); at += kChunk)
      MPI_Send(mine.data() + at, static_cast<int>(std::min(kChunk, mine.size() - at)), MPI_CHAR, 0, kTagChunk, comm);
    return;
  }
  take(0, mine);
  const int size = sizeOf(comm);
  for (int from = 1; from < size; ++from) {
    std::uint64_t n = 0;
    MPI_Recv(&n, 1, MPI_UINT64_T, from, kTagLength, comm, MPI_STATUS_IGNORE);
    std::string part(n, '\0');
    for (std::size_t at = 0; at < part.size(); at += kChunk)
      MPI_Recv(part.data() + at, static_cast<int>(std::min<std::size_t>(kChunk, part.size() - at)), MPI_CHAR, from,
               kTagChunk, comm, MPI_STATUS_IGNORE);
    take(from, part);
  }
}

std::uint64_t broadcastFromRoot(MPI_Comm comm, std::uint64_t value) {
  MPI_Bcast(&value, 1, MPI_UINT64_T, 0, comm);
  return value;
}

bool anyRank(MPI_Comm comm, bool mine) {
  int in = mine ? 1 : 0, any = 0;
  MPI_Allreduce(&in, &any, 1, MPI_INT, MPI_MAX, comm);
  return any != 0;
}

std::optional<RankValue> lowestRankWith(MPI_Comm comm, bool has, int value) {
  const int size = sizeOf(comm);
  // MINLOC over (rank, value) pairs: a rank without sends `size`, above every real rank.
  int mine[2] = {has ? rankOf(comm) : size, has ? value : 0}, lowest[2] = {mine[0], mine[1]};
  MPI_Allreduce(mine, lowest, 1, MPI_2INT, MPI_MINLOC, comm);
  if (lowest[0] == size) return std::nullopt;
  return RankValue{lowest[0], lowest[1]};
}

RootClock rootClockNow(MPI_Comm comm, int rounds) {
  using Clock = std::chrono::steady_clock;
  const auto ns = [](Clock::duration d) { return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count(); };
  MPI_Barrier(comm);
  const int size = sizeOf(comm), rank = rankOf(comm);
  // Rank 0's now and its clock's identity; every rank says whether it shares that clock.
  struct {
    std::int64_t nowNs = 0;
    char clock[kClockIdBytes] = {};
  } root;
  const auto now = Clock::now();
  const std::string mine = clockIdentity();
  if (rank == 0) {
    root.nowNs = ns(now.time_since_epoch());
    mine.copy(root.clock, sizeof root.clock - 1);
  }
  MPI_Bcast(&root, sizeof root, MPI_BYTE, 0, comm);
  const int shares = rank == 0 || (!mine.empty() && mine == std::string(root.clock));
  std::vector<int> sharing(rank == 0 ? size : 0);
  MPI_Gather(&shares, 1, MPI_INT, sharing.data(), 1, MPI_INT, 0, comm);
  if (rank == 0) {
    for (int r = 1; r < size; ++r)
      for (int k = 0; k < rounds && !sharing[static_cast<std::size_t>(r)]; ++k) {
        MPI_Recv(nullptr, 0, MPI_BYTE, r, kTagClock, comm, MPI_STATUS_IGNORE);
        const std::int64_t t = ns(Clock::now() - now);
        MPI_Send(&t, 1, MPI_INT64_T, r, kTagClock, comm);
      }
    return {now, 0};
  }
  if (shares) return {Clock::time_point(std::chrono::duration_cast<Clock::duration>(std::chrono::nanoseconds(root.nowNs))), 0};
  std::int64_t bestRtt = INT64_MAX;
  Clock::time_point rootNow = Clock::now();
  for (int k = 0; k < rounds; ++k) {
    std::int64_t t0 = 0;
    const auto a = Clock::now();
    MPI_Send(nullptr, 0, MPI_BYTE, 0, kTagClock, comm);
    MPI_Recv(&t0, 1, MPI_INT64_T, 0, kTagClock, comm, MPI_STATUS_IGNORE);
    const auto b = Clock::now();
    if (ns(b - a) < bestRtt) {
      bestRtt = ns(b - a);
      rootNow = a + (b - a) / 2 - std::chrono::duration_cast<Clock::duration>(std::chrono::nanoseconds(t0));
    }
  }
  return {rootNow, (bestRtt + 1) / 2};
}

}  // namespace jackdaw::comm
