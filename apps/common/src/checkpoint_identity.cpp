// What makes a checkpoint this search's: its identity (the app, its options, the SHA-1 of each
// file an option names) and the first difference between two identities (checkpoint.hpp).

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "jackdaw/app/checkpoint.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/sha1.hpp"

namespace jackdaw::app {

namespace fs = std::filesystem;

namespace {

// An option whose value named a file in both identities: compared by the file's SHA-1 alone.
bool comparedByFile(const nlohmann::json& here, const nlohmann::json& there, const std::string& option) {
  const nlohmann::json hf = here.value("files", nlohmann::json::object());
  const nlohmann::json tf = there.value("files", nlohmann::json::object());
  return hf.is_object() && tf.is_object() && hf.contains(option) && tf.contains(option);
}

// "option -g is 41 here, 40 in the checkpoint" for the first difference between two identities,
// or nullopt if they are one search.
std::optional<std::string> differenceOf(const nlohmann::json& here, const nlohmann::json& there) {
  if (!there.is_object()) return "the checkpoint's identity is malformed";
  if (here.value("app", "") != there.value("app", ""))
    return "it was written by '" + there.value("app", "?") + "', this is '" + here.value("app", "?") + "'";
  const nlohmann::json hf = here.value("files", nlohmann::json::object());
  const nlohmann::json tf = there.value("files", nlohmann::json::object());
  if (!tf.is_object()) return "the checkpoint's identity is malformed";
  for (const auto& [k, v] : hf.items()) {
    if (!tf.contains(k)) return "option " + k + " names a file here, not in the checkpoint";
    if (tf.at(k) != v)
      return "the file of option " + k + " has other contents (SHA-1 " + v.get<std::string>() + " here, " +
             (tf.at(k).is_string() ? tf.at(k).get<std::string>() : tf.at(k).dump()) + " in the checkpoint)";
  }
  const auto& ho = here.at("options");
  const nlohmann::json to = there.value("options", nlohmann::json::object());
  if (!to.is_object()) return "the checkpoint's identity is malformed";
  for (const auto& [k, v] : ho.items()) {
    if (!to.contains(k)) return "option " + k + " is not in the checkpoint";
    if (comparedByFile(here, there, k)) continue;  // the same contents under another path
    if (to.at(k) != v) return "option " + k + " is " + v.dump() + " here, " + to.at(k).dump() + " in the checkpoint";
  }
  for (const auto& [k, v] : to.items())
    if (!ho.contains(k)) return "the checkpoint has option " + k + ", this app does not";
  for (const auto& [k, v] : tf.items())
    if (!hf.contains(k)) return "option " + k + " named a file in the checkpoint, it does not here";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> identityDifference(const nlohmann::json& here, const nlohmann::json& there) {
  try {
    return differenceOf(here, there);
  } catch (const nlohmann::json::exception&) {
    return "the checkpoint's identity is malformed";
  }
}

namespace {
std::string hexOf(const unsigned char* md, unsigned int len) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

// The SHA-1 of a file, read in pieces (an instance may be large), or nullopt if it cannot be read.
std::optional<std::string> sha1OfFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  Sha1 md;
  std::vector<char> buf(1 << 20);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    if (in.gcount() > 0) md.update(buf.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) return std::nullopt;
  const auto out = md.final();
  return hexOf(out.data(), static_cast<unsigned>(out.size()));
}
}  // namespace

std::string sha1Hex(std::span<const std::byte> bytes) {
  unsigned char md[20];
  Sha1::digest(bytes.data(), bytes.size(), md);
  return hexOf(md, sizeof md);
}

bool sameSearch(const nlohmann::json& here, const nlohmann::json& there) { return !identityDifference(here, there); }

nlohmann::json searchIdentity(const std::string& app, const std::vector<std::pair<std::string, std::string>>& appOptions) {
  nlohmann::json id = {{"app", app}, {"options", nlohmann::json::object()}, {"files", nlohmann::json::object()}};
  for (const auto& [name, value] : appOptions) {
    id["options"][name] = value;
    std::error_code ec;
    if (!value.empty() && fs::is_regular_file(value, ec)) {
      const auto sha1 = sha1OfFile(value);
      if (!sha1) throw InputError("cannot read '" + value + "' (option " + name + ")");
      id["files"][name] = *sha1;
    }
  }
  return id;
}

}  // namespace jackdaw::app
