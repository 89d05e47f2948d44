// One rank's saved search, as a checkpoint keeps it: its share of the result so far (enumerator,
// incumbent, counters) and its unexplored tasks, in the wire format the steals use.
//
//   std::vector<std::byte> b = encodeSaved(SavedWork<Result, TaskT>{share, tasks});
//   auto w = decodeSaved<Result, TaskT>(b);      // InputError if the bytes are not such a record
//
// Any number of saved records can be continued by any number of ranks: shares add up
// (addShare) and tasks are just tasks, so a checkpoint written by P ranks resumes on P' ranks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "jackdaw/comm/wire.hpp"
#include "jackdaw/core/errors.hpp"

namespace jackdaw::distributed {

// Writes or reads a result's share (everything but its seconds) through an archive.
template <class Archive, class Result>
void transferShare(Archive& ar, Result& result) {
  using comm::wire::transfer;
  transfer(ar, result.enumerator);
  bool has = result.best.has_value() && result.objective.has_value();
  ar(has);
  if (has) {
    if (!result.best) result.best.emplace();  // reading
    if (!result.objective) result.objective.emplace();
    transfer(ar, *result.objective);
    transfer(ar, *result.best);
  }
  transfer(ar, result.stats);
  transfer(ar, result.stop);
}

// Adds `from` to `into`: enumerators combine, counters add, the better incumbent stays, the
// higher stop reason stands.
template <class Better, class Result>
void addShare(Result& into, Result&& from) {
  into.enumerator.combine(from.enumerator);
  if (from.best && from.objective && (!into.objective || Better{}(*from.objective, *into.objective))) {
    into.objective = from.objective;
    into.best = std::move(from.best);
  }
  into.stats += from.stats;
  if (from.stop > into.stop) into.stop = from.stop;
}

template <class Result, class TaskT>
struct SavedWork {
  static constexpr std::uint32_t kMagic = 0x4a44534b;  // "JDSK"
  Result share;
  std::vector<TaskT> tasks;

  template <class Archive>
  void serialize(Archive& ar) {
    std::uint32_t magic = kMagic;
    ar(magic);
    if (magic != kMagic) throw InputError("not a saved search record");
    transferShare(ar, share);
    std::uint64_t n = tasks.size();
    ar(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      if (i >= tasks.size()) tasks.emplace_back();  // reading: grow as records arrive, never by a count
      auto& t = tasks[i];
      comm::wire::transfer(ar, t.node);
      ar(t.depth, t.priority);
      if (t.depth < 0) throw InputError("saved task with a negative depth");
    }
  }
};

template <class Result, class TaskT>
std::vector<std::byte> encodeSaved(const SavedWork<Result, TaskT>& w) {
  std::vector<std::byte> out;
  comm::wire::Writer writer(out);
  writer(w);
  return out;
}

// The whole record or an InputError: trailing bytes, a short record or a wrong magic all count.
template <class Result, class TaskT>
SavedWork<Result, TaskT> decodeSaved(std::span<const std::byte> bytes) {
  SavedWork<Result, TaskT> w;
  try {
    comm::wire::Reader r(bytes);
    r(w);
    if (!r.atEnd()) throw InputError("trailing bytes after the saved search");
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(std::string("saved search unreadable: ") + e.what());
  }
  return w;
}

}  // namespace jackdaw::distributed
