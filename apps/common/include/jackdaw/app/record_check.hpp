// A resumed checkpoint's records, checked beyond their checksums before any rank continues them.
// A SHA-1 in the manifest only says the record is the one the manifest names; whoever can write
// the folder can recompute it. So each record is also checked for what a search could have saved:
//
//   - its task count and its share's node count are the ones its manifest entry holds (the
//     manifest's own totals were checked against each other when it was read, checkpoint_read.cpp);
//   - its share's partial results agree with its node count, if the enumerator can say
//     (ChecksCounts, core/model.hpp): a count changed alone is refused;
//   - every task lies within the depth limit and, if the model can say (ChecksNodes), holds a node
//     that a search of this instance produces at that depth; so does the saved incumbent, whose
//     objective must be its node's.
//
// What is left undetected: a record and its manifest rewritten together so that every count
// still agrees and every node is a real one (e.g. partial counts moved from one genus to another,
// the same task saved twice with the counts raised to match). No key kept beside the folder
// would help against a user who can read it; docs/checkpoint.md says so.
#pragma once

#include <string>

#include "jackdaw/app/checkpoint.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/model.hpp"
#include "jackdaw/core/result.hpp"
#include "jackdaw/distributed/saved_work.hpp"
#include "jackdaw/skeletons/detail/parallel_search.hpp"

namespace jackdaw::app {

template <SearchModel M, SearchKind K>
using SavedRecord = distributed::SavedWork<SearchResult<M, K>, jackdaw::detail::Task<typename M::Node>>;

// Throws InputError naming the record's file and the first fault found.
template <SearchModel M, SearchKind K>
void checkSavedRecord(const typename M::Space& space, const typename SearchTypes<M, K>::Params& params,
                      const SavedRecord<M, K>& w, const RecordFacts& facts) {
  const std::string& at = facts.path;
  const auto& share = w.share;
  if (w.tasks.size() != facts.tasks)
    throw InputError(at + ": holds " + std::to_string(w.tasks.size()) + " tasks, the manifest says " + std::to_string(facts.tasks));
  if (share.stats.nodes != facts.nodes)
    throw InputError(at + ": its share counted " + std::to_string(share.stats.nodes) + " nodes, the manifest says " +
                     std::to_string(facts.nodes));
  if constexpr (isEnumeration<K>) {
    if constexpr (ChecksCounts<typename SearchTypes<M, K>::Enum>)
      if (!share.enumerator.consistentWith(share.stats))
        throw InputError(at + ": its partial counts cannot come from the " + std::to_string(share.stats.nodes) +
                         " nodes it says it visited (altered)");
  }
  if constexpr (usesIncumbent<K>) {
    if (share.best && share.objective) {
      if (!(share.best->getObj() == *share.objective))
        throw InputError(at + ": the saved incumbent's objective is not its node's (altered)");
      if constexpr (ChecksNodes<M>)
        if (!M::valid(space, *share.best, -1))
          throw InputError(at + ": the saved incumbent is not a node of this instance's search (altered)");
    }
  }
  for (std::size_t i = 0; i < w.tasks.size(); ++i) {
    const auto& t = w.tasks[i];
    const std::string task = "task " + std::to_string(i) + " (depth " + std::to_string(t.depth) + ")";
    if (params.maxDepth >= 0 && t.depth > params.maxDepth)
      throw InputError(at + ": " + task + " lies below the depth limit " + std::to_string(params.maxDepth) + " (altered)");
    if constexpr (ChecksNodes<M>)
      if (!M::valid(space, t.node, t.depth))
        throw InputError(at + ": " + task + " holds a node no search of this instance produces there (altered)");
  }
}

}  // namespace jackdaw::app
