// SPDX-License-Identifier: MIT
#pragma once

#include "ck_tile/host/hip_check.hpp"

#include <cstddef>
#include <utility>

namespace ck_tile {

/// An owning device allocation (RAII). Copies are forbidden, moves transfer ownership.
/// Throws ck_tile::hip_error when the runtime fails (no device, out of memory).
class DeviceMem
{
    public:
    DeviceMem() = default;
    explicit DeviceMem(std::size_t bytes) { Realloc(bytes); }
    DeviceMem(const DeviceMem&)            = delete;
    DeviceMem& operator=(const DeviceMem&) = delete;
    DeviceMem(DeviceMem&& o) noexcept
        : ptr_(std::exchange(o.ptr_, nullptr)), size_(std::exchange(o.size_, 0))
    {}
    DeviceMem& operator=(DeviceMem&& o) noexcept
    {
        if(this != &o)
        {
            Release();
            ptr_  = std::exchange(o.ptr_, nullptr);
            size_ = std::exchange(o.size_, 0);
        }
        return *this;
    }
    ~DeviceMem() { Release(); }

    void Realloc(std::size_t bytes)
    {
        Release();
        if(bytes > 0)
            HIP_CHECK_ERROR(hipMalloc(&ptr_, bytes));
        size_ = bytes;
    }
    void* GetDeviceBuffer() const noexcept { return ptr_; }
    std::size_t GetBufferSize() const noexcept { return size_; }

    /// Copies GetBufferSize() bytes (or `bytes`, if given) from host memory.
    void ToDevice(const void* host, std::size_t bytes = npos) const
    {
        copy(ptr_, host, bytes, hipMemcpyHostToDevice);
    }
    /// Copies GetBufferSize() bytes (or `bytes`, if given) to host memory.
    void FromDevice(void* host, std::size_t bytes = npos) const
    {
        copy(host, ptr_, bytes, hipMemcpyDeviceToHost);
    }
    void SetZero() const { SetValue(0); }
    /// Fills every byte with `byte_value` (use it to poison outputs before a kernel runs).
    void SetValue(int byte_value) const
    {
        if(size_ > 0)
            HIP_CHECK_ERROR(hipMemset(ptr_, byte_value, size_));
    }

    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    private:
    void copy(void* dst, const void* src, std::size_t bytes, hipMemcpyKind kind) const
    {
        const std::size_t n = bytes == npos ? size_ : bytes;
        if(n > size_)
            throw hip_error(hipErrorInvalidValue, "DeviceMem copy of " + std::to_string(n) +
                                                      " bytes exceeds the buffer of " +
                                                      std::to_string(size_));
        if(n > 0)
            HIP_CHECK_ERROR(hipMemcpy(dst, src, n, kind));
    }
    void Release() noexcept
    {
        if(ptr_)
            (void)hipFree(ptr_);
        ptr_  = nullptr;
        size_ = 0;
    }

    void* ptr_        = nullptr;
    std::size_t size_ = 0;
};

} // namespace ck_tile
