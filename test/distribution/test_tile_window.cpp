// SPDX-License-Identifier: MIT
// Tile windows on the host, one emulated thread at a time (its partition index given
// explicitly): loads, stores and atomic updates reproduce direct indexing of the view for
// every thread of several distributions, on shapes that are not multiples of the tile, with
// vector and scalar accesses; moving a window equals making it at the new origin. Also the
// load/store traits' choice of vector dimension and length, and the XOR-swizzled LDS layout
// (seed 004, 7.17): a bijection, vector-contiguous, conflict-free where row-major conflicts.
#include <ck_tile/core.hpp>

#include <gtest/gtest.h>

#include <set>
#include <vector>

using namespace ck_tile;

namespace {

// Seed 004 7.5.6: 4x4 tile, 2 warps x 2 lanes, 2x2 values each.
using Enc4x4 =
    tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<2, 2>>,
                               tuple<sequence<1>, sequence<2>>, tuple<sequence<0>, sequence<0>>,
                               sequence<1, 2>, sequence<1, 1>>;
// A copy-kernel tile: 16 x 32; 2 warps along M, 8 x 4 lanes, 2 repeats along M, 8 along N.
using EncCopy =
    tile_distribution_encoding<sequence<>, tuple<sequence<2, 2, 4>, sequence<4, 8>>,
                               tuple<sequence<1>, sequence<1, 2>>,
                               tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>;
// Replication: 2 copies (R0) x 2 M-warps; lanes 8 (M) x 4 (K); 2 repeats x 4 K values.
using EncRep = tile_distribution_encoding<
    sequence<2>, tuple<sequence<2, 2, 8>, sequence<4, 4>>, tuple<sequence<0, 1>, sequence<1, 2>>,
    tuple<sequence<0, 1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>;
// Ys out of X order: the vector Y (X1's inner factor) is Y0, not the last Y.
using EncPermutedYs = tile_distribution_encoding<sequence<>, tuple<sequence<2, 4>, sequence<4, 2>>,
                                                 tuple<sequence<1, 2>>, tuple<sequence<1, 0>>,
                                                 sequence<2, 1>, sequence<1, 0>>;
// Lanes on the fastest factor of X1: no Y is contiguous, every access scalar.
using EncLanesInner =
    tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<2, 4>>,
                               tuple<sequence<1>, sequence<2>>, tuple<sequence<0>, sequence<1>>,
                               sequence<1, 2>, sequence<1, 0>>;
// Seed 004 7.12.4, written as valid encodings: row-major 4x16 and column-major 16x4.
using RowMajorDist =
    tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<4, 4>>,
                               tuple<sequence<1>, sequence<2>>, tuple<sequence<0>, sequence<0>>,
                               sequence<1, 2>, sequence<1, 1>>;
using ColMajorDist =
    tile_distribution_encoding<sequence<>, tuple<sequence<4, 4>, sequence<2, 2>>,
                               tuple<sequence<1>, sequence<2>>, tuple<sequence<0>, sequence<0>>,
                               sequence<1, 2>, sequence<1, 1>>;
// Seed 004 7.12.5: 6x8, 3x4 per thread.
using TileDist6x8 =
    tile_distribution_encoding<sequence<>, tuple<sequence<2, 3>, sequence<2, 4>>,
                               tuple<sequence<1>, sequence<2>>, tuple<sequence<0>, sequence<0>>,
                               sequence<1, 2>, sequence<1, 1>>;
// A long contiguous run: 8 lanes x 32 values along one row.
using EncLongRun =
    tile_distribution_encoding<sequence<>, tuple<sequence<1>, sequence<8, 32>>, tuple<sequence<2>>,
                               tuple<sequence<0>>, sequence<1, 2>, sequence<0, 1>>;

template <typename Enc>
using dstr_t = decltype(make_static_tile_distribution(Enc{}));
template <typename Enc, typename T, index_t MaxVec = max_vector_access_bytes>
using traits_t = load_store_traits<dstr_t<Enc>, T, MaxVec>;

// Calls f(p) for every partition index of a distribution.
template <typename Dstr, typename F>
void for_each_partition(F&& f)
{
    constexpr auto ps    = Dstr::get_ps_lengths();
    constexpr index_t np = Dstr::get_num_of_dimension_p();
    index_t total        = 1;
    static_for<0, np, 1>{}([&](auto i) { total *= ps[i]; });
    for(index_t lin = 0; lin < total; ++lin)
    {
        multi_index<np> p{};
        index_t rest = lin;
        static_for<np - 1, -1, -1>{}([&](auto i) {
            p(i) = rest % ps[i];
            rest /= ps[i];
        });
        f(p);
    }
}

// Calls f(y) for every Y index of a distribution.
template <typename Dstr, typename F>
void for_each_y(F&& f)
{
    using ys             = typename Dstr::DstrEncode::detail::ys_lengths;
    constexpr index_t ny = ys::size();
    for(index_t lin = 0; lin < ys::product(); ++lin)
    {
        multi_index<ny> y{};
        index_t rest = lin;
        for(index_t i = ny - 1; i >= 0; --i)
        {
            y(i) = rest % ys::at(i);
            rest /= ys::at(i);
        }
        f(y);
    }
}

float pattern(index_t r, index_t c) { return static_cast<float>(r * 1000 + c + 1); }

// A rows x cols matrix with row stride ld (>= cols), filled with pattern(); the gap after each
// row holds a marker that a correct load never returns.
struct host_matrix
{
    index_t rows, cols, ld;
    std::vector<float> data;
    host_matrix(index_t r, index_t c, index_t l, bool fill = true)
        : rows(r), cols(c), ld(l), data(static_cast<size_t>(r * l), -7.0f)
    {
        if(fill)
            for(index_t i = 0; i < r; ++i)
                for(index_t j = 0; j < c; ++j)
                    at(i, j) = pattern(i, j);
    }
    float& at(index_t r, index_t c) { return data[static_cast<size_t>(r * ld + c)]; }
};

// Loads through a window at `origin` for every thread and checks each value against direct
// indexing: the pattern inside the matrix, zero outside it.
template <typename Enc, typename View>
void expect_load_matches_direct_indexing(const View& view, const host_matrix& m,
                                         multi_index<2> origin, index_t expect_vector)
{
    constexpr auto dstr = make_static_tile_distribution(Enc{});
    using D             = remove_cvref_t<decltype(dstr)>;
    const auto lengths  = D::get_lengths();
    for_each_partition<D>([&](const auto& p) {
        auto win = make_tile_window(view, lengths, origin, dstr, p);
        EXPECT_EQ(decltype(win)::scalar_per_vector, expect_vector);
        const auto tile = load_tile(win);
        for_each_y<D>([&](const auto& y) {
            const auto x    = dstr.calculate_index(p, y);
            const index_t r = origin[0] + x[0], c = origin[1] + x[1];
            const bool inside  = r >= 0 && r < m.rows && c >= 0 && c < m.cols;
            const float expect = inside ? pattern(r, c) : 0.0f;
            ASSERT_EQ(tile[decltype(tile)::calculate_offset_from_y(y)], expect)
                << "p=(" << p[0] << (p.size() > 1 ? "," : "") << ") r=" << r << " c=" << c;
        });
    });
}

template <typename Enc>
void load_on_edges(index_t rows, index_t cols, index_t ld, multi_index<2> origin)
{
    host_matrix m(rows, cols, ld);
    // no promise about the last dimension: scalar accesses
    const auto plain = make_naive_tensor_view<address_space_enum::global>(
        m.data.data(), make_tuple(rows, cols), make_tuple(ld, 1));
    expect_load_matches_direct_indexing<Enc>(plain, m, origin, 1);
}

} // namespace

