// --resume DIR: the manifest of DIR's current set, checked field by field and against itself, and
// this rank's records, each checked against the manifest, its file and --memory-limit before it is
// read. What the records hold is checked by the search that continues them (run.hpp).
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "jackdaw/app/checkpoint.hpp"
#include "jackdaw/app/safe_file.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/memory_budget.hpp"

namespace jackdaw::app {

namespace fs = std::filesystem;

namespace {

nlohmann::json parseManifest(const std::vector<std::byte>& bytes, const std::string& where) {
  const auto* text = reinterpret_cast<const char*>(bytes.data());
  try {
    return nlohmann::json::parse(text, text + bytes.size());
  } catch (const nlohmann::json::parse_error& e) {
    // Where, as line and column (the parser's own text may quote the file's raw bytes).
    const std::size_t at = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, bytes.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < at; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw InputError(where + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
                     ": not valid JSON (a damaged manifest)");
  }
}

// The manifest's own arithmetic: each file's tasks and nodes add up to the set's, and the last leg
// ended where the set stands. A count changed in one place only is refused here.
void checkTotals(const nlohmann::json& m, const std::string& where) {
  const auto count = [&](const nlohmann::json& j, const char* key, const std::string& at) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number_unsigned())
      throw InputError(at + ": field '" + key + "' is missing or not a count");
    return j[key].get<std::uint64_t>();
  };
  std::uint64_t tasks = 0, nodes = 0;
  const auto& files = m["files"];
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string at = where + ": files[" + std::to_string(i) + "]";
    const std::uint64_t t = count(files[i], "tasks", at), n = count(files[i], "nodes", at);
    if (tasks + t < tasks || nodes + n < nodes) throw InputError(at + ": counts beyond 2^64");
    tasks += t;
    nodes += n;
  }
  if (count(m, "tasks", where) != tasks)
    throw InputError(where + ": field 'tasks' is " + m["tasks"].dump() + ", the files hold " + std::to_string(tasks));
  if (count(m, "nodes_so_far", where) != nodes)
    throw InputError(where + ": field 'nodes_so_far' is " + m["nodes_so_far"].dump() + ", the files' shares counted " +
                     std::to_string(nodes));
  const auto& legs = m.contains("legs") ? m["legs"] : nlohmann::json();
  if (!legs.is_array() || legs.empty()) throw InputError(where + ": field 'legs' is missing or empty");
  const std::string last = where + ": legs[" + std::to_string(legs.size() - 1) + "]";
  if (count(legs.back(), "nodes_so_far", last) != nodes || count(legs.back(), "tasks", last) != tasks)
    throw InputError(last + ": the last leg's nodes_so_far and tasks disagree with the set's");
}

}  // namespace

