// Errors a user can cause. Apps turn them into one message and a non-zero exit on every rank.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

namespace jackdaw {

// Bad input: a missing or malformed file, an impossible option. The message names the culprit
// (file and line where there is one).
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  InputError(const std::string& file, std::size_t line, const std::string& what)
      : std::runtime_error(file + ":" + std::to_string(line) + ": " + what) {}
};

// Model code (generator, bound, objective, enumerator) threw inside a search. The search was
// stopped on every worker (and every rank) before this was thrown; what() carries the model's
// message, and on several ranks the failing rank.
class SearchFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// This rank's search was stopped because the search failed on another rank (whose message the
// reporting rank prints).
class FailedElsewhere : public std::runtime_error {
 public:
  FailedElsewhere() : std::runtime_error("the search failed on another rank") {}
};

// A model broke its contract in a way only a run can show (checked builds: generator_check.hpp).
// Thrown in a worker like any model failure, so a search reports it as SearchFailed.
class ModelError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// The message of a caught exception.
inline std::string describe(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

// What SearchFailed says of the model's exception e.
inline std::string modelThrew(const std::exception_ptr& e) { return "the model threw during the search: " + describe(e); }

}  // namespace jackdaw