TEST(LoadStoreTraits, Seed7124RowAndColumnMajor)
{
    using Row = traits_t<RowMajorDist, float>;
    using Col = traits_t<ColMajorDist, float>;
    static_assert(Row::vector_dim_y == 1 && Row::scalar_per_vector == 4);
    static_assert(Col::vector_dim_y == 1 && Col::scalar_per_vector == 2);
    static_assert(Row::num_access == 2 && Col::num_access == 4);
}

TEST(LoadStoreTraits, Seed7125SixByEight)
{
    using T = traits_t<TileDist6x8, float>;
    static_assert(T::vector_dim_y == 1 && T::scalar_per_vector == 4 && T::num_access == 3);
    for(index_t i = 0; i < 3; ++i)
    {
        const auto info = T::get_vectorized_access_info(i);
        EXPECT_EQ(info.base_indices[0], i);
        EXPECT_EQ(info.base_indices[1], 0);
        EXPECT_EQ(info.vector_size, 4);
    }
}

TEST(LoadStoreTraits, VectorLengthByTypeRunAndMemory)
{
    // run of 32: 16 bytes decide
    static_assert(traits_t<EncLongRun, float>::scalar_per_vector == 4);
    static_assert(traits_t<EncLongRun, half_t>::scalar_per_vector == 8);
    static_assert(traits_t<EncLongRun, bf16_t>::scalar_per_vector == 8);
    static_assert(traits_t<EncLongRun, fp8_t>::scalar_per_vector == 16);
    static_assert(traits_t<EncLongRun, double>::scalar_per_vector == 2);
    static_assert(traits_t<EncLongRun, half_t>::num_access == 4);
    // the memory's promise caps it
    static_assert(traits_t<EncLongRun, half_t, 4>::scalar_per_vector == 4);
    static_assert(traits_t<EncLongRun, half_t, 1>::scalar_per_vector == 1);
    static_assert(traits_t<EncLongRun, half_t, 12>::scalar_per_vector == 4);
    // a run of 3 cannot be split into vectors
    static_assert(traits_t<TileDist6x8, float>::scalar_per_vector == 4);
    using Enc3 = tile_distribution_encoding<sequence<>, tuple<sequence<4, 3>>, tuple<sequence<1>>,
                                            tuple<sequence<0>>, sequence<1>, sequence<1>>;
    static_assert(traits_t<Enc3, float>::scalar_per_vector == 1);
    // the vector Y need not be the last Y; no contiguous Y means scalar
    static_assert(traits_t<EncPermutedYs, float>::vector_dim_y == 0);
    static_assert(traits_t<EncPermutedYs, float>::scalar_per_vector == 2);
    static_assert(traits_t<EncLanesInner, float>::scalar_per_vector == 1);
    static_assert(traits_t<EncCopy, half_t>::scalar_per_vector == 8);
    static_assert(traits_t<EncCopy, float>::scalar_per_vector == 4);
}

