// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_TEST_ORACLE_HPP
#define ORDO_TEST_ORACLE_HPP

// Host-side helpers shared by every primitive's tests: moving data to and from the backend,
// poisoning outputs, and comparing bit for bit against the C++ standard library oracle.

#include "Ordo_TestBackend.hpp"

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace OrdoTest {

template <class T>
DeviceView<T> to_device(const std::vector<T>& host, const std::string& label = "input") {
  DeviceView<T> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), host.size());
  Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(host.data(),
                                                                                       host.size());
  Kokkos::deep_copy(v, h);
  return v;
}

template <class View>
std::vector<typename View::non_const_value_type> to_host(const View& v) {
  auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<typename View::non_const_value_type>(mirror.data(),
                                                          mirror.data() + mirror.extent(0));
}

// A recognizable byte pattern, so that an element the algorithm failed to write shows up.
template <class T>
T poison_value() {
  T x;
  std::memset(static_cast<void*>(&x), 0xA5, sizeof(T));
  return x;
}

template <class T>
DeviceView<T> poisoned(std::size_t n, const std::string& label = "output") {
  DeviceView<T> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
  Kokkos::deep_copy(v, poison_value<T>());
  return v;
}

// A device copy of `host` that starts `offset` elements into its allocation (a subview; the
// elements before it hold the poison), so that tile loads and stores meet every alignment. Its
// type is to_device's (no new instantiation of what the tests call).
template <class T>
DeviceView<T> at_offset(const std::vector<T>& host, std::size_t offset) {
  std::vector<T> padded(offset, poison_value<T>());
  padded.insert(padded.end(), host.begin(), host.end());
  return Kokkos::subview(to_device(padded), std::make_pair(offset, padded.size()));
}

// Bitwise equality of two sequences (so that -0.0 and +0.0, or two NaNs, are told apart); reports
// the first difference.
template <class T>
::testing::AssertionResult bitwise_equal(const std::vector<T>& expected,
                                         const std::vector<T>& actual) {
  if (expected.size() != actual.size()) {
    return ::testing::AssertionFailure()
           << "sizes differ: expected " << expected.size() << ", got " << actual.size();
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (std::memcmp(&expected[i], &actual[i], sizeof(T)) != 0) {
      return ::testing::AssertionFailure()
             << "first difference at index " << i << " of " << expected.size();
    }
  }
  return ::testing::AssertionSuccess();
}

// The first n elements of a device View (as R, by default its own type); checks that the elements
// after them still hold the poison (nothing was written past the output's end).
template <class R = void, class View>
auto head_checked(const View& v, std::size_t n) {
  using T = typename View::non_const_value_type;
  using Head = std::conditional_t<std::is_void_v<R>, T, R>;
  const auto h = to_host(v);
  for (std::size_t k = n; k < h.size(); ++k) {
    EXPECT_TRUE(bitwise_equal(std::vector<T>{poison_value<T>()}, std::vector<T>{h[k]}))
        << "element " << k << " past the output's end was written";
  }
  return std::vector<Head>(h.begin(), h.begin() + n);
}

// The message of the std::invalid_argument that f throws (errors: docs/ARCHITECTURE.md, the
// contract).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

}  // namespace OrdoTest

#endif
