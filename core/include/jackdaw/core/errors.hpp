// Errors a user can cause. Apps turn them into one message and a non-zero exit on every rank.
#pragma once

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

}  // namespace jackdaw
