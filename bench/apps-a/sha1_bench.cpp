// SHA-1 of UTS's 24-byte messages (parent digest + index): Jackdaw's own (core/sha1.hpp:
// digestOf<24>, which apps/uts/include/jackdaw/uts/rng.hpp uses, the general digest() and the
// portable kernel) against OpenSSL's entry points.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <benchmark/benchmark.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <cstring>

#include "jackdaw/core/sha1.hpp"

namespace {

unsigned char msg[24] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 0, 0, 0, 7};

void BM_Jackdaw_digest(benchmark::State& st) {
  unsigned char out[20];
  for (auto _ : st) {
    jackdaw::Sha1::digest(msg, sizeof msg, out);
    std::memcpy(msg, out, 20);
  }
  st.SetLabel(jackdaw::Sha1::kernel());
}
BENCHMARK(BM_Jackdaw_digest);

void BM_Jackdaw_digestOf24(benchmark::State& st) {  // what UTS calls: the length known when compiling
  unsigned char out[20];
  for (auto _ : st) {
    jackdaw::Sha1::digestOf<24>(msg, out);
    std::memcpy(msg, out, 20);
  }
  st.SetLabel(jackdaw::Sha1::kernel());
}
BENCHMARK(BM_Jackdaw_digestOf24);

void BM_Jackdaw_portable(benchmark::State& st) {  // the kernel of CPUs without SHA instructions
  unsigned char block[64] = {};
  for (auto _ : st) {
    std::memcpy(block, msg, sizeof msg);
    block[24] = 0x80;
    block[63] = 24 * 8;
    std::uint32_t h[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    jackdaw::detail::sha1::compressPortable(h, block, 1);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 4; ++j) msg[4 * i + j] = static_cast<unsigned char>(h[i] >> (24 - 8 * j));
  }
}
BENCHMARK(BM_Jackdaw_portable);

void BM_SHA1_oneshot(benchmark::State& st) {
  unsigned char out[20];
  for (auto _ : st) {
    SHA1(msg, sizeof msg, out);
    std::memcpy(msg, out, 20);  // chain like a tree path, so nothing is hoisted
  }
}
BENCHMARK(BM_SHA1_oneshot);

void BM_SHA1_InitUpdateFinal(benchmark::State& st) {
  unsigned char out[20];
  for (auto _ : st) {
    SHA_CTX c;
    SHA1_Init(&c);
    SHA1_Update(&c, msg, 20);
    SHA1_Update(&c, msg + 20, 4);
    SHA1_Final(out, &c);
    std::memcpy(msg, out, 20);
  }
}
BENCHMARK(BM_SHA1_InitUpdateFinal);

void BM_EVP_Digest(benchmark::State& st) {
  unsigned char out[20];
  unsigned int len = 0;
  for (auto _ : st) {
    EVP_Digest(msg, sizeof msg, out, &len, EVP_sha1(), nullptr);
    std::memcpy(msg, out, 20);
  }
}
BENCHMARK(BM_EVP_Digest);

void BM_EVP_reused_ctx_fetched_md(benchmark::State& st) {
  EVP_MD* md = EVP_MD_fetch(nullptr, "SHA1", nullptr);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned char out[20];
  unsigned int len = 0;
  for (auto _ : st) {
    EVP_DigestInit_ex2(ctx, md, nullptr);
    EVP_DigestUpdate(ctx, msg, sizeof msg);
    EVP_DigestFinal_ex(ctx, out, &len);
    std::memcpy(msg, out, 20);
  }
  EVP_MD_CTX_free(ctx);
  EVP_MD_free(md);
}
BENCHMARK(BM_EVP_reused_ctx_fetched_md);

}  // namespace

BENCHMARK_MAIN();
