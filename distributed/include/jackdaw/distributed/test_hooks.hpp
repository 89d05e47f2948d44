// TEST ONLY: faults a test injects into a distributed launch. A test (or the apps' hidden
// --test-* flags, app/test_hooks.hpp) passes a TestHooks by pointer to Launch / SolveOptions;
// production passes none (null), and no production struct carries these fields.
#pragma once

namespace jackdaw::distributed {

struct TestHooks {
  // With a checkpoint, this rank's stop flag is raised (interrupted) right after the ranks agreed on
  // how the search stopped, as a checkpoint timer firing late would; the run must still end whole,
  // unsaved. -1: none.
  int stopAfterAgreementRank = -1;
};

}  // namespace jackdaw::distributed
