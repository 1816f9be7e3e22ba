/* DES micro-benchmark: the bare SimGrid wake-up ceiling beside simtgrid's
 * port throughput, in one run. SimGrid allows one engine per process, so
 * every measurement runs in a forked child that reports over a pipe.
 *
 *   des_bench [scale]     (scale multiplies every event count; default 1)
 * Rates are per second of CPU time of the measuring process.
 */
#include <glib.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xbt/log.h>

#include "simtgrid/des.h"

static double scale = 1;

/* Process CPU time in microseconds: on a shared machine it measures the
 * benchmark where wall time also counts other processes' turns (each
 * measurement runs in its own child, so the process is the benchmark). */
static double cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* ---- bare SimGrid -------------------------------------------------------- */

static long bare_n;
static sg_sem_t sem_ping, sem_pong;

static void bare_sleeper(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    for (long i = 0; i < bare_n; i++)
        sg_actor_sleep_for(1);
}

static void bare_pinger(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    for (long i = 0; i < bare_n; i++) {
        sg_sem_release(sem_ping);
        sg_sem_acquire(sem_pong);
    }
}

static void bare_ponger(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    for (long i = 0; i < bare_n; i++) {
        sg_sem_acquire(sem_ping);
        sg_sem_release(sem_pong);
    }
}

/* Boot SimGrid the way the engine does, for the bare measurements. */
static void bare_boot(void)
{
    des_clock c[1] = {{"core", 1000000, 0}};
    char *err = NULL;
    if (!des_engine_new(c, 1, false, &err)) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
}

static double bench_bare_sleep(void)
{
    bare_boot();
    bare_n = (long)(2e6 * scale);
    sg_actor_t a = sg_actor_init("sleeper", sg_host_by_name("chip"));
    sg_actor_start(a, bare_sleeper, 0, NULL);
    double t0 = cpu_us();
    simgrid_run();
    return bare_n / ((cpu_us() - t0) / 1e6);
}

static double bench_bare_sem(void)
{
    bare_boot();
    bare_n = (long)(1e6 * scale);
    sem_ping = sg_sem_init(0);
    sem_pong = sg_sem_init(0);
    sg_actor_t a = sg_actor_init("ping", sg_host_by_name("chip"));
    sg_actor_start(a, bare_pinger, 0, NULL);
    sg_actor_t b = sg_actor_init("pong", sg_host_by_name("chip"));
    sg_actor_start(b, bare_ponger, 0, NULL);
    double t0 = cpu_us();
    simgrid_run();
    /* Two wake-ups per round trip. */
    return 2.0 * bare_n / ((cpu_us() - t0) / 1e6);
}

/* ---- simtgrid ports ------------------------------------------------------ */

typedef struct token { uint64_t seq; } token;

typedef struct stage {
    des_port *in, *out;
    long limit;          /* source: messages to send; sink: to receive */
    unsigned burst;      /* source: messages per burst */
    des_time gap;        /* source: ticks between bursts */
    long moved;
} stage;

static void pingpong_main(des_actor *self, void *data)
{
    stage *s = data;
    des_time now = des_now(des_actor_engine(self));
    if (s->burst) {   /* the serving side starts the ball */
        token t = {0};
        des_port_try_send(s->out, &t, now);
    }
    for (;;) {
        token *t;
        while ((t = des_port_peek(s->in, now))) {
            token u = {t->seq + 1};
            des_port_pop(s->in, now);
            s->moved++;
            if (s->moved < s->limit)
                des_port_try_send(s->out, &u, now);
        }
        now = des_block(self);
    }
}

static void source_main(des_actor *self, void *data)
{
    stage *s = data;
    des_engine *e = des_actor_engine(self);
    des_time now = des_now(e);
    uint64_t seq = 0;
    while (s->moved < s->limit) {
        unsigned n = 0;
        token t = {seq};
        while (n < s->burst && s->moved < s->limit && des_port_try_send(s->out, &t, now)) {
            t.seq = ++seq;
            n++;
            s->moved++;
        }
        des_count_events(e, n);
        if (n == s->burst)
            des_wake_at(self, now + s->gap);
        now = des_block(self);   /* next burst, or a freed slot */
    }
}

/* Forward every delivered message; what the next port refuses stays queued
 * here and is retried when a credit returns. */
static void forward_main(des_actor *self, void *data)
{
    stage *s = data;
    des_engine *e = des_actor_engine(self);
    des_time now = des_now(e);
    for (;;) {
        token *t;
        unsigned n = 0;
        while ((t = des_port_peek(s->in, now))) {
            if (s->out && !des_port_try_send(s->out, t, now))
                break;
            des_port_pop(s->in, now);
            s->moved++;
            n++;
        }
        des_count_events(e, n);
        if (!s->out && s->moved >= s->limit)
            des_stop(e);
        /* Blocked on the next port: retry when woken by its credit. If a
         * delivered message waits only on us, look again next tick. */
        if (!s->out && des_port_next(s->in) <= now)
            des_wake_at(self, now + 1);
        now = des_block(self);
    }
}

