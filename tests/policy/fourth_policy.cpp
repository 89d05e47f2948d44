// A fourth victim policy from one file: the policy class and its one registration line live
// here, nowhere else. With them, `--policy round_robin`, its flag `--rr-stride` (range-checked,
// listed under "Policy constants" in --help) and its --stats counters all appear, with no other
// file of Jackdaw touched (tests/policy/CMakeLists.txt runs this program under mpirun).
//
//   fourth_policy -n 10 --skeleton budget --policy round_robin --rr-stride 1 --stats out.json
#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/main.hpp"
#include "jackdaw/app/run.hpp"
#include "jackdaw/comm/policy.hpp"
#include "jackdaw/nqueens/model.hpp"

namespace {

using namespace jackdaw;

// Ask the ranks in turn, `stride` places on each time (never ourselves).
class RoundRobinPolicy final : public comm::VictimPolicy {
 public:
  static constexpr const char* name = "round_robin";
  static constexpr const char* summary = "the other ranks in turn, --rr-stride places on each time";
  struct Params {
    double stride = 1;
    template <class F>
    void visit(F&& f) {
      f("--rr-stride", stride, "round_robin: ranks to move on after each steal attempt", 1.0, 1000.0);
    }
  };

  RoundRobinPolicy(const comm::PolicyEnv& e, const Params& p)
      : rank_(e.rank), size_(e.size), stride_(static_cast<int>(p.stride)), next_(e.rank) {}

  int choose() override {
    if (size_ < 2) return -1;
    do next_ = (next_ + stride_) % size_;
    while (next_ == rank_);
    ++asked_;
    return next_;
  }
  std::int64_t onOutcome(const comm::StealOutcome& o) override {
    ++(o.gotWork ? granted_ : refused_);
    return kOwnBackoff;
  }
  nlohmann::json stats() const override {
    return {{"rr_asked", asked_}, {"rr_granted", granted_}, {"rr_refused", refused_}, {"rr_stride_used", stride_}};
  }

 private:
  int rank_, size_, stride_, next_;
  std::uint64_t asked_ = 0, granted_ = 0, refused_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  auto policies = comm::PolicyRegistry::builtin();
  policies.add<RoundRobinPolicy>();  // the one registration line

  int n = 8;
  auto setup = [&](CLI::App& cli) { cli.add_option("-n", n, "Board size")->check(CLI::Range(1, 16)); };
  auto body = [&](app::AppContext& ctx) {
    const nqueens::Board board{n};
    auto r = app::runSearch<nqueens::Model, Enumeration<nqueens::CountSolutions>>(ctx, board, nqueens::makeRoot(board),
                                                                                 SearchParams<long long>{});
    app::Answer a;
    a.line("solutions", r.enumerator.get());
    a.result["solutions"] = r.enumerator.get();
    return app::finish(ctx, r, a);
  };
  return app::runMain(argc, argv, "fourth_policy", "n-queens with a victim policy defined in this file", setup, body,
                      policies);
}