TEST(LoadStoreTraits, AccessesAreASnakeWithTheVectorInnermost)
{
    using T = traits_t<EncPermutedYs, float>;
    // Y1 (length 2) outer, the vector Y0 (length 2, one access) inner
    static_assert(T::num_access == 2);
    EXPECT_EQ(T::get_y_indices(0)[1], 0);
    EXPECT_EQ(T::get_y_indices(1)[1], 1);
    using C = traits_t<EncCopy, float>;
    static_assert(C::num_access == 4);
    EXPECT_EQ(C::get_y_indices(1)[1], 4);
    EXPECT_EQ(C::get_y_indices(2)[1], 4); // snake: the next row starts at the far end
    EXPECT_EQ(C::get_y_indices(2)[0], 1);
}

TEST(LoadStoreTraits, ViewPromiseIsReadFromTheDescriptor)
{
    const auto plain = make_naive_tensor_descriptor(make_tuple(5, 7), make_tuple(9, 1));
    const auto vec8 =
        make_naive_tensor_descriptor(make_tuple(5, 8), make_tuple(16, 1), number<8>{}, number<1>{});
    const auto packed = make_naive_tensor_descriptor_packed(make_tuple(4, 8), number<4>{});
    EXPECT_EQ(get_guaranteed_last_dimension_vector_length<decltype(plain)>(), 1);
    EXPECT_EQ(get_guaranteed_last_dimension_vector_length<decltype(vec8)>(), 8);
    EXPECT_EQ(get_guaranteed_last_dimension_vector_length<decltype(packed)>(), 4);
    // a transposed view loses the promise
    const auto t = transform_tensor_descriptor(
        vec8, make_tuple(make_pass_through_transform(5), make_pass_through_transform(8)),
        make_tuple(sequence<1>{}, sequence<0>{}), make_tuple(sequence<0>{}, sequence<1>{}));
    EXPECT_EQ(get_guaranteed_last_dimension_vector_length<decltype(t)>(), 1);
}

