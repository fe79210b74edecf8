// SPDX-License-Identifier: MIT
// Finding and loading per-target kernel libraries (libcktile_kernels_<target>.so), and the
// registry view of one: its immutable instance records, by index, id and name.
#pragma once

#include "kernel_library_abi.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace cktile::detail {

class kernel_library
{
    public:
    /// Checks the table (ABI version, struct sizes, target, records), copies its records into
    /// this build's record layout (fields a library built before they were appended read as
    /// 0 / NULL) and indexes them; throws api_error(KERNEL_LIBRARY_INVALID) naming `path` and
    /// the problem. @post at(i).struct_size == sizeof(cktile_kernel_instance_t).
    kernel_library(std::string target, std::string path, const cktile_kernel_table_t* table);

    const std::string& target() const { return target_; }
    const std::string& path() const { return path_; }
    std::size_t size() const { return instances_.size(); }
    const cktile_kernel_instance_t& at(std::size_t i) const { return *instances_[i]; }
    /// nullptr when absent.
    const cktile_kernel_instance_t* find(std::uint64_t id) const;
    const cktile_kernel_instance_t* find(const std::string& name) const;

    private:
    std::string target_, path_;
    /// The library's records, each copied into this build's layout (kernel_library_abi.h).
    std::unique_ptr<cktile_kernel_instance_t[]> records_;
    std::vector<const cktile_kernel_instance_t*> instances_;
    std::unordered_map<std::uint64_t, const cktile_kernel_instance_t*> by_id_;
    std::unordered_map<std::string, const cktile_kernel_instance_t*> by_name_;
};

/// Directories searched, in order: each entry of CKTILE_KERNEL_PATH (':'-separated), the
/// directory holding libcktile.so (this code), and its ../lib.
std::vector<std::string> kernel_search_dirs();

/// Targets with a kernel library in the search directories ("sm_90a", ...), sorted, unique.
std::vector<std::string> installed_targets();

/// True for names that can be a target ("sm_90a", "gfx90a"): lowercase letters, digits and
/// '_', 1 to 31 characters. Anything else never reaches the file system.
bool is_plausible_target_name(const std::string& target);

/// The target's library, loaded on first use and kept for the life of the process; later
/// calls (from any thread) return the same object. Throws api_error:
/// KERNEL_LIBRARY_NOT_FOUND naming the target, the installed targets and the searched
/// directories; KERNEL_LIBRARY_INVALID when a file exists but cannot be used.
std::shared_ptr<const kernel_library> load_kernel_library(const std::string& target);

} // namespace cktile::detail
