// Per-worker busy/idle accounting and work rate (docs/policies.md, formula 3.1).
//
// A worker's life is a cycle idle → working → idle; a cycle ends when a task ends. Only the owning
// worker calls startWork/endWork; any thread may read workRate() (one relaxed atomic load).
//
//   jackdaw::WorkerAccount acc;            // rate 1.0, last idle/work times 1 µs
//   acc.startWork(t0_us);  ...run a task...  acc.endWork(t1_us);
//   double r = acc.workRate();
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>

namespace jackdaw {

// The constants of (3.1); the apps expose them as --rate-weight-new/--rate-weight-old/--rate-log-offset.
struct WorkRateParams {
  double weightNew = 0.65;  // weight of the newest cycle
  double weightOld = 0.35;  // weight of the previous rate
  double logBase = 2.72;    // added inside both logarithms
};

// (3.1): the rate after a cycle that worked `workUs` and idled `idleUs` microseconds.
inline double nextWorkRate(double previous, double workUs, double idleUs, const WorkRateParams& p = {}) {
  const double total = workUs + idleUs;
  const double share = total > 0 ? workUs / total : 0.0;
  return p.weightNew * std::log(p.logBase + share) * std::log(p.logBase + total) + p.weightOld * previous;
}

enum class WorkerState : int { Idle = 0, Working = 1 };

class WorkerAccount {
 public:
  explicit WorkerAccount(double startUs = 0.0, WorkRateParams p = {}) : params_(p), timerUs_(startUs) {}

  // IDLE → WORKING at time nowUs: the idle time since the timer was last reset ends here.
  void startWork(double nowUs) {
    idleTime_ = nowUs - timerUs_;
    idleTotal_ += idleTime_;
    timerUs_ = nowUs;
    state_ = WorkerState::Working;
  }

  // WORKING → IDLE at time nowUs: the cycle ends and the rate is updated.
  void endWork(double nowUs) {
    workTime_ = nowUs - timerUs_;
    workTotal_ += workTime_;
    timerUs_ = nowUs;
    state_ = WorkerState::Idle;
    ++tasks_;
    rate_.store(nextWorkRate(rate_.load(std::memory_order_relaxed), workTime_, idleTime_, params_),
                std::memory_order_relaxed);
  }

  // Close the books at the end of a search: an idle worker's last wait counts as idle time.
  void finish(double nowUs) {
    if (state_ == WorkerState::Idle && nowUs > timerUs_) idleTotal_ += nowUs - timerUs_;
    timerUs_ = nowUs;
  }

  double workRate() const noexcept { return rate_.load(std::memory_order_relaxed); }
  // Owner-only (or after the search has ended):
  WorkerState state() const { return state_; }
  double idleTime() const { return idleTime_; }
  double workTime() const { return workTime_; }
  double idleTotal() const { return idleTotal_; }
  double workTotal() const { return workTotal_; }
  std::uint64_t tasks() const { return tasks_; }

 private:
  WorkRateParams params_;
  double timerUs_;
  WorkerState state_ = WorkerState::Idle;
  double idleTime_ = 1.0;
  double workTime_ = 1.0;
  double idleTotal_ = 0.0;
  double workTotal_ = 0.0;
  std::uint64_t tasks_ = 0;
  std::atomic<double> rate_{1.0};
};

}  // namespace jackdaw
