#pragma once
// Errors as values: a T, or the error E that stood in its way. The domain's
// Result (one or more API errors) and SOQL's (the first problem of a query)
// are both this shape.
#include <utility>
#include <variant>

namespace fake_org::util {

template <typename T, typename E>
class Expected {
 public:
  Expected(T value) : v_(std::move(value)) {}  // NOLINT: a value converts
  Expected(E error) : v_(std::move(error)) {}  // NOLINT: so does an error
  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<T>(v_); }
  const T& value() const { return std::get<T>(v_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  const E& error() const { return std::get<E>(v_); }

 private:
  std::variant<T, E> v_;
};

}  // namespace fake_org::util
