#include "jackdaw/comm/session.hpp"

#include <string>

#include "jackdaw/comm/collectives.hpp"
#include "jackdaw/comm/node_cores.hpp"
#include "jackdaw/comm/wire.hpp"

namespace jackdaw::comm {

Session::Session(const SessionConfig& cfg, int workers, LocalWork& work)
    : policyName_(cfg.steal.policy), world_(cfg.world) {
  MPI_Comm_rank(world_, &rank_);
  MPI_Comm_size(world_, &size_);
  const PolicyRegistry builtin = cfg.policies ? PolicyRegistry{} : PolicyRegistry::builtin();
  const PolicyRegistry& registry = cfg.policies ? *cfg.policies : builtin;
  const PolicySpec& spec = registry.find(cfg.steal.policy);  // before anything collective: same on every rank
  board_ = std::make_unique<LoadBoard>(world_, cfg.sense, cfg.steal.board, cfg.boardTransport);
  // The view's sampling draws from its own stream, apart from the policy's (boardSampleSeed).
  view_ = std::make_unique<LoadBoardView>(*board_, cfg.steal.boardSample, cfg.steal.seed, rank_);
  PolicyEnv env;
  env.rank = rank_;
  env.size = size_;
  env.workers = workers;
  env.seed = cfg.steal.seed;
  env.board = view_.get();
  policy_ = spec.make(env, cfg.steal.policyParams);
  CommOptions opts = cfg.comm;
  opts.ownCores = workersHaveOwnCores(world_, workers);
  opts = forTransport(opts, board_->transport());
  doorbell_ = opts.doorbell;
  comm_ = std::make_unique<CommThread>(world_, *board_, *view_, work, *policy_, opts);
}

Session::~Session() = default;

void Session::start() { comm_->start(); }
void Session::wake() noexcept { comm_->wake(); }
void Session::offerBound(std::int64_t v) noexcept { comm_->offerBound(v); }
void Session::requestStop(int reason) noexcept { comm_->requestStop(reason); }
void Session::pollDoorbell() noexcept { comm_->pollDoorbell(); }
void Session::bellRang() noexcept { comm_->wakeForRequest(); }
void Session::waitTermination() { comm_->waitTermination(); }

std::vector<RankReport> Session::gather(std::span<const std::byte> searchShare) {
  std::vector<std::byte> mine;
  {
    wire::Writer w(mine);
    w(rank_);
    w.bytes(searchShare);
    w(comm_->stats(), policy_->stats().dump());
  }
  std::vector<RankReport> out;
  for (const auto& blob : gatherBlobs(world_, mine)) {
    RankReport r;
    wire::Reader in(blob);
    in(r.rank);
    const auto share = in.bytes();
    r.search.assign(share.begin(), share.end());
    std::string policy;
    in(r.comm, policy);
    r.policy = nlohmann::json::parse(policy);
    out.push_back(std::move(r));
  }
  return out;
}

int Session::lowestRankWith(bool mine) {
  int me = mine ? rank_ : size_, lowest = size_;
  MPI_Allreduce(&me, &lowest, 1, MPI_INT, MPI_MIN, world_);
  return lowest == size_ ? -1 : lowest;
}

int Session::highestOf(int mine) {
  int highest = mine;
  MPI_Allreduce(&mine, &highest, 1, MPI_INT, MPI_MAX, world_);
  return highest;
}

}  // namespace jackdaw::comm
