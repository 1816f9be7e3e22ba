/* graph_offsets / graph_edges: Matrix Market and SNAP files written by the
 * test, their CSR arrays worked out by hand; the BFS example of
 * workloads/examples/graph run level by level by the reference runner. */
#include "isa_test_util.h"
#include "test_files_util.h"

#define BASE UINT64_C(0x10000000)

static char *origin_in(const tmp_dir *t) { return g_strdup_printf("%s/k.sasm:3", t->path); }

/* Declares offsets `o` and edges `e` from `args`; both must load. */
static memimg *graph(const tmp_dir *t, const char *args, uint64_t nv, uint64_t ne)
{
    memimg *m = memimg_new(1);
    char *o = origin_in(t), *so = g_strdup_printf("graph_offsets(%s)", args),
         *se = g_strdup_printf("graph_edges(%s)", args);
    GError *e = NULL;
    cr_assert(memimg_add_array(m, "o", BASE, 4, false, nv + 1, so, o, &e), "%s", e ? e->message : "");
    cr_assert(memimg_add_array(m, "e", BASE + 0x100000, 4, false, ne, se, o, &e), "%s",
              e ? e->message : "");
    g_free(o), g_free(so), g_free(se);
    return m;
}

static void expect_arrays(memimg *m, const uint32_t *off, unsigned nv, const uint32_t *edges, unsigned ne)
{
    for (unsigned v = 0; v <= nv; v++)
        cr_assert_eq(memimg_read(m, BASE + 4 * v, 4), off[v], "offset %u", v);
    for (unsigned k = 0; k < ne; k++)
        cr_assert_eq(memimg_read(m, BASE + 0x100000 + 4 * k, 4), edges[k], "edge %u", k);
}

static void expect_graph_error(const tmp_dir *t, const char *init, uint64_t count, unsigned eb,
                               int code, const char *part)
{
    memimg *m = memimg_new(1);
    char *o = origin_in(t);
    GError *e = NULL;
    cr_assert(!memimg_add_array(m, "a", BASE, eb, false, count, init, o, &e), "'%s' accepted", init);
    cr_assert_eq(e->code, code, "%s: %s", init, e->message);
    cr_assert(strstr(e->message, "/k.sasm:3: array 'a': graph_"), "%s", e->message);
    cr_assert(strstr(e->message, part), "'%s' not in: %s", part, e->message);
    g_error_free(e);
    g_free(o);
    memimg_free(m);
}

Test(dinit_graph, matrix_market_general)
{
    tmp_dir t = tmp_dir_new();
    tmp_write(&t, "g.mtx",
              "%%MatrixMarket matrix coordinate pattern general\n"
              "% a comment\n"
              "4 4 5\n"
              "1 2\n1 3\n2 4\n3 4\n4 1\n", -1);
    /* 0-based edges 0->1, 0->2, 1->3, 2->3, 3->0: degrees 2, 1, 1, 1 */
    memimg *m = graph(&t, "path=\"g.mtx\"", 4, 5);
    const uint32_t off[] = {0, 2, 3, 4, 5}, edges[] = {1, 2, 3, 3, 0};
    expect_arrays(m, off, 4, edges, 5);
    memimg_free(m);
    tmp_dir_free(&t);
}

Test(dinit_graph, matrix_market_symmetric_adds_reverse_edges)
{
    tmp_dir t = tmp_dir_new();
    tmp_write(&t, "s.mtx",
              "%%MatrixMarket matrix coordinate integer symmetric\n"
              "3 3 3\n"
              "2 1 5\n3 1 7\n3 3 1\n", -1);
    /* entries (1,0), (2,0), (2,2) 0-based, mirrored except the self-loop:
     * 0: {1, 2}; 1: {0}; 2: {0, 2} -> offsets 0 2 3 5 */
    memimg *m = graph(&t, "path=\"s.mtx\"", 3, 5);
    const uint32_t off[] = {0, 2, 3, 5}, edges[] = {1, 2, 0, 0, 2};
    expect_arrays(m, off, 3, edges, 5);
    memimg_free(m);
    tmp_dir_free(&t);
}

Test(dinit_graph, snap_edge_list_sorted_by_target)
{
    tmp_dir t = tmp_dir_new();
    tmp_write(&t, "g.txt",
              "# Directed graph (each unordered pair of nodes is saved once)\n"
              "# FromNodeId\tToNodeId\n"
              "0\t3\n3\t1\r\n0\t1\n2\t0\n", -1);
    /* 0: {1, 3} (file order 3, 1: sorted); 1: {}; 2: {0}; 3: {1} */
    memimg *m = graph(&t, "path=\"g.txt\"", 4, 4);
    const uint32_t off[] = {0, 2, 2, 3, 4}, edges[] = {1, 3, 0, 1};
    expect_arrays(m, off, 4, edges, 4);
    memimg_free(m);
    /* vertices=6 adds two isolated vertices; undirected=1 mirrors:
     * 0: {1, 2, 3}; 1: {0, 3}; 2: {0}; 3: {0, 1}; 4, 5: {} */
    m = graph(&t, "path=\"g.txt\", format=snap, vertices=6, undirected=1", 6, 8);
    const uint32_t off2[] = {0, 3, 5, 6, 8, 8, 8}, edges2[] = {1, 2, 3, 0, 3, 0, 0, 1};
    expect_arrays(m, off2, 6, edges2, 8);
    memimg_free(m);
    tmp_dir_free(&t);
}

