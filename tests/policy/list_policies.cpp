// Prints the built-in victim policies exactly as every program's --list-policies does
// (comm::policyListing over PolicyRegistry::builtin()), and nothing else: the smallest build that
// shows what a built-in policy's header and registry line add (tests/architecture/
// check_discovery.py builds it in a scratch copy; policy.listed_everywhere checks it equals ns's).
//   list_policies [--list-policies]
#include <iostream>

#include "jackdaw/comm/comm_cli.hpp"
#include "jackdaw/comm/policy.hpp"

int main() {
  std::cout << jackdaw::comm::policyListing(jackdaw::comm::PolicyRegistry::builtin()).dump(2) << "\n";
  return 0;
}
