/* Every profile error: the message names the file, the line and the key
 * (or group), and says what was expected. */
#include "gen_test_util.h"

static char *load_err(const char *text)
{
    char *path = write_profile("p.ini", text);
    GError *e = NULL;
    gen_profile *p = gen_profile_load(path, &e);
    cr_assert_null(p, "expected an error for:\n%s", text);
    cr_assert_not_null(e);
    cr_assert_eq(e->domain, SIMTGRID_ERROR);
    cr_assert_eq(e->code, SIMTGRID_ERROR_INPUT);
    char *m = g_strdup(e->message);
    g_error_free(e);
    remove_profile(path);
    return m;
}

/* The message contains every fragment ("p.ini:N:" is matched as "/p.ini:N:"
 * since the path is a temporary folder). */
#define expect_err(text, ...)                                                          \
    do {                                                                               \
        char *m_ = load_err(text);                                                     \
        const char *frags_[] = {__VA_ARGS__};                                          \
        for (size_t i_ = 0; i_ < G_N_ELEMENTS(frags_); i_++)                           \
            cr_expect(strstr(m_, frags_[i_]) != NULL, "message '%s' lacks '%s'", m_,     \
                      frags_[i_]);                                                     \
        g_free(m_);                                                                    \
    } while (0)

Test(gen_errors, unknown_group_names_the_nearest)
{
    expect_err("[loop]\ntrips = 2\n[memry]\npattern = gather\n", "/p.ini:3: unknown group [memry]",
               "did you mean [memory]");
}

Test(gen_errors, unknown_key_names_the_nearest_in_its_group)
{
    expect_err("[memory]\npatern = gather\n", "/p.ini:2: [memory] key 'patern': unknown key",
               "did you mean 'pattern'");
    expect_err("[branch]\nthen_op = 3\n", "/p.ini:2: [branch] key 'then_op'", "did you mean 'then_ops'");
}

Test(gen_errors, bad_values)
{
    expect_err("[memory]\npattern = scatter\n", "/p.ini:2: [memory] key 'pattern': expected one of",
               "gather", "got 'scatter'");
    expect_err("[loop]\ntrips = many\n", "/p.ini:2: [loop] key 'trips': expected an integer", "'many'");
    expect_err("[loop]\n\ntrips = -1\n", "/p.ini:3: [loop] key 'trips'", "out of range");
    expect_err("[branch]\nbias = 1.5\n", "/p.ini:2: [branch] key 'bias': expected a number", "out of range");
    expect_err("[compute]\nfp = x\n", "/p.ini:2: [compute] key 'fp': expected a number");
    expect_err("[loop]\nbarrier = maybe\n", "/p.ini:2: [loop] key 'barrier': expected true or false");
    expect_err("[memory]\nwidth = 3\n", "/p.ini:2: [memory] key 'width': expected one of");
    expect_err("[memory]\nfootprint = 100\n", "/p.ini:2: [memory] key 'footprint'", "out of range");
    expect_err("[profile]\nseed = -5\n", "/p.ini:2: [profile] key 'seed'");
    expect_err("[profile]\nname = 9lives\n", "/p.ini:2: [profile] key 'name': expected a kernel name");
}

Test(gen_errors, syntax_errors_from_the_key_file_reader)
{
    expect_err("[loop\ntrips = 1\n", "/p.ini:1: expected a group header");
    expect_err("trips = 1\n", "/p.ini:1: key 'trips' comes before any group");
    expect_err("[loop]\ntrips = 1\ntrips = 2\n", "/p.ini:3: [loop] key 'trips' is set again");
    expect_err("[loop]\n[loop]\n", "/p.ini:2: group [loop] appears again");
    expect_err("[loop]\njust words\n", "/p.ini:2: expected 'key = value'");
}

Test(gen_errors, missing_file)
{
    GError *e = NULL;
    cr_assert_null(gen_profile_load("/nonexistent/dir/x.ini", &e));
    cr_assert(strstr(e->message, "/nonexistent/dir/x.ini: cannot read file"), "%s", e->message);
    g_error_free(e);
}

Test(gen_errors, checks_across_keys_name_the_key_to_change)
{
    expect_err("[compute]\nops = 3\nint = 0\n", "/p.ini:3: [compute] key 'int': the mix is empty");
    expect_err("[memory]\nloads = 0\n", "/p.ini:2: [memory] key 'loads': expected at least 1 load");
    expect_err("[memory]\npattern = csr\nloads = 2\n", "/p.ini:3: [memory] key 'loads': expected 1");
    expect_err("[memory]\npattern = tree\nloads = 3\n", "/p.ini:3: [memory] key 'loads': expected 1");
    expect_err("[memory]\npattern = chase\nwidth = 8\n", "/p.ini:3: [memory] key 'width': expected 4");
    expect_err("[memory]\nwidth = 16\nfootprint = 4104\n",
               "/p.ini:3: [memory] key 'footprint': expected a multiple of memory.width");
    expect_err("[memory]\npattern = gather\nfootprint = 68719476736\n",
               "/p.ini:3: [memory] key 'footprint': expected at most 2^32 elements");
    expect_err("[memory]\npattern = csr\nfootprint = 4294967296\ndegree = 8\n",
               "/p.ini:4: [memory] key 'degree': expected vertices * degree < 2^32");
    /* degree left at its default (8): the error points at the key that was set. */
    expect_err("[memory]\npattern = csr\nfootprint = 8589934592\n",
               "/p.ini:3: [memory] key 'footprint': expected vertices * degree < 2^32");
    expect_err("[memory]\npattern = csr\nfootprint = 4096\nwindow = 2000\n",
               "/p.ini:4: [memory] key 'window': expected at most the vertex count");
    expect_err("[memory]\npattern = chase\nfootprint = 4096\nstride = 2048\n",
               "/p.ini:4: [memory] key 'stride': expected at most the element count");
    expect_err("[loop]\nshape = lane_skew\nbarrier = true\n", "/p.ini:3: [loop] key 'barrier': a barrier needs");
    expect_err("[loop]\nbarrier = true\n[memory]\npattern = csr\n", "/p.ini:2: [loop] key 'barrier'");
    expect_err("[shared]\npattern = exchange\n", "/p.ini:2: [shared] key 'pattern'",
               "expected loop.barrier = true");
    expect_err("[memory]\npattern = none\n[branch]\nshape = ifelse\ncond = data\n",
               "/p.ini:5: [branch] key 'cond': data needs a loaded value");
    expect_err("[loop]\nshape = lane_skew\ntrips = 1000000\nskew = 1\n",
               "/p.ini:4: [loop] key 'skew': expected trips + 31*skew <= 1000000");
}

/* The checks accept what they should: a branch without a mix is fine when
 * its paths are empty, and csr/tree with the default of 1 load. */
Test(gen_errors, valid_corner_cases_load)
{
    gen_profile_free(profile_ok("[compute]\nops = 0\nint = 0\n[branch]\nshape = ifelse\nthen_ops = 0\nelse_ops = 0\n"));
    gen_profile_free(profile_ok("[memory]\npattern = csr\nfootprint = 4096\nwindow = 1024\n"));
    gen_profile_free(profile_ok("[memory]\npattern = tree\n"));
    gen_profile_free(profile_ok("# comment only\n"));
}
