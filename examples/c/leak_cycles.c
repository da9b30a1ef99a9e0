/* leak_cycles.c: N compile/execute/destroy cycles through the C API (default 1000), for leak checkers
 * (valgrind --leak-check=full). Each cycle makes a client, compile options, an executable (cache on and off
 * in turn), buffers, executes with and without timings, and provokes errors whose statuses it frees.
 */
#include <stdio.h>
#include <stdlib.h>

#include "oxhlo.h"

static const char *PROGRAM =
    "func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {\n"
    "  %0 = stablehlo.add %a, %b : tensor<2x2xf32>\n"
    "  %1 = stablehlo.multiply %a, %b : tensor<2x2xf32>\n"
    "  return %0, %1 : tensor<2x2xf32>, tensor<2x2xf32>\n"
    "}\n";

static int check(OxhloStatus *st, int cycle, const char *what) {
    if (st == NULL) return 1;
    fprintf(stderr, "cycle %d: %s: %s\n", cycle, what, oxhlo_status_message(st));
    oxhlo_status_destroy(st);
    return 0;
}

int main(int argc, char **argv) {
    int cycles = argc > 1 ? atoi(argv[1]) : 1000;
    for (int i = 0; i < cycles; i++) {
        OxhloClient *client = NULL;
        OxhloCompileOptions *opts = NULL;
        OxhloExecutable *exe = NULL;
        OxhloBuffer *a = NULL, *b = NULL, *out[2] = {NULL, NULL};
        OxhloTiming *timing = NULL;
        if (!check(oxhlo_client_create(OXHLO_BACKEND_INTERPRETER, &client), i, "client")) return 1;
        if (!check(oxhlo_compile_options_create(&opts), i, "options")) return 1;
        check(oxhlo_compile_options_set_cache(opts, i % 2 == 0), i, "cache");
        check(oxhlo_compile_options_set_source_name(opts, "cycle.mlir"), i, "name");
        if (!check(oxhlo_compile_text(client, PROGRAM, opts, &exe), i, "compile")) return 1;
        const int64_t dims[2] = {2, 2};
        const float xa[4] = {1, 2, 3, (float)i};
        const float xb[4] = {5, 6, 7, 8};
        if (!check(oxhlo_buffer_create(OXHLO_DTYPE_F32, dims, 2, xa, sizeof xa, &a), i, "a")) return 1;
        if (!check(oxhlo_buffer_create(OXHLO_DTYPE_F32, dims, 2, xb, sizeof xb, &b), i, "b")) return 1;
        const OxhloBuffer *inputs[2] = {a, b};
        OxhloStatus *st = i % 3 == 0 ? oxhlo_execute_with_timing(exe, inputs, 2, out, 2, &timing)
                                     : oxhlo_execute(exe, inputs, 2, out, 2);
        if (!check(st, i, "execute")) return 1;
        float sum[4], prod[4];
        check(oxhlo_buffer_copy_to_host(out[0], sum, sizeof sum), i, "copy");
        check(oxhlo_buffer_copy_to_host(out[1], prod, sizeof prod), i, "copy");
        if (sum[0] != 6.0f || prod[3] != 8.0f * (float)i) {
            fprintf(stderr, "cycle %d: wrong result %g %g\n", i, sum[0], prod[3]);
            return 1;
        }
        /* Error paths allocate statuses too. */
        OxhloBuffer *unused[2] = {NULL, NULL};
        OxhloExecutable *broken = NULL;
        oxhlo_status_destroy(oxhlo_execute(exe, inputs, 1, unused, 2));
        if (i % 10 == 0) oxhlo_status_destroy(oxhlo_compile_text(client, "func.func @main(", opts, &broken));
        oxhlo_timing_destroy(timing);
        oxhlo_buffer_destroy(out[0]);
        oxhlo_buffer_destroy(out[1]);
        oxhlo_buffer_destroy(a);
        oxhlo_buffer_destroy(b);
        oxhlo_executable_destroy(exe);
        oxhlo_compile_options_destroy(opts);
        oxhlo_client_destroy(client);
    }
    printf("%d cycles done\n", cycles);
    return 0;
}
