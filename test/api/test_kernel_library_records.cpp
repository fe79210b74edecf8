// SPDX-License-Identifier: MIT
// The loader's reading of kernel-library records of other sizes: a library built before
// fields were appended to cktile_kernel_instance_t loads, and the fields its records lack read
// as their defaults (never as the bytes that follow a shorter record); a library built after
// loads with this build's fields intact; records shorter than the first layout are refused.
#include "api_error.hpp"
#include "kernel_library.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

int refuse_gemm(const cktile_gemm_problem_t*, const cktile_gemm_args_t*, char*, size_t)
{
    return 1;
}
size_t no_workspace(const cktile_gemm_problem_t*) { return 0; }
int run_nothing(const cktile_gemm_problem_t*, const cktile_gemm_args_t*, void*, size_t, void*,
                char*, size_t)
{
    return 0;
}
int64_t four_splits(const cktile_gemm_problem_t*) { return 4; }

/// A complete record of this build with every appended field set to a non-default value.
cktile_kernel_instance_t record(std::uint64_t id, const char* name)
{
    cktile_kernel_instance_t r{};
    r.struct_size      = sizeof(r);
    r.info.struct_size = sizeof(r.info);
    r.info.id          = id;
    std::snprintf(r.info.name, sizeof(r.info.name), "%s", name);
    std::snprintf(r.info.target, sizeof(r.info.target), "%s", "abi_test");
    r.info.op_kind      = CKTILE_OP_GEMM;
    r.min_blocks_per_cu = 1;
    r.supports          = &refuse_gemm;
    r.workspace_size    = &no_workspace;
    r.run               = &run_nothing;
    r.math_rate         = 16.0;
    r.k_splits          = &four_splits;
    r.cluster_m         = 2;
    r.rows_in_flight    = 3;
    return r;
}

/// A record from a later build: this build's fields, then fields this build does not know.
struct newer_record
{
    cktile_kernel_instance_t known;
    double unknown[4];
};

/// @pre `records` outlives the table.
cktile_kernel_table_t table_of(const std::vector<const cktile_kernel_instance_t*>& records,
                               std::size_t instance_struct_size)
{
    cktile_kernel_table_t t{};
    t.struct_size          = sizeof(t);
    t.abi_version          = CKTILE_KERNEL_ABI_VERSION;
    t.instance_struct_size = instance_struct_size;
    t.target               = "abi_test";
    t.instance_count       = records.size();
    t.instances            = records.data();
    return t;
}

std::string refusal(const cktile_kernel_table_t& t)
{
    try
    {
        cktile::detail::kernel_library lib("abi_test", "libcktile_kernels_abi_test.so", &t);
    }
    catch(const cktile::detail::api_error& e)
    {
        EXPECT_EQ(e.status(), CKTILE_STATUS_KERNEL_LIBRARY_INVALID);
        return e.what();
    }
    return "";
}

TEST(KernelLibraryRecords, OlderRecordsReadAppendedFieldsAsDefaults)
{
    // The first layout ends at `run`; the bytes after it hold values a careless reader would
    // take for the appended fields.
    cktile_kernel_instance_t first = record(11, "first_layout");
    first.struct_size              = CKTILE_KERNEL_INSTANCE_MIN_SIZE;
    // One layout later: cluster_m present, rows_in_flight not.
    cktile_kernel_instance_t middle = record(12, "without_rows_in_flight");
    middle.struct_size              = offsetof(cktile_kernel_instance_t, rows_in_flight);
    newer_record later{record(13, "later_build"), {1, 2, 3, 4}};
    later.known.struct_size = sizeof(later);
    // The layout that ended with copy_stages reported its sizeof, padding included; a field
    // appended inside that padding would be read from whatever the padding held.
    constexpr std::size_t align = alignof(cktile_kernel_instance_t);
    constexpr std::size_t copy_stages_layout_size =
        (offsetof(cktile_kernel_instance_t, copy_stages) + sizeof(int) + align - 1) / align * align;
    cktile_kernel_instance_t before_pingpong = record(14, "without_pingpong");
    before_pingpong.copy_stages              = 4;
    before_pingpong.pingpong                 = 1;
    before_pingpong.struct_size              = copy_stages_layout_size;
    const std::vector<const cktile_kernel_instance_t*> records{&first, &middle, &later.known,
                                                               &before_pingpong};
    const auto t = table_of(records, sizeof(later));

    cktile::detail::kernel_library lib("abi_test", "libcktile_kernels_abi_test.so", &t);
    ASSERT_EQ(lib.size(), 4u);
    const cktile_kernel_instance_t* a = lib.find(std::string("first_layout"));
    ASSERT_NE(a, nullptr);
    EXPECT_NE(a, &first) << "records are copied into this build's layout";
    EXPECT_EQ(a->struct_size, sizeof(cktile_kernel_instance_t));
    EXPECT_EQ(a->info.id, 11u);
    EXPECT_EQ(a->run, &run_nothing);
    EXPECT_EQ(a->math_rate, 0.0);
    EXPECT_EQ(a->k_splits, nullptr);
    EXPECT_EQ(a->op_supports, nullptr);
    EXPECT_EQ(a->op_run, nullptr);
    EXPECT_EQ(a->cluster_m, 0);
    EXPECT_EQ(a->rows_in_flight, 0);

    const cktile_kernel_instance_t* b = lib.find(12);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->math_rate, 16.0);
    EXPECT_EQ(b->k_splits, &four_splits);
    EXPECT_EQ(b->cluster_m, 2);
    EXPECT_EQ(b->rows_in_flight, 0);

    const cktile_kernel_instance_t* c = lib.find(13);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->struct_size, sizeof(cktile_kernel_instance_t));
    EXPECT_EQ(c->cluster_m, 2);
    EXPECT_EQ(c->rows_in_flight, 3);
    EXPECT_EQ(&lib.at(2), c);

    const cktile_kernel_instance_t* d = lib.find(14);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->copy_stages, 4);
    EXPECT_EQ(d->pingpong, 0);
}

TEST(KernelLibraryRecords, RecordsShorterThanTheFirstLayoutAreRefused)
{
    cktile_kernel_instance_t good = record(21, "good");
    cktile_kernel_instance_t bad  = record(22, "truncated");
    bad.struct_size               = CKTILE_KERNEL_INSTANCE_MIN_SIZE - sizeof(void*);
    std::vector<const cktile_kernel_instance_t*> records{&good, &bad};
    auto t                = table_of(records, sizeof(good));
    const std::string why = refusal(t);
    EXPECT_NE(why.find("instance #1 is malformed (a record smaller than the first record layout)"),
              std::string::npos)
        << why;

    // A table announcing records shorter than the first layout is from another ABI.
    records = {&good};
    t       = table_of(records, CKTILE_KERNEL_INSTANCE_MIN_SIZE - 8);
    EXPECT_NE(refusal(t).find("was built for another kernel ABI"), std::string::npos);
    // The embedded public description cannot shrink: it is not at the end of the record.
    cktile_kernel_instance_t small_info = record(23, "small_info");
    small_info.info.struct_size         = sizeof(small_info.info) - 8;
    records                             = {&small_info};
    t                                   = table_of(records, sizeof(small_info));
    EXPECT_NE(refusal(t).find("instance #0 is malformed"), std::string::npos);
}

} // namespace