TEST(TileWindowHost, Seed756ValuesForEveryThread)
{
    // The 9x9 pattern i*100+j seen through the 4x4 window at {1, 3}.
    std::vector<float> g(81);
    for(index_t i = 0; i < 9; ++i)
        for(index_t j = 0; j < 9; ++j)
            g[static_cast<size_t>(i * 9 + j)] = static_cast<float>(i * 100 + j);
    constexpr auto dstr = make_static_tile_distribution(Enc4x4{});
    const auto view =
        make_naive_tensor_view_packed<address_space_enum::global>(g.data(), make_tuple(9, 9));
    const std::vector<std::vector<float>> expect = {
        {103, 104, 203, 204}, {105, 106, 205, 206}, {303, 304, 403, 404}, {305, 306, 405, 406}};
    for(index_t w = 0; w < 2; ++w)
        for(index_t l = 0; l < 2; ++l)
        {
            auto window =
                make_tile_window(view, make_tuple(4, 4), {1, 3}, dstr, make_multi_index(w, l));
            EXPECT_EQ(window.get_window_origin(), make_multi_index(1, 3));
            const auto t = window.load();
            std::vector<float> got;
            sweep_tile(t, [&](auto idx) { got.push_back(t(idx)); });
            EXPECT_EQ(got, expect[static_cast<size_t>(w * 2 + l)]);
        }
}

TEST(TileWindowHost, ScalarLoadsOnEdgesMatchDirectIndexing)
{
    load_on_edges<EncCopy>(37, 45, 45, {32, 32}); // bottom-right corner tile, partly outside
    load_on_edges<EncCopy>(37, 45, 50, {-3, 40}); // left of and past the matrix
    load_on_edges<EncRep>(19, 13, 16, {16, 8});
    load_on_edges<EncPermutedYs>(7, 5, 5, {1, 2});
    load_on_edges<EncLanesInner>(3, 7, 8, {0, 1});
    load_on_edges<Enc4x4>(9, 9, 9, {6, 6});
}

TEST(TileWindowHost, VectorLoadsOnEdgesMatchDirectIndexing)
{
    // The view promises 8-element runs: N % 8 == 0 and ld % 8 == 0; M is not a multiple.
    for(index_t rows : {1, 17, 37})
    {
        host_matrix m(rows, 40, 48);
        const auto view = make_naive_tensor_view<address_space_enum::global>(
            m.data.data(), make_tuple(rows, 40), make_tuple(48, 1), number<8>{}, number<1>{});
        expect_load_matches_direct_indexing<EncCopy>(view, m, {16, 32}, 4); // float: 4 per access
        expect_load_matches_direct_indexing<EncCopy>(view, m, {0, 0}, 4);
        expect_load_matches_direct_indexing<EncPermutedYs>(view, m, {rows - 1, 8}, 2);
    }
}

