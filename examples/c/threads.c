/* threads.c: one executable shared by several threads, each executing it many times on its own inputs.
 * Clients, executables and buffers are thread-safe; each thread owns the buffers it creates.
 */
#include <pthread.h>
#include <stdio.h>

#include "oxhlo.h"

#define THREADS 4
#define RUNS 50

static OxhloExecutable *exe = NULL;

/* Computes (x * k) + 1 for x = [0, 1, 2, 3] with a per-thread k and checks it; returns the failure count. */
static void *worker(void *arg) {
    long id = (long)arg;
    long bad = 0;
    for (int run = 0; run < RUNS; run++) {
        int32_t k = (int32_t)(id * 1000 + run);
        const int32_t x[4] = {0, 1, 2, 3};
        const int32_t kk[4] = {k, k, k, k};
        const int64_t dims[1] = {4};
        OxhloBuffer *bx = NULL, *bk = NULL, *out = NULL;
        OxhloStatus *st = oxhlo_buffer_create(OXHLO_DTYPE_I32, dims, 1, x, sizeof x, &bx);
        if (!st) st = oxhlo_buffer_create(OXHLO_DTYPE_I32, dims, 1, kk, sizeof kk, &bk);
        const OxhloBuffer *inputs[2] = {bx, bk};
        if (!st) st = oxhlo_execute(exe, inputs, 2, &out, 1);
        int32_t r[4] = {0};
        if (!st) st = oxhlo_buffer_copy_to_host(out, r, sizeof r);
        if (st) {
            fprintf(stderr, "thread %ld: %s\n", id, oxhlo_status_message(st));
            oxhlo_status_destroy(st);
            bad++;
        } else {
            for (int i = 0; i < 4; i++) bad += r[i] != i * k + 1;
        }
        oxhlo_buffer_destroy(out);
        oxhlo_buffer_destroy(bk);
        oxhlo_buffer_destroy(bx);
    }
    return (void *)bad;
}

int main(void) {
    OxhloClient *client = NULL;
    OxhloStatus *st = oxhlo_client_create(OXHLO_BACKEND_DEFAULT, &client);
    if (!st)
        st = oxhlo_compile_text(client,
                                "func.func @main(%x: tensor<4xi32>, %k: tensor<4xi32>) -> tensor<4xi32> {\n"
                                "  %one = stablehlo.constant dense<1> : tensor<4xi32>\n"
                                "  %0 = stablehlo.multiply %x, %k : tensor<4xi32>\n"
                                "  %1 = stablehlo.add %0, %one : tensor<4xi32>\n"
                                "  return %1 : tensor<4xi32>\n}",
                                NULL, &exe);
    if (st) {
        fprintf(stderr, "error: %s\n", oxhlo_status_message(st));
        oxhlo_status_destroy(st);
        return 1;
    }
    pthread_t threads[THREADS];
    for (long i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, worker, (void *)i);
    long bad = 0;
    for (int i = 0; i < THREADS; i++) {
        void *r = NULL;
        pthread_join(threads[i], &r);
        bad += (long)r;
    }
    printf("%d threads x %d runs, %ld wrong results\n", THREADS, RUNS, bad);
    oxhlo_executable_destroy(exe);
    oxhlo_client_destroy(client);
    return bad == 0 ? 0 : 1;
}
