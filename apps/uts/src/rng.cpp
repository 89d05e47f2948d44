#include "jackdaw/uts/rng.hpp"

#include "jackdaw/core/sha1.hpp"

namespace jackdaw::uts {

// A child's message is 24 bytes, the root's 20: both known lengths take the one-block path.
void sha1(const unsigned char* data, std::size_t len, unsigned char* out20) {
  if (len == 24) Sha1::digestOf<24>(data, out20);
  else if (len == 20) Sha1::digestOf<20>(data, out20);
  else Sha1::digest(data, len, out20);
}

}  // namespace jackdaw::uts