TEST(TileWindowHost, StoresWriteTheTileAndNothingElse)
{
    constexpr auto dstr = make_static_tile_distribution(EncCopy{});
    using D             = remove_cvref_t<decltype(dstr)>;
    for(const bool vector : {false, true})
    {
        const index_t rows = 21, cols = 40, ld = 48;
        host_matrix out(rows, cols, ld, false);
        std::fill(out.data.begin(), out.data.end(), -1.0f);
        const auto desc  = make_naive_tensor_descriptor(make_tuple(rows, cols), make_tuple(ld, 1));
        const auto vdesc = make_naive_tensor_descriptor(make_tuple(rows, cols), make_tuple(ld, 1),
                                                        number<8>{}, number<1>{});
        const multi_index<2> origin{16, 24};
        for_each_partition<D>([&](const auto& p) {
            auto tile = make_static_distributed_tensor<float>(dstr);
            for_each_y<D>([&](const auto& y) {
                const auto x = dstr.calculate_index(p, y);
                tile.get_thread_buffer()[tile.calculate_offset_from_y(y)] =
                    pattern(origin[0] + x[0], origin[1] + x[1]);
            });
            if(vector)
            {
                auto v = make_tensor_view<address_space_enum::global>(out.data.data(), vdesc);
                auto w = make_tile_window(v, D::get_lengths(), origin, dstr, p);
                EXPECT_EQ(decltype(w)::scalar_per_vector, 4);
                store_tile(w, tile);
            }
            else
            {
                auto v = make_tensor_view<address_space_enum::global>(out.data.data(), desc);
                auto w = make_tile_window(v, D::get_lengths(), origin, dstr, p);
                store_tile(w, tile);
            }
        });
        for(index_t r = 0; r < rows; ++r)
            for(index_t c = 0; c < ld; ++c)
            {
                const bool in_tile = r >= 16 && r < 32 && c >= 24 && c < 56;
                const bool written = in_tile && c < cols;
                ASSERT_EQ(out.at(r, c), written ? pattern(r, c) : -1.0f) << r << "," << c;
            }
    }
}

TEST(TileWindowHost, TransposingStoreThroughATransposedView)
{
    // Store a 16x32 tile of an M x N matrix into an N x M buffer by storing through that
    // buffer seen as M x N.
    constexpr auto dstr = make_static_tile_distribution(EncCopy{});
    using D             = remove_cvref_t<decltype(dstr)>;
    const index_t M = 19, N = 35;
    std::vector<float> out(static_cast<size_t>(N * M), -1.0f);
    const auto nm = make_naive_tensor_view<address_space_enum::global>(out.data(), make_tuple(N, M),
                                                                       make_tuple(M, 1));
    const auto mn = transform_tensor_view(
        nm, make_tuple(make_pass_through_transform(M), make_pass_through_transform(N)),
        make_tuple(sequence<1>{}, sequence<0>{}), make_tuple(sequence<0>{}, sequence<1>{}));
    for(index_t m0 = 0; m0 < M; m0 += 16)
        for(index_t n0 = 0; n0 < N; n0 += 32)
            for_each_partition<D>([&](const auto& p) {
                auto tile = make_static_distributed_tensor<float>(dstr);
                for_each_y<D>([&](const auto& y) {
                    const auto x = dstr.calculate_index(p, y);
                    tile.get_thread_buffer()[tile.calculate_offset_from_y(y)] =
                        pattern(m0 + x[0], n0 + x[1]);
                });
                auto w = make_tile_window(mn, D::get_lengths(), make_multi_index(m0, n0), dstr, p);
                static_assert(decltype(w)::scalar_per_vector == 1);
                store_tile(w, tile);
            });
    for(index_t n = 0; n < N; ++n)
        for(index_t m = 0; m < M; ++m)
            ASSERT_EQ(out[static_cast<size_t>(n * M + m)], pattern(m, n));
}

TEST(TileWindowHost, AtomicUpdateAddsEveryReplica)
{
    // EncRep holds every element twice (R = 2): an atomic_add view receives each twice.
    constexpr auto dstr = make_static_tile_distribution(EncRep{});
    using D             = remove_cvref_t<decltype(dstr)>;
    const index_t rows = 29, cols = 14;
    std::vector<float> acc(static_cast<size_t>(rows * cols), 0.5f);
    auto view =
        make_naive_tensor_view<address_space_enum::global, memory_operation_enum::atomic_add>(
            acc.data(), make_tuple(rows, cols), make_tuple(cols, 1));
    const multi_index<2> origin{16, 4};
    for_each_partition<D>([&](const auto& p) {
        auto tile = make_static_distributed_tensor<float>(dstr);
        set_tile(tile, 1.0f);
        auto w = make_tile_window(view, D::get_lengths(), origin, dstr, p);
        update_tile(w, tile);
    });
    for(index_t r = 0; r < rows; ++r)
        for(index_t c = 0; c < cols; ++c)
        {
            const bool in_tile = r >= 16 && r < 48 && c >= 4 && c < 20;
            ASSERT_EQ(acc[static_cast<size_t>(r * cols + c)], in_tile ? 2.5f : 0.5f);
        }
}

