// The one wire format for what crosses ranks: stolen tasks, each rank's share of the result, and
// the end-of-search reports. Values are written with cereal's binary archive straight into the
// caller's byte buffer (no string in between) and read straight from the received bytes.
//
// A type says how it is written once, in a cereal `template <class Archive> void serialize(Archive&)`
// that serves both directions; a trivially copyable type without one goes as raw bytes (every rank
// of a job runs the same executable).
//
//   std::vector<std::byte> buf;
//   { wire::Writer w(buf);  w(node, depth); }       // appends to buf
//   wire::Reader r(buf);  r(node, depth);           // reads the same values back
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <ostream>
#include <span>
#include <streambuf>
#include <type_traits>
#include <vector>

#include <cereal/archives/binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/utility.hpp>
#include <cereal/types/vector.hpp>

namespace jackdaw::comm::wire {

// A type cereal can write and read: its own serialize(), or one cereal knows (numbers, strings,
// vectors, … of such types; the cereal/types headers above).
template <class T>
concept CerealSerialisable = cereal::traits::is_output_serializable<T, cereal::BinaryOutputArchive>::value &&
                             cereal::traits::is_input_serializable<T, cereal::BinaryInputArchive>::value;

// True when T can cross ranks.
template <class T>
inline constexpr bool sendable = CerealSerialisable<T> || std::is_trivially_copyable_v<T>;

// Writes or reads one value through an archive: through cereal when it can, else as raw bytes.
template <class Archive, class T>
void transfer(Archive& ar, T& v) {
  if constexpr (CerealSerialisable<T>) {
    ar(v);
  } else {
    static_assert(std::is_trivially_copyable_v<T>,
                  "a Node or enumerator that crosses ranks needs `template <class Archive> void serialize(Archive&)` "
                  "(cereal) or must be trivially copyable");
    ar(cereal::binary_data(&v, sizeof(T)));
  }
}

namespace detail {
// Appends everything written to a byte vector.
class SinkBuf final : public std::streambuf {
 public:
  explicit SinkBuf(std::vector<std::byte>& out) : out_(out) {}

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const auto* p = reinterpret_cast<const std::byte*>(s);
    out_.insert(out_.end(), p, p + n);
    return n;
  }
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) out_.push_back(static_cast<std::byte>(c));
    return traits_type::not_eof(c);
  }

 private:
  std::vector<std::byte>& out_;
};

// Reads from bytes it does not own (no copy).
class SourceBuf final : public std::streambuf {
 public:
  explicit SourceBuf(std::span<const std::byte> in) {
    char* b = const_cast<char*>(reinterpret_cast<const char*>(in.data()));
    setg(b, b, b + in.size());
  }
  std::size_t consumed() const { return static_cast<std::size_t>(gptr() - eback()); }
};
}  // namespace detail

class Writer {
 public:
  explicit Writer(std::vector<std::byte>& out) : buf_(out), os_(&buf_), ar_(os_) {}
  template <class... Ts>
  Writer& operator()(const Ts&... vs) {
    (transfer(ar_, const_cast<Ts&>(vs)), ...);  // an output archive only reads its values
    return *this;
  }
  // A length and raw bytes (an opaque payload inside a larger record).
  Writer& bytes(std::span<const std::byte> b) {
    std::uint64_t n = b.size();
    ar_(n);
    ar_(cereal::binary_data(b.data(), b.size()));
    return *this;
  }

 private:
  detail::SinkBuf buf_;
  std::ostream os_;
  cereal::BinaryOutputArchive ar_;
};

// Reading past the end throws (cereal::Exception): a truncated payload is an error, never garbage.
class Reader {
 public:
  explicit Reader(std::span<const std::byte> in) : in_(in), buf_(in), is_(&buf_), ar_(is_) {}
  template <class... Ts>
  Reader& operator()(Ts&... vs) {
    (transfer(ar_, vs), ...);
    return *this;
  }
  // Bytes written by Writer::bytes, as a view into the input.
  std::span<const std::byte> bytes() {
    std::uint64_t n = 0;
    ar_(n);
    const std::size_t at = buf_.consumed();
    if (n > in_.size() - at) throw cereal::Exception("payload longer than the message");
    is_.ignore(static_cast<std::streamsize>(n));
    return in_.subspan(at, n);
  }
  bool atEnd() const { return buf_.consumed() == in_.size(); }

 private:
  std::span<const std::byte> in_;
  detail::SourceBuf buf_;
  std::istream is_;
  cereal::BinaryInputArchive ar_;
};

}  // namespace jackdaw::comm::wire
