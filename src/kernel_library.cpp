// SPDX-License-Identifier: MIT
#include "kernel_library.hpp"

#include "api_error.hpp"
#include "logging.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

namespace cktile::detail {

namespace {
constexpr const char* prefix = "libcktile_kernels_";
constexpr const char* suffix = ".so";

[[noreturn]] void invalid(const std::string& path, const std::string& what)
{
    fail(CKTILE_STATUS_KERNEL_LIBRARY_INVALID, "kernel library " + path + ": " + what);
}

std::string join(const std::vector<std::string>& v, const char* sep)
{
    std::string s;
    for(const auto& x : v)
        s += (s.empty() ? "" : sep) + x;
    return s;
}

bool file_exists(const std::string& p)
{
    struct stat st
    {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
} // namespace

kernel_library::kernel_library(std::string target, std::string path,
                               const cktile_kernel_table_t* table)
    : target_(std::move(target)), path_(std::move(path))
{
    if(!table)
        invalid(path_,
                "has no table for kernel ABI version " + std::to_string(CKTILE_KERNEL_ABI_VERSION));
    if(table->struct_size < sizeof(cktile_kernel_table_t) ||
       table->abi_version != CKTILE_KERNEL_ABI_VERSION ||
       table->instance_struct_size < CKTILE_KERNEL_INSTANCE_MIN_SIZE)
        invalid(path_, "was built for another kernel ABI (version " +
                           std::to_string(table->abi_version) + ", expected " +
                           std::to_string(CKTILE_KERNEL_ABI_VERSION) + ")");
    if(!table->target || target_ != table->target)
        invalid(path_, std::string("says it is for target '") +
                           (table->target ? table->target : "(null)") + "', expected '" + target_ +
                           "'");
    if(table->library_version && std::strcmp(table->library_version, cktile_get_version_string()))
        logger().warn("kernel library {} was built with cktile {}, this is {}", path_,
                      table->library_version, cktile_get_version_string());
    if(table->instance_count > 0 && !table->instances)
        invalid(path_, "lists instances but has no instance array");
    // Each record is copied whole into a record of this build's size: fields appended after
    // the library was built read as zero, their documented defaults, and nothing past the
    // library's own struct_size is ever read.
    records_ = std::make_unique<cktile_kernel_instance_t[]>(table->instance_count);
    for(std::size_t i = 0; i < table->instance_count; ++i)
    {
        const cktile_kernel_instance_t* in = table->instances[i];
        if(!in || in->struct_size < CKTILE_KERNEL_INSTANCE_MIN_SIZE)
            invalid(path_, "instance #" + std::to_string(i) +
                               " is malformed (a record smaller than the first record layout)");
        cktile_kernel_instance_t* r = &records_[i];
        std::memcpy(static_cast<void*>(r), in, std::min(in->struct_size, sizeof(*r)));
        r->struct_size = sizeof(*r);
        if(r->info.struct_size < sizeof(cktile_instance_info_t) || !r->supports || !r->run ||
           !r->workspace_size || r->info.id == 0)
            invalid(path_, "instance #" + std::to_string(i) + " is malformed");
        const std::string name(r->info.name, strnlen(r->info.name, sizeof(r->info.name)));
        if(name.size() == sizeof(r->info.name))
            invalid(path_, "instance #" + std::to_string(i) + " has an unterminated name");
        if(!by_id_.emplace(r->info.id, r).second)
            invalid(path_, "instance id of " + name + " is not unique");
        if(!by_name_.emplace(name, r).second)
            invalid(path_, "instance name " + name + " is not unique");
        instances_.push_back(r);
    }
}

const cktile_kernel_instance_t* kernel_library::find(std::uint64_t id) const
{
    const auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : it->second;
}

const cktile_kernel_instance_t* kernel_library::find(const std::string& name) const
{
    const auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : it->second;
}

std::vector<std::string> kernel_search_dirs()
{
    std::vector<std::string> dirs;
    if(const char* env = std::getenv("CKTILE_KERNEL_PATH"))
    {
        std::string s(env);
        std::size_t start = 0;
        while(start <= s.size())
        {
            const std::size_t end = std::min(s.find(':', start), s.size());
            if(end > start)
                dirs.push_back(s.substr(start, end - start));
            start = end + 1;
        }
    }
    Dl_info info{};
    if(::dladdr(reinterpret_cast<void*>(&kernel_search_dirs), &info) && info.dli_fname)
    {
        std::string self(info.dli_fname);
        const auto slash      = self.rfind('/');
        const std::string dir = slash == std::string::npos ? "." : self.substr(0, slash);
        dirs.push_back(dir);
        dirs.push_back(dir + "/../lib");
    }
    return dirs;
}

bool is_plausible_target_name(const std::string& t)
{
    if(t.empty() || t.size() > 31)
        return false;
    return std::all_of(t.begin(), t.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

std::vector<std::string> installed_targets()
{
    std::set<std::string> found;
    for(const auto& dir : kernel_search_dirs())
    {
        DIR* d = ::opendir(dir.c_str());
        if(!d)
            continue;
        while(const dirent* e = ::readdir(d))
        {
            const std::string n  = e->d_name;
            const std::size_t pl = std::strlen(prefix), sl = std::strlen(suffix);
            if(n.size() > pl + sl && n.compare(0, pl, prefix) == 0 &&
               n.compare(n.size() - sl, sl, suffix) == 0)
            {
                const std::string t = n.substr(pl, n.size() - pl - sl);
                if(is_plausible_target_name(t))
                    found.insert(t);
            }
        }
        ::closedir(d);
    }
    return {found.begin(), found.end()};
}

std::shared_ptr<const kernel_library> load_kernel_library(const std::string& target)
{
    if(!is_plausible_target_name(target))
        fail(CKTILE_STATUS_INVALID_ARGUMENT,
             "target '" + target.substr(0, 64) +
                 "' is not a target name (like sm_90a or gfx90a: lowercase letters, digits, _)");
    static std::mutex mu;
    static std::map<std::string, std::shared_ptr<const kernel_library>> loaded;
    // One lock for lookups and loads: a load happens once per target per process, and
    // serialising them keeps dlopen from racing with itself over the same file.
    std::lock_guard<std::mutex> lock(mu);
    if(const auto it = loaded.find(target); it != loaded.end())
        return it->second;

    const auto dirs        = kernel_search_dirs();
    const std::string file = std::string(prefix) + target + suffix;
    for(const auto& dir : dirs)
    {
        const std::string path = dir + "/" + file;
        if(!file_exists(path))
            continue;
        // Never closed: instance records and their functions live in the library.
        void* so = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if(!so)
        {
            const char* err = ::dlerror();
            invalid(path, std::string("cannot be loaded: ") + (err ? err : "unknown error"));
        }
        auto get_table = reinterpret_cast<cktile_kernel_library_get_table_fn>(
            ::dlsym(so, CKTILE_KERNEL_LIBRARY_SYMBOL));
        if(!get_table)
            invalid(path, std::string("does not export ") + CKTILE_KERNEL_LIBRARY_SYMBOL);
        auto lib = std::make_shared<const kernel_library>(target, path,
                                                          get_table(CKTILE_KERNEL_ABI_VERSION));
        logger().info("loaded kernel library {} ({} instances)", path, lib->size());
        loaded.emplace(target, lib);
        return lib;
    }
    const auto have = installed_targets();
    fail(CKTILE_STATUS_KERNEL_LIBRARY_NOT_FOUND,
         "no kernel library for target '" + target + "' is installed (installed targets: " +
             (have.empty() ? std::string("none") : join(have, ", ")) + "; searched " +
             (dirs.empty() ? std::string("nothing") : join(dirs, ", ")) +
             "; set CKTILE_KERNEL_PATH to add directories)");
}

} // namespace cktile::detail