Test(dinit_graph, errors_name_the_graph_file_and_line)
{
    tmp_dir t = tmp_dir_new();
    tmp_write(&t, "g.txt", "0 1\n1 2\n", -1);
    tmp_write(&t, "bad.txt", "# c\n0 1\n1 x\n", -1);
    tmp_write(&t, "bad.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n4 1\n", -1);
    tmp_write(&t, "short.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n", -1);
    tmp_write(&t, "nob.mtx", "3 3 1\n1 2\n", -1);
    tmp_write(&t, "arr.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", -1);
    /* g.txt: 3 vertices (ids 0..2), 2 edges */
    expect_graph_error(&t, "graph_offsets(path=\"g.txt\")", 3, 4, MEMIMG_ERROR_LAYOUT,
                       "has 3 vertices and 2 edges: declare 4 elements, not 3");
    expect_graph_error(&t, "graph_edges(path=\"g.txt\")", 3, 4, MEMIMG_ERROR_LAYOUT,
                       "declare 2 elements, not 3");
    expect_graph_error(&t, "graph_edges(path=\"bad.txt\")", 2, 4, MEMIMG_ERROR_BAD_VALUE,
                       "bad.txt:3: expected an edge 'source target' (0-based ids), got '1 x'");
    expect_graph_error(&t, "graph_edges(path=\"bad.mtx\")", 2, 4, MEMIMG_ERROR_BAD_VALUE,
                       "bad.mtx:4: entry outside the declared rows and columns");
    expect_graph_error(&t, "graph_edges(path=\"short.mtx\")", 1, 4, MEMIMG_ERROR_BAD_VALUE,
                       "announces 3 entries, the file has 1");
    expect_graph_error(&t, "graph_edges(path=\"nob.mtx\")", 1, 4, MEMIMG_ERROR_BAD_VALUE,
                       "nob.mtx:1: expected the '%%MatrixMarket");
    expect_graph_error(&t, "graph_edges(path=\"arr.mtx\")", 1, 4, MEMIMG_ERROR_BAD_VALUE,
                       "only 'coordinate'");
    expect_graph_error(&t, "graph_edges(path=\"g.txt\", vertices=2)", 2, 4, MEMIMG_ERROR_RANGE,
                       "argument 'vertices' = 2 but");
    /* ids up to 299 do not fit u8 */
    expect_graph_error(&t, "graph_edges(path=\"g.txt\", vertices=300)", 2, 1, MEMIMG_ERROR_RANGE,
                       "values up to 299 need a wider integer element");
    expect_graph_error(&t, "graph_edges(path=\"none.txt\")", 2, 4, MEMIMG_ERROR_BAD_VALUE,
                       "argument 'path'");
    expect_graph_error(&t, "graph_edges(path=\"g.txt\", undirected=2)", 2, 4, MEMIMG_ERROR_RANGE,
                       "'undirected' = 2 is out of range");
    tmp_dir_free(&t);
}

/* The graph of workloads/examples/graph, as the test writes it. */
static const char bfs_graph[] =
    "%%MatrixMarket matrix coordinate pattern symmetric\n"
    "% 8 vertices, 8 undirected edges (lower triangle, 1-based):\n"
    "% 0-1 0-2 1-3 2-3 3-4 4-5 5-6 2-7 (0-based)\n"
    "8 8 8\n"
    "2 1\n3 1\n4 2\n4 3\n5 4\n6 5\n7 6\n8 3\n";

Test(dinit_graph, bfs_example_levels)
{
    const char *root = getenv("SIMTGRID_SRC");
    char *dir = g_strdup_printf("%s/workloads/examples/graph", root ? root : ".");
    char *gpath = g_build_filename(dir, "graph.mtx", NULL), *kpath = g_build_filename(dir, "bfs.sasm", NULL);
    char *committed, *kernel;
    cr_assert(g_file_get_contents(gpath, &committed, NULL, NULL));
    cr_assert_str_eq(committed, bfs_graph, "the example's graph is the one worked out here");
    cr_assert(g_file_get_contents(kpath, &kernel, NULL, NULL));

    /* the kernel and the graph, written afresh in a temporary folder */
    tmp_dir t = tmp_dir_new();
    tmp_write(&t, "graph.mtx", bfs_graph, -1);
    const char *k = tmp_write(&t, "bfs.sasm", kernel, -1);
    GError *e = NULL;
    isa_program *p = isa_program_load_file(k, &e);
    cr_assert_not_null(p, "%s", e ? e->message : "");
    memimg *m = isa_program_new_memimg(p, 1, &e);
    cr_assert_not_null(m, "%s", e ? e->message : "");
    /* BFS from 0: distance 1: {1, 2}; 2: {3, 7}; 3: {4}; 4: {5}; 5: {6}.
     * Stored levels are distance + 1, so five launches (cur = 1..5). */
    uint32_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    for (uint64_t cur = 1; cur <= 5; cur++) {
        isa_launch l;
        uint64_t params[2] = {8, cur};
        cr_assert(isa_launch_init(&l, p, m, grid, block, 32, params, 2, &e), "%s", e ? e->message : "");
        cr_assert(isa_run_launch(&l, 100000, NULL, &e), "%s", e ? e->message : "");
    }
    const uint32_t want[8] = {1, 2, 2, 3, 4, 5, 6, 3};
    uint64_t level;
    cr_assert(isa_program_symbol(p, "level", &level));
    for (unsigned v = 0; v < 8; v++)
        cr_assert_eq(memimg_read(m, level + 4 * v, 4), want[v], "vertex %u", v);
    memimg_free(m);
    isa_program_free(p);
    tmp_dir_free(&t);
    g_free(committed), g_free(kernel), g_free(dir), g_free(gpath), g_free(kpath);
}
