#include <gtest/gtest.h>

#include <functional>
#include <thread>
#include <vector>

#include "jackdaw/core/incumbent.hpp"
#include "jackdaw/core/stable_stack.hpp"

using namespace jackdaw;

TEST(Incumbent, MaximiseAndMinimise) {
  Incumbent<int, int, std::greater<>> mx;
  EXPECT_FALSE(mx.hasBound());
  EXPECT_TRUE(mx.offerNode(5, 5));
  EXPECT_FALSE(mx.offerNode(4, 4));
  EXPECT_FALSE(mx.offerNode(5, 5));  // equal is not better
  EXPECT_TRUE(mx.offerBound(7));
  EXPECT_EQ(mx.bound(), 7);
  EXPECT_EQ(*mx.node(), 5);  // a bound from elsewhere carries no node

  Incumbent<int, int, std::less<>> mn(std::optional<int>(100));
  EXPECT_TRUE(mn.hasBound());
  EXPECT_FALSE(mn.offerNode(150, 150));
  EXPECT_TRUE(mn.offerNode(90, 90));
  EXPECT_EQ(*mn.nodeObjective(), 90);
}

// The bound test reads the value before the flag: without a bound nothing is cut, not even a bound
// at or below the unset value's default (0), and with one, a tie is cut (not better).
TEST(Incumbent, CutsOnlyWhatCannotImprove) {
  Incumbent<int, int, std::greater<>> mx;
  for (int b : {-5, 0, 5}) EXPECT_FALSE(mx.cuts(b)) << b;
  mx.offerBound(-3);
  EXPECT_TRUE(mx.cuts(-5));
  EXPECT_TRUE(mx.cuts(-3));
  EXPECT_FALSE(mx.cuts(-2));
  EXPECT_FALSE(mx.cuts(0));

  Incumbent<double, double, std::less<>> mn;
  for (double b : {-1.0, 0.0, 1.0}) EXPECT_FALSE(mn.cuts(b)) << b;
  mn.offerBound(2.5);
  EXPECT_TRUE(mn.cuts(2.5));
  EXPECT_TRUE(mn.cuts(3.0));
  EXPECT_FALSE(mn.cuts(0.0));
}

TEST(Incumbent, ConcurrentOffersKeepTheBest) {
  Incumbent<int, int, std::greater<>> inc;
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t)
    ts.emplace_back([&, t] {
      for (int i = 0; i < 20000; ++i) inc.offerNode(i * 4 + t, i * 4 + t);
    });
  for (auto& t : ts) t.join();
  EXPECT_EQ(inc.bound(), 79999);
  EXPECT_EQ(*inc.node(), 79999);
}

TEST(StableStack, ElementsNeverMove) {
  StableStack<int, 4> s;
  std::vector<int*> addrs;
  for (int i = 0; i < 100; ++i) addrs.push_back(&s.emplace(i));
  for (int i = 0; i < 100; ++i) EXPECT_EQ(&s[i], addrs[i]);
  for (int i = 99; i >= 50; --i) {
    EXPECT_EQ(s.top(), i);
    s.pop();
  }
  EXPECT_EQ(&s.emplace(7), addrs[50]);
  EXPECT_EQ(s.size(), 51u);
}