TEST(TileWindowHost, MovingEqualsMakingAtTheNewOrigin)
{
    host_matrix m(50, 70, 72);
    const auto view = make_naive_tensor_view<address_space_enum::global>(
        m.data.data(), make_tuple(50, 70), make_tuple(72, 1), number<8>{}, number<1>{});
    constexpr auto dstr = make_static_tile_distribution(EncCopy{});
    using D             = remove_cvref_t<decltype(dstr)>;
    for_each_partition<D>([&](const auto& p) {
        auto moving = make_tile_window(view, D::get_lengths(), make_tuple(0, 0), dstr, p);
        for(index_t step = 0; step < 4; ++step)
        {
            move_tile_window(moving, make_multi_index(16, 0));
            moving.move_slice_window(make_tuple(0, 24));
            const multi_index<2> at{16 * (step + 1), 24 * (step + 1)};
            ASSERT_EQ(moving.get_window_origin(), at);
            auto fresh   = make_tile_window(view, D::get_lengths(), at, dstr, p);
            const auto a = moving.load();
            const auto b = fresh.load();
            for(index_t i = 0; i < a.size(); ++i)
                ASSERT_EQ(a[i], b[i]);
        }
        moving.set_window_origin(make_tuple(2, 8));
        auto fresh = make_tile_window(view, D::get_lengths(), {2, 8}, dstr, p);
        EXPECT_EQ(moving.get_pre_computed_coord().get_offset(),
                  fresh.get_pre_computed_coord().get_offset());
    });
}

TEST(TileWindowHost, LengthsOnlyWindowTakesADistributionLater)
{
    host_matrix m(16, 32, 32);
    const auto view = make_naive_tensor_view_packed<address_space_enum::global>(m.data.data(),
                                                                                make_tuple(16, 32));
    auto plain      = make_tile_window(view, make_tuple(number<16>{}, number<32>{}), {0, 0});
    plain.move(make_multi_index(0, 0));
    EXPECT_EQ(plain.get_window_origin(), make_multi_index(0, 0));
    constexpr auto dstr = make_static_tile_distribution(EncCopy{});
    auto w              = make_tile_window(plain, dstr, make_multi_index(1, 5));
    const auto t        = w.load();
    const auto x        = dstr.calculate_index(make_multi_index(1, 5));
    EXPECT_EQ(t[0], pattern(x[0], x[1]));
}

TEST(LdsXorSwizzle, TileDescriptorIsABijectionWithVectorRuns)
{
    constexpr index_t M = 16, K = 32, KPack = 8;
    for(const index_t layer : {1, 2})
    {
        std::vector<int> hit(M * K, 0);
        auto check = [&](const auto& desc) {
            static_assert(remove_cvref_t<decltype(desc)>::is_static());
            EXPECT_EQ(static_cast<index_t>(desc.get_element_space_size()), M * K);
            EXPECT_EQ(get_guaranteed_last_dimension_vector_length<decltype(desc)>(), KPack);
            for(index_t m = 0; m < M; ++m)
                for(index_t k = 0; k < K; ++k)
                {
                    const index_t off = desc.calculate_offset(make_multi_index(m, k));
                    ASSERT_GE(off, 0);
                    ASSERT_LT(off, M * K);
                    ++hit[static_cast<size_t>(off)];
                    // vectors of KPack stay contiguous
                    if(k % KPack != 0)
                    {
                        ASSERT_EQ(off, desc.calculate_offset(make_multi_index(m, k - 1)) + 1);
                    }
                }
        };
        if(layer == 1)
            check(make_xor_swizzled_lds_descriptor<M, K, KPack, 1>());
        else
            check(make_xor_swizzled_lds_descriptor<M, K, KPack, 2>());
        for(int h : hit)
            ASSERT_EQ(h, 1);
    }
    // the 4-D form of the seed: (L, M', K0, KPack) with the XOR on (M', L * K0 + K0)
    using S          = lds_index_swapping<32, 8, 2, 16>;
    const auto final = S::final_descriptor();
    for(index_t l = 0; l < 2; ++l)
        for(index_t mp = 0; mp < 8; ++mp)
            for(index_t k0 = 0; k0 < 4; ++k0)
                EXPECT_EQ(final.calculate_offset(make_multi_index(l, mp, k0, 3)),
                          ((l * 4 + k0) ^ (mp % 8)) * 8 + mp * 64 + 3);
}

