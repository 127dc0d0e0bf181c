#include "engine/sha256.h"

#include <cstdint>
#include <stdexcept>

#include <openssl/evp.h>

namespace mpsready {
namespace {

// Fetched once: in OpenSSL 3, passing EVP_sha256() to every init looks the algorithm up again
// each time, which costs as much as hashing a small file.
const EVP_MD* sha256_algorithm() {
  static EVP_MD* const md = [] {
    EVP_MD* fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    if (!fetched) throw std::runtime_error("OpenSSL has no SHA-256");
    return fetched;
  }();
  return md;
}

struct ContextFree {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using ContextPtr = std::unique_ptr<EVP_MD_CTX, ContextFree>;

ContextPtr new_context() {
  ContextPtr ctx(EVP_MD_CTX_new());
  if (!ctx) throw std::runtime_error("cannot allocate a SHA-256 context");
  return ctx;
}

void check(int ok) {
  if (ok != 1) throw std::runtime_error("SHA-256 failed");
}

void init(EVP_MD_CTX* ctx) { check(EVP_DigestInit_ex(ctx, sha256_algorithm(), nullptr)); }

void update(EVP_MD_CTX* ctx, std::string_view bytes) { check(EVP_DigestUpdate(ctx, bytes.data(), bytes.size())); }

Sha256 final(EVP_MD_CTX* ctx) {
  Sha256 digest{};
  unsigned int size = 0;
  check(EVP_DigestFinal_ex(ctx, digest.data(), &size));
  if (size != digest.size()) throw std::runtime_error("SHA-256 gave a digest of the wrong size");
  return digest;
}

void update_length(EVP_MD_CTX* ctx, size_t length) {
  unsigned char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(static_cast<uint64_t>(length) >> (8 * i));
  update(ctx, std::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes));
}

}  // namespace

Sha256 sha256(std::string_view bytes) {
  // One context per thread, reused: a scan hashes every file it reads.
  thread_local const ContextPtr ctx = new_context();
  init(ctx.get());
  update(ctx.get(), bytes);
  return final(ctx.get());
}

struct Sha256Pieces::Context {
  ContextPtr ctx = new_context();
};

Sha256Pieces::Sha256Pieces() : context_(std::make_unique<Context>()) { init(context_->ctx.get()); }
Sha256Pieces::~Sha256Pieces() = default;

Sha256Pieces& Sha256Pieces::add(std::string_view piece) {
  update_length(context_->ctx.get(), piece.size());
  update(context_->ctx.get(), piece);
  return *this;
}

Sha256 Sha256Pieces::finish() { return final(context_->ctx.get()); }

std::string hex(const Sha256& digest, size_t bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < bytes && i < digest.size(); ++i) {
    out += digits[digest[i] >> 4];
    out += digits[digest[i] & 15];
  }
  return out;
}

}  // namespace mpsready
