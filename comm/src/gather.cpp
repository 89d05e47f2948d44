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

}  // namespace jackdaw::comm