TEST(LdsXorSwizzle, ColumnReadsAreConflictFreeWhereRowMajorConflicts)
{
    // 16-byte accesses (8 halves) are served 8 lanes at a time; 32 banks of 4 bytes make 8
    // groups of 16 bytes. Lanes 0..7 read column block k0 of rows 0..7 of a 64 x 32 half tile.
    constexpr index_t M = 64, K = 32, KPack = 8;
    const auto swz = make_xor_swizzled_lds_descriptor<M, K, KPack, 2>();
    const auto row = make_naive_tensor_descriptor_packed(make_tuple(number<M>{}, number<K>{}));
    auto groups    = [](const auto& desc, index_t k0, index_t m0) {
        std::set<index_t> g;
        for(index_t lane = 0; lane < 8; ++lane)
            g.insert((desc.calculate_offset(make_multi_index(m0 + lane, k0 * KPack)) * 2 / 16) % 8);
        return g.size();
    };
    for(index_t k0 = 0; k0 < K / KPack; ++k0)
        for(index_t m0 = 0; m0 < M; m0 += 8)
        {
            EXPECT_EQ(groups(swz, k0, m0), 8u) << "k0=" << k0 << " m0=" << m0;
            EXPECT_EQ(groups(row, k0, m0), 2u); // 4-way conflict
        }
}

TEST(LdsXorSwizzle, WindowRoundTripThroughSwizzledLayout)
{
    // Registers -> swizzled LDS (vector stores) -> registers with another distribution.
    constexpr index_t M = 16, K = 32;
    std::vector<half_t> lds(M * K, type_convert<half_t>(-1.0f));
    const auto view = make_tensor_view<address_space_enum::lds>(
        lds.data(), make_xor_swizzled_lds_descriptor<M, K, 8, 2>());
    constexpr auto in_d  = make_static_tile_distribution(EncCopy{});
    constexpr auto out_d = make_static_tile_distribution(EncLanesInner{});
    using DI             = remove_cvref_t<decltype(in_d)>;
    for_each_partition<DI>([&](const auto& p) {
        auto tile = make_static_distributed_tensor<float>(in_d);
        for_each_y<DI>([&](const auto& y) {
            const auto x = in_d.calculate_index(p, y);
            tile.get_thread_buffer()[tile.calculate_offset_from_y(y)] =
                static_cast<float>(x[0] * K + x[1]);
        });
        auto w = make_tile_window(view, DI::get_lengths(), {0, 0}, in_d, p);
        static_assert(decltype(w)::scalar_per_vector == 8);
        store_tile(w, tile); // converts to half
    });
    // EncLanesInner covers 4 x 8; read every 4 x 8 block of the 16 x 32 tile.
    using DO = remove_cvref_t<decltype(out_d)>;
    for(index_t m0 = 0; m0 < M; m0 += 4)
        for(index_t k0 = 0; k0 < K; k0 += 8)
            for_each_partition<DO>([&](const auto& p) {
                auto w = make_tile_window(view, DO::get_lengths(), {m0, k0}, out_d, p);
                auto t = make_static_distributed_tensor<float>(out_d);
                load_tile(t, w); // converts from half
                for_each_y<DO>([&](const auto& y) {
                    const auto x = out_d.calculate_index(p, y);
                    ASSERT_EQ(t[t.calculate_offset_from_y(y)],
                              static_cast<float>((m0 + x[0]) * K + k0 + x[1]));
                });
            });
}
