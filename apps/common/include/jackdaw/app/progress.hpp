// --progress S: while in scope, logs a line every S seconds with the nodes searched so far and
// the rate over the last interval, and the incumbent: an optimisation's best so far ("no incumbent
// yet" before one; on several ranks the best this rank knows of, which includes the bounds the
// others sent, then what it found itself), a decision's "none found yet". On several ranks each rank logs its own line (the logger
// names the rank), so a slow or starved rank shows in the job log.
//
//   jackdaw::app::ProgressLog progress(ctx);              // no thread when --progress is 0
//   seq::search<M, K>(space, root, params, ctx.stop, &ctx.features->progress.live);  // feature_states.hpp
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "jackdaw/app/context.hpp"
#include "jackdaw/app/run_feature.hpp"
#include "jackdaw/core/live_nodes.hpp"

namespace jackdaw::app {

// What --progress keeps across a run, in AppContext::features (feature_states.hpp): the nodes
// and incumbent of the running search, which the search writes and ProgressLog reads.
struct ProgressState {
  LiveNodes live;
};

class ProgressLog {
 public:
  explicit ProgressLog(AppContext& ctx);
  ~ProgressLog();
  ProgressLog(const ProgressLog&) = delete;
  ProgressLog& operator=(const ProgressLog&) = delete;

 private:
  void loop();
  std::string incumbent() const;

  AppContext& ctx_;
  std::chrono::duration<double> every_;
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// The frame's --progress (run_feature.hpp): the lines start with the search, once every rank is
// set up, and end when runSearch returns.
class ProgressRun final : public RunFeature {
 public:
  explicit ProgressRun(AppContext& ctx) : ctx_(ctx) {}
  void searching() override { log_.emplace(ctx_); }

 private:
  AppContext& ctx_;
  std::optional<ProgressLog> log_;
};

}  // namespace jackdaw::app