LoadedCheckpoint readCheckpoint(const std::string& dir, const nlohmann::json& identity, int rank, int size,
                                std::uint64_t memoryLimit) {
  const fs::path d(dir);
  std::error_code ec;
  if (!fs::is_directory(d, ec)) throw InputError("--resume: no checkpoint folder '" + dir + "'");
  const fs::path link = d / "current";
  if (!fs::is_symlink(link, ec))
    throw InputError("--resume: '" + dir + "' holds no checkpoint ('" + link.string() + "' is missing)");
  const fs::path target = fs::read_symlink(link, ec);
  const fs::path set = d / target.filename();
  if (ec || target.has_parent_path() || !fs::is_directory(set, ec))
    throw InputError("--resume: '" + link.string() + "' does not name a checkpoint set in '" + dir + "'");
  const fs::path mpath = set / "manifest.json";
  const std::string where = mpath.string();
  if (!fs::is_regular_file(mpath, ec)) throw InputError(where + ": missing (an incomplete checkpoint set)");
  const ReadResult mtext = kManifestLimit <= memoryLimit
                               ? readRegularFile(mpath, kManifestLimit, formatBytes(kManifestLimit) + ", more than any manifest needs")
                               : readRegularFile(mpath, memoryLimit, "the memory limit of " + formatBytes(memoryLimit) + " (--memory-limit)");
  if (!mtext.error.empty()) throw InputError(where + ": " + mtext.error);
  LoadedCheckpoint out;
  out.manifest = parseManifest(mtext.bytes, where);
  const nlohmann::json& m = out.manifest;
  auto field = [&](const char* key) -> const nlohmann::json& {
    if (!m.is_object() || !m.contains(key)) throw InputError(where + ": field '" + std::string(key) + "' is missing");
    return m.at(key);
  };
  if (field("format") != kCheckpointFormatName)
    throw InputError(where + ": field 'format' is not \"" + std::string(kCheckpointFormatName) + "\"");
  const auto& version = field("format_version");
  if (!version.is_number_integer() || version.get<long long>() != kCheckpointFormat)
    throw InputError(where + ": field 'format_version' is " + version.dump() + ", this build reads " +
                     std::to_string(kCheckpointFormat));
  const auto& id = field("identity");
  if (!id.is_object() || !id.contains("options") || !id.contains("files") || !id["options"].is_object() ||
      !id["files"].is_object())
    throw InputError(where + ": field 'identity' is malformed");
  if (const auto why = identityDifference(identity, id))
    throw InputError("--resume: the checkpoint in '" + dir + "' is for another search: " + *why);
  const auto& files = field("files");
  const auto& ranks = field("ranks");
  if (!ranks.is_number_unsigned() || !files.is_array() || files.size() != ranks.get<std::uint64_t>() || files.empty())
    throw InputError(where + ": fields 'ranks' and 'files' disagree");
  checkTotals(m, where);
  std::uint64_t budget = memoryLimit;  // what this rank's records may take together
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& f = files[i];
    const std::string at = where + ": files[" + std::to_string(i) + "]";
    if (!f.contains("name") || !f.contains("bytes") || !f.contains("sha1") || !f["bytes"].is_number_unsigned() ||
        !f["sha1"].is_string())
      throw InputError(at + " is malformed (needs name, bytes, sha1, tasks, nodes)");
    const std::string name = checkpointRankFile(static_cast<int>(i));
    if (f["name"] != name) throw InputError(at + ": field 'name' should be " + name);
    if (static_cast<int>(i % static_cast<std::size_t>(size)) != rank) continue;
    const fs::path p = set / name;
    // Sizes first: the manifest's, the file's, and what memory allows, before a byte is read.
    const auto want = f["bytes"].get<std::uint64_t>();
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) throw InputError(p.string() + ": missing (an incomplete checkpoint set)");
    if (static_cast<std::uint64_t>(st.st_size) != want)
      throw InputError(p.string() + ": " + std::to_string(st.st_size) + " bytes, the manifest says " + std::to_string(want) +
                       " (truncated or altered)");
    if (want > budget)
      throw InputError(p.string() + ": " + std::to_string(want) + " bytes (" + formatBytes(want) + "): this rank's records " +
                       "would take more than the memory limit of " + formatBytes(memoryLimit) +
                       " (--memory-limit); not read. Resume on more ranks, or raise the limit if the machine has the memory");
    budget -= want;
    ReadResult r = readRegularFile(p, want, "the manifest's size");
    if (!r.error.empty()) throw InputError(p.string() + ": " + r.error);
    if (r.bytes.size() != want) throw InputError(p.string() + ": it changed while being read");
    if (sha1Hex(r.bytes) != f["sha1"].get<std::string>())
      throw InputError(p.string() + ": contents altered (SHA-1 differs from the manifest)");
    out.records.push_back(std::move(r.bytes));
    out.facts.push_back({p.string(), f["tasks"].get<std::uint64_t>(), f["nodes"].get<std::uint64_t>()});
  }
  return out;
}

}  // namespace jackdaw::app
