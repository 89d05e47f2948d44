#include "jackdaw/uts/rng.hpp"

#include "jackdaw/core/sha1.hpp"

namespace jackdaw::uts {

void sha1(const unsigned char* data, std::size_t len, unsigned char* out20) { Sha1::digest(data, len, out20); }

}  // namespace jackdaw::uts
