#include "jackdaw/app/progress.hpp"

#include <fmt/format.h>
#include <spdlog/logger.h>

#include <string>

#include "jackdaw/app/feature_states.hpp"

namespace jackdaw::app {

ProgressLog::ProgressLog(AppContext& ctx) : ctx_(ctx), every_(ctx.opts.progressSeconds) {
  if (ctx.opts.progressSeconds > 0) thread_ = std::thread([this] { loop(); });
}

ProgressLog::~ProgressLog() {
  {
    std::lock_guard lock(m_);
    done_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

// ", incumbent 21" (optimisation; on several ranks also what this rank found itself, since the
// incumbent includes the bounds other ranks sent), ", none found yet" (decision), or nothing.
std::string ProgressLog::incumbent() const {
  const auto inc = ctx_.features->progress.live.incumbent();
  if (!inc) return "";
  if (inc->decision) return inc->foundHere ? ", found" : ", none found yet";
  if (!inc->best) return ", no incumbent yet";
  std::string s = fmt::format(", incumbent {:g}", *inc->best);
  if (ctx_.size > 1) s += inc->foundHere ? fmt::format(" (this rank found {:g})", *inc->foundHere) : " (this rank found none)";
  return s;
}

void ProgressLog::loop() {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto last = start;
  std::uint64_t lastNodes = ctx_.features->progress.live.nodes();
  std::unique_lock lock(m_);
  // The next line is due `every_` after the previous one; a late wake-up does not shift the rest.
  auto due = start + std::chrono::duration_cast<Clock::duration>(every_);
  while (!cv_.wait_until(lock, due, [this] { return done_; })) {
    const auto now = Clock::now();
    const std::uint64_t nodes = ctx_.features->progress.live.nodes();
    const double interval = std::chrono::duration<double>(now - last).count();
    const double rate = interval > 0 ? static_cast<double>(nodes - lastNodes) / interval : 0.0;
    ctx_.log->info("progress: {:.2f} s, {} nodes, {:.3g} nodes/s over the last {:.2f} s{}",
                   std::chrono::duration<double>(now - start).count(), nodes, rate, interval, incumbent());
    last = now;
    lastNodes = nodes;
    due += std::chrono::duration_cast<Clock::duration>(every_);
    if (due < now) due = now + std::chrono::duration_cast<Clock::duration>(every_);
  }
}

}  // namespace jackdaw::app
