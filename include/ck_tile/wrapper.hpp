// SPDX-License-Identifier: MIT
// The wrapper: CuTe-style layouts and their algebra (coalesce, composition, complement,
// divides, products) and tensors over them, in namespace ck_tile::wrapper. Header-only, host
// and device.
#pragma once

#include "ck_tile/wrapper/utils/require.hpp"
#include "ck_tile/wrapper/utils/int_tuple.hpp"
#include "ck_tile/wrapper/layout.hpp"
#include "ck_tile/wrapper/tensor.hpp"
#include "ck_tile/wrapper/layout_to_descriptor.hpp"
