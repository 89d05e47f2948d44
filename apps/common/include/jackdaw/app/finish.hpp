// The end of every app's body: the app's answer, then the summary every app prints the same way,
// then --stats, then the exit code.
//
//   auto r = app::runSearch<Model, Kind>(ctx, space, root, params);
//   app::Answer a;
//   a.line("solutions", r.enumerator.get());     // "solutions: 92"
//   a.result["solutions"] = r.enumerator.get();  // --stats "result"
//   a.fields["n"] = n;                           // more top-level --stats fields (the instance, …)
//   return app::finish(ctx, r, a);
//
// On the reporting rank stdout then reads: the app's lines, in the order given, and
//
//   status: complete            complete | found | interrupted | failed (--stats "status")
//   nodes: 1965                 search nodes, every worker and rank
//   time: 0.004127 s            search seconds (every leg of a resumed search)
//   rate: 4.76e+05 nodes/s      nodes / time
//
// Keys are lower-case words followed by ": ". The frame adds the checkpoint line, if any.
//
// A partial run (interrupted, and the app did not set exitCode = kSuccess) is marked by the frame,
// so that no app can report a best-so-far as the answer: stdout starts with kPartialHeader before
// the app's lines and ends with "PARTIAL RESULT: …"; --stats holds "partial": true and the app's
// result under "partial_result" instead of "result" (a reader of "result" finds none).
#pragma once

#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "jackdaw/app/context.hpp"
#include "jackdaw/core/stats.hpp"
#include "jackdaw/core/stop.hpp"

namespace jackdaw::app {

// The first line a partial run prints, before the app's lines.
inline constexpr std::string_view kPartialHeader =
    "PARTIAL RESULT (interrupted): the lines below, up to status, are what the search had found when it stopped, "
    "not the answer";

// What an app reports of its search.
struct Answer {
  std::string text;                                  // the app's lines, each ending in '\n'
  nlohmann::json result = nlohmann::json::object();  // --stats "result" (partial run: "partial_result"): the answer
  nlohmann::json fields = nlohmann::json::object();  // more top-level --stats fields (not the common ones)
  std::optional<int> exitCode;                       // unset: kSuccess if the search is complete, else kPartial

  // Adds the line "key: value".
  template <class T>
  Answer& line(std::string_view key, const T& value) {
    std::ostringstream s;
    s << key << ": " << value << "\n";
    text += s.str();
    return *this;
  }
  // Adds a line as it is (e.g. "SAT", "a -> b").
  Answer& line(std::string_view whole) {
    text.append(whole).push_back('\n');
    return *this;
  }
};

// The common lines (status, nodes, time, rate), each ending in '\n'.
std::string summaryText(const SearchStats& stats, double seconds, StopReason stop);

// Prints the answer and the common lines (reporting rank only), writes --stats (the common
// document of runJson, "app", the app's fields and "result") and returns the exit code. An app
// field named like a common one is a programming error (std::logic_error).
int finish(AppContext& ctx, const SearchStats& stats, double seconds, StopReason stop, const Answer& answer);

// The same for a search result (anything with .stats, .seconds, .stop and .complete()).
template <class R>
  requires requires(const R& r) {
    r.stats;
    r.seconds;
    r.stop;
    r.complete();
  }
int finish(AppContext& ctx, const R& r, const Answer& answer) {
  return finish(ctx, r.stats, r.seconds, r.stop, answer);
}

}  // namespace jackdaw::app
