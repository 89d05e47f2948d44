// Collectives over the ranks of one communicator, named for what they do: the whole of what the
// app layer (apps/common) asks of MPI, and the gather Session::gather uses. Every rank of comm
// calls each one, in the same order; where there is a root, it is rank 0. They need MPI started:
// a lone process without a launcher (no MPI) does the one-rank answer itself.
//
//   auto blobs = gatherBlobs(MPI_COMM_WORLD, myBytes);   // rank 0: one blob per rank; others: {}
//   if (anyRank(MPI_COMM_WORLD, stop.requested())) ...   // the same answer on every rank
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace jackdaw::comm {

// One byte record per rank to rank 0: rank 0 gets every rank's, in rank order; the others get {}.
std::vector<std::vector<std::byte>> gatherBlobs(MPI_Comm comm, std::span<const std::byte> mine);

// The same number of doubles from every rank to rank 0: rank 0 gets them rank after rank (size ×
// mine.size()); the others get {}.
std::vector<double> gatherDoubles(MPI_Comm comm, std::span<const double> mine);

// Every rank's text to rank 0, one rank at a time: on rank 0, take(r, text) runs for r = 0, 1, …
// in order, so rank 0 holds at most one other rank's text at once (a timeline's part may be
// gigabytes). Any length: long texts travel in pieces.
void streamToRoot(MPI_Comm comm, std::string_view mine, const std::function<void(int, std::string_view)>& take);

// Rank 0's value, on every rank.
std::uint64_t broadcastFromRoot(MPI_Comm comm, std::uint64_t value);

// Whether `mine` is true on any rank; the same answer on every rank.
bool anyRank(MPI_Comm comm, bool mine);

// The lowest rank that passed `has` true, and the value it passed with it; nullopt when none did.
struct RankValue {
  int rank = 0;
  int value = 0;
};
std::optional<RankValue> lowestRankWith(MPI_Comm comm, bool has, int value);

// Rank 0's "now" on this rank's steady clock, and how far off it may be.
struct RootClock {
  std::chrono::steady_clock::time_point now;
  std::int64_t errorNs = 0;  // 0: the same clock as rank 0's
};
// After a barrier rank 0 takes its now. A rank under the same kernel clock (the same boot id and
// time namespace: one CLOCK_MONOTONIC, which steady_clock reads) takes it as it is. Any other asks
// rank 0 the time `rounds` times and, from the shortest round trip, takes the reply as read at its
// midpoint (Cristian's method; error: at most half that round trip). A barrier alone was not
// enough: ranks left one up to 8 ms apart on an oversubscribed node; the ping-pongs alone were
// 1 ms off there beside a CPU-bound process.
RootClock rootClockNow(MPI_Comm comm, int rounds = 8);

}  // namespace jackdaw::comm
