#pragma once
// One implementation per device type, looked up by the device of the first tensor argument.
#include <torch/extension.h>

#include <map>

template <typename F>
std::map<c10::DeviceType, F>& device_table() {
  static std::map<c10::DeviceType, F> table;
  return table;
}

#define REGISTER_DEVICE_IMPL(key, device, value)                                 \
  static const bool key##_##device##_registered =                                \
      (device_table<decltype(&value)>()[c10::DeviceType::device] = &value, true)

#define DISPATCH_DEVICE_IMPL(key, first, ...) \
  device_table<decltype(&key)>().at(first.device().type())(first, __VA_ARGS__)
