#include "jackdaw/app/finish.hpp"

#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "jackdaw/app/feature_states.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/app/trace_file.hpp"

namespace jackdaw::app {

std::string summaryText(const SearchStats& stats, double seconds, StopReason stop) {
  const double rate = seconds > 0 ? static_cast<double>(stats.nodes) / seconds : 0.0;
  char time[64], perSecond[64];
  std::snprintf(time, sizeof time, "%.6f", seconds);
  std::snprintf(perSecond, sizeof perSecond, "%.3g", rate);
  return "status: " + toString(stop) + "\n" +           //
         "nodes: " + std::to_string(stats.nodes) + "\n" +  //
         "time: " + time + " s\n" +                       //
         "rate: " + perSecond + " nodes/s\n";
}

int finish(AppContext& ctx, const SearchStats& stats, double seconds, StopReason stop, const Answer& answer) {
  nlohmann::json doc = runJson(ctx, stats, seconds, stop);
  doc["app"] = ctx.name;
  if (!answer.fields.is_object()) throw std::logic_error("finish: the app's --stats fields must be a JSON object");
  for (const auto& [key, value] : answer.fields.items()) {
    if (doc.contains(key) || key == "result" || key == "partial_result" || key == "partial")
      throw std::logic_error("finish: the app's --stats field '" + key + "' would replace a common one");
    doc[key] = value;
  }
  const bool complete = stop == StopReason::None || stop == StopReason::Found;
  const int code = answer.exitCode.value_or(complete ? kSuccess : kPartial);
  // A partial run's result is what was found so far, never the answer: it goes under a name no
  // reader of "result" can take for one, and its lines come after a line that says so.
  const bool partial = !complete && code != kSuccess;
  doc["partial"] = partial;
  doc[partial ? "partial_result" : "result"] = answer.result;
  print(ctx, (partial ? std::string(kPartialHeader) + "\n" : std::string()) + answer.text + summaryText(stats, seconds, stop));
  if (TraceRecorder* trace = ctx.features->trace.recorder.get()) trace->write(ctx, answer.result, stats, seconds, stop);
  writeStats(ctx, doc);
  return code;
}

}  // namespace jackdaw::app