static double bench_pingpong(void)
{
    des_clock c[1] = {{"core", 1000000, 0}};
    char *err = NULL;
    des_engine *e = des_engine_new(c, 1, false, &err);
    long n = (long)(1e6 * scale);
    static stage a, b;
    a = (stage){.limit = n, .burst = 1};
    b = (stage){.limit = n};
    des_actor *x = des_actor_new(e, "ping", pingpong_main, &a);
    des_actor *y = des_actor_new(e, "pong", pingpong_main, &b);
    a.out = b.in = des_port_new(e, "xy", sizeof(token), 4, 1, x, y);
    b.out = a.in = des_port_new(e, "yx", sizeof(token), 4, 1, y, x);
    double t0 = cpu_us();
    des_run(e);
    double s = (cpu_us() - t0) / 1e6;
    return (a.moved + b.moved) / s;
}

/* Source -> 4 forwarding stages -> sink, each link with `lat` cycles; the
 * source emits bursts of `burst` messages every `lat` cycles. Messages per
 * second counts every hop (5 per message). */
static double bench_pipeline(des_time lat, unsigned burst, double *wakeups_per_s)
{
    des_clock c[1] = {{"core", 1000000, 0}};
    char *err = NULL;
    des_engine *e = des_engine_new(c, 1, false, &err);
    long n = (long)(4e5 * scale);
    static stage st[6];
    des_actor *act[6];
    st[0] = (stage){.limit = n, .burst = burst, .gap = lat};
    act[0] = des_actor_new(e, "source", source_main, &st[0]);
    for (int i = 1; i < 6; i++) {
        st[i] = (stage){.limit = n};
        char name[16];
        snprintf(name, sizeof name, "stage%d", i);
        act[i] = des_actor_new(e, name, forward_main, &st[i]);
    }
    for (int i = 0; i < 5; i++) {
        char name[16];
        snprintf(name, sizeof name, "link%d", i);
        des_port *p = des_port_new(e, name, sizeof(token), 2 * burst, lat, act[i], act[i + 1]);
        st[i].out = p;
        st[i + 1].in = p;
    }
    double t0 = cpu_us();
    des_run(e);
    double s = (cpu_us() - t0) / 1e6;
    *wakeups_per_s = des_get_counters(e).wakeups / s;
    long hops = 0;
    for (int i = 1; i < 6; i++)
        hops += st[i].moved;
    return hops / s;
}

/* ---- fork per measurement ------------------------------------------------ */

typedef struct result { double v, aux; } result;

static result in_child(int which, des_time lat, unsigned burst)
{
    int fd[2];
    result r = {0, 0};
    if (pipe(fd) != 0)
        return r;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        result out = {0, 0};
        if (which == 0)
            out.v = bench_bare_sleep();
        else if (which == 1)
            out.v = bench_bare_sem();
        else if (which == 2)
            out.v = bench_pingpong();
        else
            out.v = bench_pipeline(lat, burst, &out.aux);
        if (write(fd[1], &out, sizeof out) != sizeof out)
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    if (read(fd[0], &r, sizeof r) != sizeof r)
        r.v = -1;
    close(fd[0]);
    waitpid(pid, NULL, 0);
    return r;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        scale = atof(argv[1]);
    if (scale <= 0)
        scale = 1;
    result sleep = in_child(0, 0, 0), sem = in_child(1, 0, 0);
    double ceiling = sleep.v > sem.v ? sleep.v : sem.v;
    printf("simtgrid DES benchmark (scale %.2f)\n\n", scale);
    printf("%-44s %14s %10s\n", "measurement", "per second", "x ceiling");
    printf("%-44s %14.0f %10s\n", "bare SimGrid sleep_for loop (wake-ups)", sleep.v, "");
    printf("%-44s %14.0f %10s\n", "bare SimGrid semaphore ping-pong (wake-ups)", sem.v, "");
    printf("%-44s %14.0f %10.2f\n", "ceiling = best bare wake-up rate", ceiling, 1.0);
    result pp = in_child(2, 1, 1);
    printf("%-44s %14.0f %10.2f\n", "port ping-pong, latency 1 (messages)", pp.v, pp.v / ceiling);
    des_time lats[] = {1, 2, 4, 8};
    unsigned bursts[] = {1, 16, 64};
    for (unsigned b = 0; b < 3; b++)
        for (unsigned i = 0; i < 4; i++) {
            result r = in_child(3, lats[i], bursts[b]);
            char label[64];
            snprintf(label, sizeof label, "4-stage pipeline, latency %lu, burst %u (hops)",
                     (unsigned long)lats[i], bursts[b]);
            printf("%-44s %14.0f %10.2f   (%.0f wake-ups/s)\n", label, r.v, r.v / ceiling, r.aux);
        }
    return 0;
}
