#include "jackdaw/uts/rng.hpp"

// The SHA1_* functions are deprecated in OpenSSL 3 in favour of EVP, but for 24-byte messages they
// are several times faster than EVP and than the one-shot SHA1() (which goes through EVP in 3.x):
// see bench/apps-a/sha1_bench. Keep the fast path and silence the warning in this one file.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

namespace jackdaw::uts {

void sha1(const unsigned char* data, std::size_t len, unsigned char* out20) {
  SHA_CTX c;
  SHA1_Init(&c);
  SHA1_Update(&c, data, len);
  SHA1_Final(out20, &c);
}

}  // namespace jackdaw::uts
