// TEST ONLY: the faults the apps' hidden --test-* flags inject (tests/distributed, tests/checkpoint,
// tests/comm use them). runMain parses them into a TestHooks of its own and hands the run a pointer
// to it (AppContext::test) only if one was given: production runs see null, and CommonOptions and
// the structs it feeds carry no test fields.
#pragma once

#include "jackdaw/distributed/test_hooks.hpp"

namespace CLI {
class App;
}

namespace jackdaw::app {

struct TestHooks {
  int failRank = -1;         // --test-fail-rank R: rank R fails as if it could not read its input
  double setUpPause = 0;     // --test-setup-pause S: every rank waits S seconds at the end of set-up
  // --test-start-pause-rank R: rank R waits kStartPauseSeconds after the ranks' last set-up
  // collective, before its search starts (the moment a signal finds some ranks searching and
  // this one still setting up).
  int startPauseRank = -1;
  static constexpr double kStartPauseSeconds = 3.0;
  // --test-late-stop-rank R: with --checkpoint, rank R is interrupted just after the ranks agreed the
  // search had ended (distributed::TestHooks::stopAfterAgreementRank).
  distributed::TestHooks launch;

  bool any() const {
    return failRank >= 0 || setUpPause > 0 || startPauseRank >= 0 || launch.stopAfterAgreementRank >= 0;
  }
};

// The hidden flags (no help group: --help does not list them).
void addTestHookOptions(CLI::App& app, TestHooks& t);  // options.cpp

}  // namespace jackdaw::app
