/* timing.c: executes with timings and prints them: the total, then per kernel (on the interpreter, per op)
 * its name, calls and time, and the same as a ready-made table.
 */
#include <stdio.h>

#include "oxhlo.h"

static const char *PROGRAM =
    "func.func @main(%x: tensor<4xf64>) -> tensor<4xf64> {\n"
    "  %0 = stablehlo.multiply %x, %x : tensor<4xf64>\n"
    "  %1 = stablehlo.add %0, %x : tensor<4xf64>\n"
    "  %2 = stablehlo.subtract %1, %x : tensor<4xf64>\n"
    "  return %2 : tensor<4xf64>\n"
    "}\n";

int main(void) {
    OxhloClient *client = NULL;
    OxhloExecutable *exe = NULL;
    OxhloBuffer *x = NULL, *y = NULL;
    OxhloTiming *timing = NULL;
    OxhloStatus *st = oxhlo_client_create(OXHLO_BACKEND_DEFAULT, &client);
    if (!st) st = oxhlo_compile_text(client, PROGRAM, NULL, &exe);
    const double data[4] = {1.0, -2.0, 0.5, 3.0};
    const int64_t dims[1] = {4};
    if (!st) st = oxhlo_buffer_create(OXHLO_DTYPE_F64, dims, 1, data, sizeof data, &x);
    const OxhloBuffer *inputs[1] = {x};
    if (!st) st = oxhlo_execute_with_timing(exe, inputs, 1, &y, 1, &timing);
    int rc = 0;
    if (st) {
        fprintf(stderr, "error: %s\n", oxhlo_status_message(st));
        oxhlo_status_destroy(st);
        rc = 1;
    } else {
        double out[4];
        oxhlo_buffer_copy_to_host(y, out, sizeof out);
        /* x*x + x - x = x*x */
        for (int i = 0; i < 4; i++) {
            if (out[i] != data[i] * data[i]) rc = 1;
        }
        size_t n = oxhlo_timing_num_kernels(timing);
        printf("total %llu ns, %zu kernels\n", (unsigned long long)oxhlo_timing_total_ns(timing), n);
        for (size_t i = 0; i < n; i++) {
            printf("  %-24s %-20s calls=%llu %llu ns\n", oxhlo_timing_kernel_name(timing, i),
                   oxhlo_timing_kernel_location(timing, i), (unsigned long long)oxhlo_timing_kernel_calls(timing, i),
                   (unsigned long long)oxhlo_timing_kernel_ns(timing, i));
        }
        printf("%s\n", oxhlo_timing_report(timing));
        if (n == 0 || oxhlo_timing_total_ns(timing) == 0 || oxhlo_timing_kernel_name(timing, n) != NULL) rc = 1;
    }
    oxhlo_timing_destroy(timing);
    oxhlo_buffer_destroy(y);
    oxhlo_buffer_destroy(x);
    oxhlo_executable_destroy(exe);
    oxhlo_client_destroy(client);
    return rc;
}
