// The cache level specification (docs/formats.md, "Cache specifications"): values, defaults and errors.
#include <gtest/gtest.h>

#include "augur/core/diagnostics.hpp"
#include "sim/cache/cache_spec.hpp"

namespace augur::sim::cache {
namespace {

std::string error_of(const std::string& text) {
  try {
    (void)parse_cache_spec(text, "--cache");
  } catch (const core::InputError& error) {
    return error.what();
  }
  return "no error";
}

TEST(CacheSpec, ReadsEveryKey) {
  const CacheSpec spec = parse_cache_spec("l2:size=1M,assoc=16,line=128,policy=plru,write=through,alloc=no,seed=7", "--cache");
  EXPECT_EQ(spec.name, "l2");
  EXPECT_EQ(spec.size, 1048576U);
  EXPECT_EQ(spec.assoc, 16U);
  EXPECT_EQ(spec.line, 128U);
  EXPECT_EQ(spec.policy, ReplacementPolicy::Plru);
  EXPECT_EQ(spec.write, WritePolicy::Through);
  EXPECT_FALSE(spec.allocate);
  EXPECT_EQ(spec.seed, 7U);
  EXPECT_EQ(spec.sets(), 1048576U / (128 * 16));
}

TEST(CacheSpec, DefaultsAndFullAssociativity) {
  const CacheSpec spec = parse_cache_spec("l1:size=32K", "--cache");
  EXPECT_EQ(spec.size, 32768U);
  EXPECT_EQ(spec.assoc, 8U);
  EXPECT_EQ(spec.line, 64U);
  EXPECT_EQ(spec.policy, ReplacementPolicy::Lru);
  EXPECT_EQ(spec.write, WritePolicy::Back);
  EXPECT_TRUE(spec.allocate);
  const CacheSpec full = parse_cache_spec("fa:size=4K,assoc=full,line=32,policy=fifo", "--cache");
  EXPECT_TRUE(full.fully_associative);
  EXPECT_EQ(full.assoc, 128U);
  EXPECT_EQ(full.sets(), 1U);
  EXPECT_EQ(parse_cache_spec("big:size=2G,line=1K,assoc=4", "--cache").size, std::uint64_t{2} << 30);
}

TEST(CacheSpec, ClearErrors) {
  EXPECT_EQ(error_of("l1:size=1000,line=64"), "--cache: cache 'l1': size 1000 is not a multiple of the line 64");
  EXPECT_EQ(error_of("l1:size=192,line=64,assoc=2"), "--cache: cache 'l1': size 192 is not a multiple of line x assoc (64 x 2)");
  EXPECT_EQ(error_of("l1:size=4K,line=48"), "--cache: line: expected a power of two of bytes, found '48'");
  EXPECT_EQ(error_of("l1:size=3K,line=64,assoc=6,policy=plru"), "--cache: cache 'l1': plru needs a power-of-two associativity, found 6");
  EXPECT_EQ(error_of("l1:size=4K,ways=2"), "--cache: unknown key 'ways' (expected size, assoc, line, policy, write, alloc or seed)");
  EXPECT_EQ(error_of("l1:assoc=2"), "--cache: cache 'l1': size= is required");
  EXPECT_EQ(error_of("size=4K"), "--cache: expected NAME:size=...,assoc=...,line=..., found 'size=4K'");
  EXPECT_EQ(error_of("l1:size=4X"), "--cache: size: expected a size such as 32K, 1M or 4096, found '4X'");
  EXPECT_EQ(error_of("l1:size=4K,policy=mru"), "--cache: policy: expected lru, fifo, random or plru, found 'mru'");
  EXPECT_EQ(error_of("l1:size=4K,assoc=0"), "--cache: assoc: expected a number of ways or 'full', found '0'");
  EXPECT_EQ(error_of("l1:size=128,assoc=4"), "--cache: cache 'l1': assoc 4 is more than the 2 lines of the cache");
  EXPECT_EQ(error_of("l1:size=4K,"), "--cache: expected KEY=VALUE, found ''");
  EXPECT_EQ(error_of("l1:size=99999999999999999999G"), "--cache: size: expected a size such as 32K, 1M or 4096, found '99999999999999999999G'");
}

TEST(CacheSpec, FormatsWhatItReads) {
  const std::string text = "l1d:size=32768,assoc=8,line=64,policy=random,write=through,alloc=no,seed=3";
  EXPECT_EQ(format_cache_spec(parse_cache_spec(text, "--cache")), text);
}

}  // namespace
}  // namespace augur::sim::cache
