// What the app frame's features keep across a run (run_feature.hpp), one state each, declared
// beside its feature; AppContext::features holds them. The frame's own code includes this header,
// and so does an app that needs a feature's state (run.hpp includes it: an app running its own
// sequential search hands it ctx.features->progress.live).
#pragma once

#include "jackdaw/app/checkpoint.hpp"
#include "jackdaw/app/grain_check.hpp"
#include "jackdaw/app/progress.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/app/trace_file.hpp"

namespace jackdaw::app {

struct FeatureStates {
  CheckpointState checkpoint;  // --checkpoint, --resume (CheckpointLegs)
  StatsState stats;            // --stats "workers", "distributed", the last run (RunStats)
  GrainState grain;            // --stats "grain" (GrainCheck)
  TraceState trace;            // --trace (TraceRun)
  ProgressState progress;      // --progress (ProgressRun)
};

}  // namespace jackdaw::app
