/* add.c: the smallest oxhlo C program. Compiles a StableHLO program that adds two 2x2 f32 matrices, runs
 * it, prints the result, and frees everything. Build (from the repository root, after
 * `cargo build -p oxhlo-capi`):
 *   cc examples/c/add.c -Icrates/oxhlo-capi/include -Ltarget/debug -loxhlo -Wl,-rpath,$PWD/target/debug
 */
#include <stdio.h>
#include <stdlib.h>

#include "oxhlo.h"

static const char *PROGRAM =
    "func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {\n"
    "  %0 = stablehlo.add %a, %b : tensor<2x2xf32>\n"
    "  return %0 : tensor<2x2xf32>\n"
    "}\n";

/* Prints and frees a status; returns 1 if it was an error. */
static int failed(OxhloStatus *st, const char *what) {
    if (st == NULL) return 0;
    fprintf(stderr, "%s failed (%s): %s\n", what, oxhlo_error_code_name(oxhlo_status_code(st)),
            oxhlo_status_message(st));
    oxhlo_status_destroy(st);
    return 1;
}

int main(void) {
    OxhloClient *client = NULL;
    OxhloExecutable *exe = NULL;
    OxhloBuffer *a = NULL, *b = NULL, *out = NULL;
    int rc = 1;

    if (failed(oxhlo_client_create(OXHLO_BACKEND_DEFAULT, &client), "client")) goto done;
    if (failed(oxhlo_compile_text(client, PROGRAM, NULL, &exe), "compile")) goto done;

    const int64_t dims[2] = {2, 2};
    const float xa[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    const float xb[4] = {10.0f, 20.0f, 30.0f, 40.0f};
    if (failed(oxhlo_buffer_create(OXHLO_DTYPE_F32, dims, 2, xa, sizeof xa, &a), "buffer a")) goto done;
    if (failed(oxhlo_buffer_create(OXHLO_DTYPE_F32, dims, 2, xb, sizeof xb, &b), "buffer b")) goto done;

    const OxhloBuffer *inputs[2] = {a, b};
    if (failed(oxhlo_execute(exe, inputs, 2, &out, 1), "execute")) goto done;

    float result[4];
    if (failed(oxhlo_buffer_copy_to_host(out, result, sizeof result), "copy")) goto done;
    const float expected[4] = {11.0f, 22.0f, 33.0f, 44.0f};
    for (int i = 0; i < 4; i++) {
        if (result[i] != expected[i]) {
            fprintf(stderr, "element %d: got %g, expected %g\n", i, result[i], expected[i]);
            goto done;
        }
    }
    printf("oxhlo %s: [[%g, %g], [%g, %g]]\n", oxhlo_version(), result[0], result[1], result[2], result[3]);
    rc = 0;

done:
    oxhlo_buffer_destroy(out);
    oxhlo_buffer_destroy(b);
    oxhlo_buffer_destroy(a);
    oxhlo_executable_destroy(exe);
    oxhlo_client_destroy(client);
    return rc;
}
